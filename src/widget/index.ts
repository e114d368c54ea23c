// anywidget front end: renders the `view_json` trait (a JSON string) and re-renders when it changes.
import { type RenderHandle, render } from '../core/index';

interface Model {
  get(name: 'view_json'): string;
  on(event: string, cb: () => void): void;
  off(event: string, cb: () => void): void;
}

export default {
  render({ model, el }: { model: Model; el: HTMLElement }): () => void {
    let handle: RenderHandle | null = null;
    const draw = (): void => {
      handle?.destroy();
      handle = render(el, model.get('view_json'));
    };
    model.on('change:view_json', draw);
    draw();
    return () => {
      model.off('change:view_json', draw);
      handle?.destroy();
    };
  },
};
