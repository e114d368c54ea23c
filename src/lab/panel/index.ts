// The "PT2E" right-sidebar panel plugin and its palette commands: wiring only (model.ts, panel.ts).
import { ILayoutRestorer, type JupyterFrontEnd, type JupyterFrontEndPlugin } from '@jupyterlab/application';
import { ICommandPalette } from '@jupyterlab/apputils';
import { INotebookTracker } from '@jupyterlab/notebook';
import { ITranslator } from '@jupyterlab/translation';
import { commandLabels } from './command-labels';
import { panelLocale } from './locale';
import { LensModel } from './model';
import { LensPanel } from './panel';

export const CommandIDs = {
  open: 'pt2e-lens:open-panel',
  load: 'pt2e-lens:load',
  exportReport: 'pt2e-lens:export-report',
};

export const panelPlugin: JupyterFrontEndPlugin<void> = {
  id: 'pt2e-lens:panel',
  description: 'A side panel that shows the PT2E model of the active notebook.',
  autoStart: true,
  requires: [INotebookTracker],
  optional: [ILayoutRestorer, ICommandPalette, ITranslator],
  activate: (
    app: JupyterFrontEnd,
    tracker: INotebookTracker,
    restorer: ILayoutRestorer | null,
    palette: ICommandPalette | null,
    translator: ITranslator | null,
  ) => {
    // JupyterLab's language setting (a change of it reloads the page, so it is read once)
    const locale = panelLocale(translator, document);
    const panel = new LensPanel(new LensModel(tracker), locale);
    const labels = commandLabels(locale); // the command palette speaks the panel's language
    panel.title.label = 'PT2E';
    app.shell.add(panel, 'right', { rank: 650 });
    restorer?.add(panel, panel.id); // the panel (open or not) comes back after a reload

    app.commands.addCommand(CommandIDs.open, {
      label: labels.open,
      execute: () => app.shell.activateById(panel.id),
    });
    app.commands.addCommand(CommandIDs.load, {
      label: labels.load,
      isEnabled: () => panel.current !== null,
      execute: async () => {
        app.shell.activateById(panel.id);
        await panel.current?.load();
      },
    });
    app.commands.addCommand(CommandIDs.exportReport, {
      label: labels.exportReport,
      isEnabled: () => panel.current?.status === 'ready' && panel.current.current !== null,
      execute: () => panel.exportReport(),
    });
    for (const command of Object.values(CommandIDs)) palette?.addItem({ command, category: 'pt2e-lens' });
  },
};
