// anywidget front end: renders the `view_json` trait (a JSON string) and re-renders when it changes.
import type { AnyWidget, Render } from '@anywidget/types';
import { renderOutput as draw, type RenderHandle } from '../core/index';

/** The synced traits of pt2e_lens.live_widget.LensWidget. */
export interface LensTraits {
  view_json: string;
}

export const render: Render<LensTraits> = ({ model, el }) => {
  let handle: RenderHandle | null = null;
  const redraw = (): void => {
    handle?.destroy();
    handle = draw(el, model.get('view_json'));
  };
  model.on('change:view_json', redraw);
  redraw();
  return () => {
    model.off('change:view_json', redraw);
    handle?.destroy();
  };
};

export default { render } satisfies AnyWidget<LensTraits>;
