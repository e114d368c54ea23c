// A saved notebook opened again: a pl.workbench output whose widget is gone (no kernel, or a kernel that never made
// it) is drawn from the static view the same output carries (the pt2e-lens MIME type: the run's stage tabs and
// graph), instead of ipywidgets' "Error displaying widget: model not found". A widget still alive in the kernel
// (the page reloaded on a running kernel) is left to ipywidgets.
import type { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { INotebookTracker, type NotebookPanel } from '@jupyterlab/notebook';
import type { IOutputAreaModel } from '@jupyterlab/outputarea';
import { MIME_TYPE } from '../core/types';

const WIDGET_VIEW = 'application/vnd.jupyter.widget-view+json';

/** The widget models the notebook's kernel holds: one open `jupyter.widget` comm each (none without a kernel). */
async function liveWidgets(panel: NotebookPanel): Promise<Set<string>> {
  const kernel = panel.sessionContext.session?.kernel;
  if (!kernel) return new Set();
  try {
    const reply = await kernel.requestCommInfo({ target_name: 'jupyter.widget' });
    return new Set(reply.content.status === 'ok' ? Object.keys(reply.content.comms) : []);
  } catch {
    return new Set(); // the kernel went away meanwhile: no widget of it lives
  }
}

/** Each pt2e-lens output whose widget is gone shows its static view (the output keeps every other MIME type); returns
 * how many. */
export async function showSavedViews(panel: NotebookPanel): Promise<number> {
  await panel.context.ready;
  await panel.sessionContext.ready;
  const live = await liveWidgets(panel);
  const cells = panel.content.model?.cells;
  if (!cells || panel.isDisposed) return 0;
  let shown = 0;
  for (let c = 0; c < cells.length; c++) {
    const outputs = (cells.get(c) as Partial<{ outputs: IOutputAreaModel }>).outputs;
    for (let i = 0; outputs && i < outputs.length; i++) {
      const out = outputs.get(i).toJSON();
      const data = (out as { data?: Record<string, unknown> }).data;
      const view = data?.[WIDGET_VIEW] as { model_id?: string } | undefined;
      if (!data || !view || !(MIME_TYPE in data) || live.has(view.model_id ?? '')) continue;
      const { [WIDGET_VIEW]: _gone, ...rest } = data;
      outputs.set(i, { ...out, data: rest } as typeof out);
      shown++;
    }
  }
  return shown;
}

export const savedViewsPlugin: JupyterFrontEndPlugin<void> = {
  id: 'pt2e-lens:saved-views',
  description: 'Draws the static view of a saved pl.workbench output whose widget is gone.',
  autoStart: true,
  requires: [INotebookTracker],
  activate: (_app: JupyterFrontEnd, tracker: INotebookTracker) => {
    tracker.widgetAdded.connect((_, panel) => void showSavedViews(panel));
  },
};
