// pl.workbench in the PT2E side panel and past its kernel (issue 26.1), in JupyterLab with a real kernel: the panel
// draws the workbench's step bar (the widget's own code) for the current model and drives the same kernel object,
// so a step pressed in either shows in both; a kernel restart leaves one line in the widget and the panel, every
// button off and the run still drawn; the notebook saved and opened again with no kernel draws the last state
// (stage tabs, graph), and drawing it changes nothing in the notebook (no model change, not marked modified);
// reloaded on a running kernel that holds the widget, the output is the live widget again. Waits on the controls'
// data-done / data-busy / data-gone and the panes' ready signal (settled.mjs). Screenshots:
// tests/ui/artifacts/workbench-panel-*.png.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { dismissNewsToast, kernelIdle, labRestored, notebook, setLabTheme } from './lab_server.mjs';
import { labPage } from './lab-page.mjs';
import { ARTIFACTS, MIME } from './pages.mjs';
import { idle } from './settled.mjs';

const CELL = `import pt2e_lens as pl
pl.quiet()
from pt2e_lens.examples import get_model, example_inputs, calibration_batches
model = get_model("conv_relu").eval()
wb = pl.workbench(model, example_inputs(2), calibration=calibration_batches(4, 2))
wb`;

let lab;
let close;
let page;
const errors = [];
const cmd = (id, args = {}) => page.evaluate(([id, args]) => window.jupyterapp.commands.execute(id, args), [id, args]);
const panel = () => page.locator('#pt2e-lens-panel');
const inPanel = () => panel().locator('.pl-panel-bench');
const widget = () => page.locator('.jp-OutputArea .pl-workbench').first();
const inWidget = () => widget().locator('.pl-wb-controls');
const graph = () => widget().locator('.pl-wb-graph .pt2e-lens');

/** Until both bars (the widget's and the panel's) show `steps` done and nothing running. */
async function bothDone(steps) {
  await page.waitForFunction(
    (want) =>
      ['.jp-OutputArea .pl-workbench .pl-wb-controls', '#pt2e-lens-panel .pl-panel-bench'].every((sel) => {
        const bar = document.querySelector(sel);
        return bar && bar.dataset.busy === 'false' && bar.dataset.done === want;
      }),
    steps.join(','),
    { timeout: 0 },
  );
}

/** The reopened notebook is as it was read: no change to its model since it loaded, and no modified mark. Waits
 * first for the drawn view's last step (the renderer's picture, `data-picture`: it used to go into the output). */
async function unchanged() {
  await page.locator('.jp-OutputArea .jp-Pt2eLens[data-picture]').first().waitFor({ state: 'attached' });
  assert.deepEqual(await page.evaluate(() => window.wbChanges), []);
  assert.equal(await page.evaluate(() => window.wbPanel.context.model.dirty), false);
  assert.equal(await page.locator('.lm-DockPanel-tabBar .lm-TabBar-tab.jp-mod-dirty').count(), 0);
}

before(async () => {
  ({ lab, page, close } = await labPage(
    { 'wb.ipynb': notebook([CELL]) },
    { open: 'wb.ipynb', timeout: 120000, errors },
  ));
  await cmd('notebook:run-all-cells');
  await inWidget().waitFor({ timeout: 180000 });
  await dismissNewsToast(page);
  await cmd('pt2e-lens:open-panel');
});
after(() => close?.());

describe('pl.workbench in the side panel', () => {
  it('the panel drives the same workbench as the widget: a step pressed in either shows in both', async () => {
    await inPanel().locator('.pl-wb-step[data-step="export"]').waitFor({ timeout: 120000 });
    assert.equal(await inPanel().getAttribute('data-done'), '');
    await inPanel().locator('.pl-wb-step[data-step="export"]').click();
    await bothDone(['export']);
    await inWidget().locator('.pl-wb-step[data-step="prepare"]').click();
    await bothDone(['export', 'prepare']);
    await inPanel().locator('.pl-wb-step[data-step="calibrate"]').click();
    await bothDone(['export', 'prepare', 'calibrate']);
    await inPanel().locator('.pl-wb-step[data-step="convert"]').click();
    await bothDone(['export', 'prepare', 'calibrate', 'convert']);
    // the panel's stage tabs follow the run the steps made, and its graph is the converted stage
    await panel().locator('.pl-panel-stages .pl-tab[data-stage="converted"]').waitFor();
    await panel().locator('.pl-panel-view .pt2e-lens').first().waitFor();
    await idle(page, panel().locator('.pl-panel-view .pt2e-lens'));
    assert.equal(
      await inPanel().locator('.pl-wb-sqnr').textContent(),
      await inWidget().locator('.pl-wb-sqnr').textContent(),
    );
    assert.equal(await inPanel().locator('.pl-wb-error').count(), 0);
    await panel().screenshot({ path: join(ARTIFACTS, 'workbench-panel-light.png') });
    await setLabTheme(page, 'JupyterLab Dark');
    await idle(page, panel().locator('.pl-panel-view .pt2e-lens'));
    await panel().screenshot({ path: join(ARTIFACTS, 'workbench-panel-dark.png') });
    await setLabTheme(page, 'JupyterLab Light');
  });

  it('a kernel restart: one line in the widget and the panel, every button off, the run still drawn', async () => {
    const restarted = page.evaluate(() =>
      window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.restart(),
    );
    for (const bar of [inWidget(), inPanel()]) {
      await bar.locator('.pl-wb-gone').waitFor();
      assert.equal(await bar.getAttribute('data-gone'), 'true');
      assert.equal(await bar.locator('button:enabled, select:enabled').count(), 0);
      assert.match(await bar.locator('.pl-wb-gone').textContent(), /kernel restarted or stopped/);
    }
    const tabs = await graph().locator('.pl-tab').allTextContents();
    assert.ok(
      tabs.some((t) => t.includes('converted')),
      `no converted tab after the restart: ${tabs}`,
    );
    await idle(page, graph());
    await widget().screenshot({ path: join(ARTIFACTS, 'workbench-panel-restarted-light.png') });
    await setLabTheme(page, 'JupyterLab Dark');
    await idle(page, graph());
    await widget().screenshot({ path: join(ARTIFACTS, 'workbench-panel-restarted-dark.png') });
    await panel().screenshot({ path: join(ARTIFACTS, 'workbench-panel-restarted-panel-dark.png') });
    await setLabTheme(page, 'JupyterLab Light');
    await restarted.catch(() => {}); // a restart that does not finish changes nothing above
  });

  it('saved, then opened again with no kernel: the last state is drawn (stage tabs, graph), the notebook unchanged', async () => {
    await cmd('docmanager:save');
    await page.waitForFunction(() => !window.jupyterapp.shell.currentWidget.context.model.dirty);
    const saved = JSON.parse(readFileSync(join(lab.root, 'wb.ipynb'), 'utf8'));
    const [out] = saved.cells[0].outputs;
    assert.ok(out.data[MIME] && out.data['text/html'], Object.keys(out.data).join(', '));
    await page.evaluate(() => window.jupyterapp.serviceManager.sessions.shutdownAll());
    // a new page with a fresh workspace (no restored tab starting a kernel): no widget state, no kernel connection
    await page.goto(`${lab.url}/lab?reset`);
    await labRestored(page);
    // every change to the notebook's model once it has loaded, with where it came from; the widget is the one the
    // open command returns (not the shell's current one: a dialog of a busy page may keep the focus)
    await page.evaluate(async () => {
      window.wbChanges = [];
      Error.stackTraceLimit = 100; // down to the code that made the change
      const record = (what) => window.wbChanges.push(`${what}\n${new Error().stack}`);
      const w = await window.jupyterapp.commands.execute('docmanager:open', {
        path: 'wb.ipynb',
        kernelPreference: { shouldStart: false },
      });
      window.wbPanel = w;
      void w.context.ready.then(() => {
        w.context.model.contentChanged.connect(() => record('content changed'));
        w.context.model.stateChanged.connect((_, c) => record(`${c.name}: ${c.oldValue} -> ${c.newValue}`));
      });
    });
    await page.evaluate(() => Promise.all([window.wbPanel.context.ready, window.wbPanel.sessionContext.ready]));
    assert.equal(await page.evaluate(() => window.wbPanel.sessionContext.session?.kernel ?? null), null);
    const saved_view = page.locator('.jp-OutputArea .jp-Pt2eLens .pt2e-lens').first();
    await saved_view.waitFor({ timeout: 60000 });
    await idle(page, saved_view);
    const tabs = await saved_view.locator('.pl-tab').allTextContents();
    for (const stage of ['exported', 'prepared', 'calibrated', 'converted'])
      assert.ok(
        tabs.some((t) => t.includes(stage)),
        `no ${stage} tab in the saved view: ${tabs}`,
      );
    assert.ok((await saved_view.locator('.pl-canvas canvas, .pl-canvas svg').count()) > 0);
    assert.equal(await page.locator('.jp-OutputArea', { hasText: 'model not found' }).count(), 0);
    await unchanged();
    await page
      .locator('.jp-OutputArea')
      .first()
      .screenshot({ path: join(ARTIFACTS, 'workbench-panel-reopened-light.png') });
    // the page with the notebook's tab: no modified mark on it
    await page.screenshot({ path: join(ARTIFACTS, 'workbench-panel-reopened-page-light.png') });
    await setLabTheme(page, 'JupyterLab Dark');
    await idle(page, saved_view);
    await page
      .locator('.jp-OutputArea')
      .first()
      .screenshot({ path: join(ARTIFACTS, 'workbench-panel-reopened-dark.png') });
    // the page with the notebook's tab: no modified mark on it
    await page.screenshot({ path: join(ARTIFACTS, 'workbench-panel-reopened-page-dark.png') });
    await setLabTheme(page, 'JupyterLab Light');
    await idle(page, saved_view);
    await unchanged();
    // JupyterLab's own: a kernel shut down or restarted while its start-up asked for a subshell rejects that
    // request's future (it comes and goes with timing; nothing of pt2e-lens is in it); ipywidgets' own: opened with
    // no kernel, its widget manager's set-up reads the kernel of a session there is not
    const ours = errors.filter(
      (e) =>
        !e.includes('Canceled future for create_subshell_request') &&
        e !== "Cannot read properties of null (reading 'kernel')",
    );
    assert.deepEqual(ours, []);
  });

  it('reloaded on its running kernel: an output whose widget the kernel holds is the live widget again', async () => {
    await page.evaluate(() => window.wbPanel.sessionContext.changeKernel({ name: 'python3' }));
    await kernelIdle(page, 120000);
    // ipywidgets gives a notebook its widget manager once, when it opens with a kernel, not when one comes later
    // (jupyter-widgets/ipywidgets#3970): open the page again, the notebook on this kernel
    await page.reload();
    await labRestored(page);
    await cmd('docmanager:open', { path: 'wb.ipynb' });
    await kernelIdle(page, 120000);
    await cmd('notebook:run-all-cells');
    await inWidget().locator('.pl-wb-step[data-step="export"]').click({ timeout: 180000 });
    // the step done and nothing running, and its static view in the cell's output: the kernel replaces the output
    // (update_display) after the step and before it says it is idle; a save before that leaves the notebook dirty
    await page.waitForFunction(
      (mime) => {
        const bar = document.querySelector('.jp-OutputArea .pl-workbench .pl-wb-controls');
        const outputs = window.jupyterapp.shell.currentWidget.content.widgets[0].model.outputs;
        const drawn = Array.from({ length: outputs.length }, (_, i) => outputs.get(i)).some((o) => o.data[mime]);
        return bar?.dataset.done === 'export' && bar.dataset.busy === 'false' && drawn;
      },
      MIME,
      { timeout: 0 },
    );
    await cmd('docmanager:save');
    await page.waitForFunction(() => !window.jupyterapp.shell.currentWidget.context.model.dirty);
    await page.reload(); // the same workspace: the notebook comes back on its kernel, which still holds the widget
    const bar = page.locator('.jp-OutputArea .pl-workbench .pl-wb-controls[data-done="export"][data-gone="false"]');
    await bar.waitFor({ timeout: 120000 });
    assert.equal(await page.locator('.jp-OutputArea .jp-Pt2eLens').count(), 0);
    assert.equal(await bar.locator('.pl-wb-step[data-step="prepare"]:enabled').count(), 1);
  });
});
