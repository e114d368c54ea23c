// The workbench anywidget (pt2e_lens.stepwise.widget): the step bar (src/core/workbench-bar.ts) above the run,
// which the core draws as pl.show does.
import type { AnyModel, AnyWidget, Render } from '@anywidget/types';
import { clear, h } from '../core/dom';
import { renderOutput as draw, type RenderHandle } from '../core/index';
import { drawBar, parse, selected, styleWorkbench, type Typed } from '../core/workbench-bar';

/** The synced traits of pt2e_lens.stepwise.widget.WorkbenchWidget. */
export interface WorkbenchTraits {
  view_json: string;
  state_json: string;
  /** the recipe's target as typed (the field's text) */
  recipe_target: string;
}

export const render: Render<WorkbenchTraits> = ({ model, el }) => {
  const doc = el.ownerDocument;
  styleWorkbench(el);
  const root = h(doc, 'div', { class: 'pt2e-lens pl-workbench' });
  const bar = h(doc, 'div', { class: 'pl-wb-controls' });
  const graph = h(doc, 'div', { class: 'pl-wb-graph' });
  root.append(bar, graph);
  el.appendChild(root);
  let handle: RenderHandle | null = null;
  let held: string | null = null; // the selection, kept while a click on "keep fp32" re-renders nothing
  const act = (action: string, extra: Record<string, string> = {}): void =>
    (model as AnyModel).send({ action, ...extra });
  const pick = (): string | null => selected(handle) ?? held;
  const typed: Typed = {
    target: model.get('recipe_target') || undefined,
    typed: (v) => {
      model.set('recipe_target', v);
      model.save_changes();
    },
  };
  // the widget's comm goes when the kernel restarts or dies (ipywidgets sets comm_live false: the only change of it
  // after the view exists); the controls then say so once and take no clicks, the run stays drawn below
  let gone = false;
  const drawState = (): void => {
    const s = parse(model.get('state_json'));
    if (s) drawBar(bar, s, act, pick, typed, gone);
  };
  const lost = (): void => {
    gone = true;
    drawState();
  };
  const drawGraph = (): void => {
    held = selected(handle);
    handle?.destroy();
    handle = null;
    clear(graph);
    const view = model.get('view_json');
    if (view) handle = draw(graph, view);
  };
  model.on('change:state_json', drawState);
  model.on('change:view_json', drawGraph);
  model.on('comm_live_update' as `change:${string}`, lost);
  drawState();
  drawGraph();
  return () => {
    model.off('change:state_json', drawState);
    model.off('change:view_json', drawGraph);
    model.off('comm_live_update' as `change:${string}`, lost);
    handle?.destroy();
  };
};

export default { render } satisfies AnyWidget<WorkbenchTraits>;
