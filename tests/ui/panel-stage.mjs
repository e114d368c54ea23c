// Picking a stage in the side panel as a user does (issue 26.4's one-line head): its tab when the line shows it, else
// the "⋯" menu beside the tabs, which names every stage the line has no room for. Shared by the panel's lab tests.

/** Show stage `stage` of the model on show in `panel` (a Locator of #pt2e-lens-panel); resolves once its tab is the
 * selected one. */
export async function pickStage(panel, stage) {
  const tab = panel.locator(`.pl-panel-stages .pl-tab[data-stage="${stage}"]`);
  await tab.waitFor({ state: 'attached' });
  if (await tab.isVisible()) await tab.click();
  else await panel.locator('select.pl-stage-menu').selectOption(stage);
  await panel.locator(`.pl-panel-stages .pl-tab[data-stage="${stage}"][aria-selected="true"]`).waitFor();
}
