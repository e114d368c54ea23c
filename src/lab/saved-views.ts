// A saved notebook opened again: a pl.workbench / pl.widget output whose widget is gone (no kernel, or a kernel that
// never made it) is drawn from the static view the same output carries (the pt2e-lens MIME type: the run's stage tabs
// and graph), instead of ipywidgets' "Error displaying widget: model not found". A widget still alive in the kernel
// (the page reloaded on a running kernel), and every output the kernel sends in this session, stay ipywidgets'.
// The notebook is never edited for it: an edit (dropping the dead widget view from the output, or the renderer
// keeping its picture in the output's data) would mark a notebook the user only looked at as modified. So in each
// notebook's rendermime our MIME type ranks before ipywidgets' widget view, and the renderer below picks per output.
import type { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { INotebookTracker, type NotebookPanel } from '@jupyterlab/notebook';
import type { IOutputAreaModel } from '@jupyterlab/outputarea';
import type { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import { PanelLayout } from '@lumino/widgets';
import { MIME_TYPE } from '../core/types';
import { Pt2eLensRenderer } from './renderer';

const WIDGET_VIEW = 'application/vnd.jupyter.widget-view+json';
/** ipywidgets registers its widget view at rank -10: ours goes first for the outputs that carry both */
const RANK = -11;

/** The widget models the notebook's kernel holds: one open `jupyter.widget` comm each (none without a kernel). */
async function liveWidgets(panel: NotebookPanel): Promise<Set<string>> {
  await panel.sessionContext.ready;
  const kernel = panel.sessionContext.session?.kernel;
  if (!kernel) return new Set();
  try {
    const reply = await kernel.requestCommInfo({ target_name: 'jupyter.widget' });
    return new Set(reply.content.status === 'ok' ? Object.keys(reply.content.comms) : []);
  } catch {
    return new Set(); // the kernel went away meanwhile: no widget of it lives
  }
}

/** The outputs the notebook had when it was read from its file (the only ones whose widget may be gone). */
async function loadedOutputs(panel: NotebookPanel): Promise<WeakSet<object>> {
  await panel.context.ready;
  const loaded = new WeakSet<object>();
  const cells = panel.content.model?.cells;
  for (let c = 0; cells && c < cells.length; c++) {
    const outputs = (cells.get(c) as Partial<{ outputs: IOutputAreaModel }>).outputs;
    for (let i = 0; outputs && i < outputs.length; i++) loaded.add(outputs.get(i));
  }
  return loaded;
}

/** A copy of `model` that the renderer may write its picture into: the output itself stays as read. */
function detached(model: IRenderMime.IMimeModel): IRenderMime.IMimeModel {
  const copy: IRenderMime.IMimeModel = {
    trusted: model.trusted,
    data: { ...model.data },
    metadata: { ...model.metadata },
    setData: (options) => {
      Object.assign(copy, { data: options.data ?? copy.data, metadata: options.metadata ?? copy.metadata });
    },
  };
  return copy;
}

/** Per output: a View without a widget is drawn as before (this is our renderer); a widget output the kernel sent,
 * or whose widget the kernel still holds, shows ipywidgets' renderer inside; one whose widget is gone is drawn from a
 * copy of its data. */
class SavedOrLive extends Pt2eLensRenderer {
  private widget: IRenderMime.IRenderer | null = null;
  private asked = 0; // renderModel calls so far: a late answer for an older model is dropped
  constructor(
    private readonly notebook: NotebookPanel,
    private readonly loaded: Promise<WeakSet<object>>,
  ) {
    super(MIME_TYPE);
  }

  async renderModel(model: IRenderMime.IMimeModel): Promise<void> {
    const call = ++this.asked;
    const view = model.data[WIDGET_VIEW] as { model_id?: string } | undefined;
    if (!view) return this.drawView(model);
    if (model.trusted && !(await this.loaded).has(model)) return this.drawWidget(model);
    const live = model.trusted && (await liveWidgets(this.notebook)).has(view.model_id ?? '');
    if (call !== this.asked || this.isDisposed) return;
    return live ? this.drawWidget(model) : this.drawView(detached(model));
  }

  private drawView(model: IRenderMime.IMimeModel): Promise<void> {
    if (this.widget) {
      this.widget.dispose();
      this.widget = null;
      this.addClass('jp-Pt2eLens');
    }
    return super.renderModel(model);
  }

  /** ipywidgets' renderer is made only now, from the notebook's rendermime: by then ipywidgets has given that the
   * notebook's widget manager (it does so after the kernel is ready; a kernel's output comes later still). */
  private drawWidget(model: IRenderMime.IMimeModel): Promise<void> {
    if (!this.widget) {
      this.clear();
      this.removeClass('jp-Pt2eLens'); // no pt2e-lens output: the widget's own
      this.widget = this.notebook.content.rendermime.createRenderer(WIDGET_VIEW);
      if (!this.layout) this.layout = new PanelLayout();
      (this.layout as PanelLayout).addWidget(this.widget);
    }
    return this.widget.renderModel(model);
  }
}

/** Register the per-output choice in `panel`'s rendermime (JupyterLab gives each notebook its own copy). */
export function showSavedViews(panel: NotebookPanel): void {
  const loaded = loadedOutputs(panel);
  const rendermime = panel.content.rendermime;
  rendermime.addFactory(
    {
      safe: true,
      mimeTypes: [MIME_TYPE],
      createRenderer: () => new SavedOrLive(panel, loaded),
    },
    RANK,
  );
}

export const savedViewsPlugin: JupyterFrontEndPlugin<void> = {
  id: 'pt2e-lens:saved-views',
  description: 'Draws the static view of a saved pl.workbench output whose widget is gone, without editing it.',
  autoStart: true,
  requires: [INotebookTracker],
  activate: (_app: JupyterFrontEnd, tracker: INotebookTracker) => {
    tracker.forEach(showSavedViews);
    tracker.widgetAdded.connect((_, panel) => showSavedViews(panel));
  },
};
