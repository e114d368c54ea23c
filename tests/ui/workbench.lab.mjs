// pl.workbench in JupyterLab with a real kernel (issue 26.1): the steps clicked one by one (export, prepare,
// calibrate, convert), each finished step a stage tab of the run drawn below; a node selected in the graph is
// kept fp32 and "rerun" shows the comparison; a recipe is asked for; then "lower" in the dark theme. Waits on the controls' `data-done`
// / `data-busy` and the panes' ready signal (settled.mjs). Screenshots: tests/ui/artifacts/workbench-*.png.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { launch } from './browser.mjs';
import { dismissKernelDialogs, dismissNewsToast, kernelIdle, notebook, setLabTheme, startLab } from './lab_server.mjs';
import { ARTIFACTS } from './pages.mjs';
import { nodePicker } from './pick-node.mjs';
import { idle } from './settled.mjs';

const CELL = `import pt2e_lens as pl
pl.quiet()
from pt2e_lens.examples import get_model, example_inputs, calibration_batches
model = get_model("conv_relu").eval()
wb = pl.workbench(model, example_inputs(2), calibration=calibration_batches(6, 2))
wb`;

let lab;
let browser;
let page;
const errors = [];
const bench = () => page.locator('.jp-OutputArea .pl-workbench').first();
const controls = () => bench().locator('.pl-wb-controls');
const graph = () => bench().locator('.pl-wb-graph .pt2e-lens');

/** Click `button` and wait until the controls, drawn anew by the kernel, show `ready` (a selector under them) and
 * nothing runs; then until the run's panes are drawn. */
async function press(button, ready) {
  await button.click();
  await page.waitForFunction(
    ([sel]) => {
      const c = document.querySelector('.jp-OutputArea .pl-workbench .pl-wb-controls');
      return c && c.dataset.busy === 'false' && c.querySelector(sel) !== null;
    },
    [ready],
    { timeout: 0 },
  );
  await idle(page, graph());
}

const done = (step) => `.pl-wb-step[data-step="${step}"][data-done="true"]`;

before(async () => {
  lab = await startLab({ 'wb.ipynb': notebook([CELL]) });
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1300, height: 1100 } });
  page.setDefaultTimeout(120000);
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${lab.url}/lab/tree/wb.ipynb`);
  await kernelIdle(page, 120000);
  await dismissKernelDialogs(page);
  await page.evaluate(() => window.jupyterapp.commands.execute('notebook:run-all-cells'));
  await controls().waitFor({ timeout: 180000 });
  await dismissNewsToast(page);
});
after(async () => {
  await browser?.close();
  lab?.stop();
});

describe('pl.workbench in JupyterLab', () => {
  it('each step clicked becomes a stage tab; a selected node kept fp32 and rerun compare; lower in dark', async (t) => {
    t.after(() => page.screenshot({ path: join(ARTIFACTS, 'workbench-last.png') }));
    const { pick } = nodePicker(() => page, bench);
    assert.equal(await controls().getAttribute('data-done'), '');
    for (const step of ['export', 'prepare', 'calibrate', 'convert']) {
      await press(controls().locator(`.pl-wb-step[data-step="${step}"]`), done(step));
      const tabs = await graph().locator('.pl-tab').allTextContents();
      const stage = { export: 'exported', prepare: 'prepared', calibrate: 'calibrated', convert: 'converted' }[step];
      assert.ok(
        tabs.some((t) => t.includes(stage)),
        `${step}: no "${stage}" tab in ${tabs}`,
      );
    }
    assert.match(await controls().locator('.pl-wb-sqnr').textContent(), /SQNR [\d.]+ dB/);
    await page.screenshot({ path: join(ARTIFACTS, 'workbench-light-converted.png') });

    await pick('conv2d');
    await controls().locator('.pl-wb-keep').click();
    await controls().locator('.pl-wb-pick', { hasText: 'conv2d' }).waitFor();
    await press(controls().locator('.pl-wb-rerun'), 'table.pl-wb-compare');
    const rows = await controls().locator('table.pl-wb-compare tr').allTextContents();
    assert.ok(
      rows.some((r) => r.startsWith('observers (prepared)')),
      rows.join(' | '),
    );
    await bench().screenshot({ path: join(ARTIFACTS, 'workbench-light-rerun.png') });
    // pl.recipe from the widget: the target is met already, so it offers no site and says so in its title
    await controls().locator('.pl-wb-recipe input').fill('20');
    await press(controls().locator('.pl-wb-recipe-go'), '.pl-wb-offered');
    assert.match(await controls().locator('.pl-wb-offered').textContent(), /20\.00 dB/);
    assert.equal(await controls().locator('.pl-wb-recipe input').inputValue(), '20'); // kept across the redraw

    await setLabTheme(page, 'JupyterLab Dark');
    await idle(page, graph());
    await press(controls().locator('.pl-wb-step[data-step="lower"]'), done('lower'));
    const tabs = await graph().locator('.pl-tab').allTextContents();
    assert.ok(
      tabs.some((t) => t.includes('lowered')),
      `no lowered tab in ${tabs}`,
    );
    assert.equal(await controls().locator('.pl-wb-error').count(), 0);
    await bench().screenshot({ path: join(ARTIFACTS, 'workbench-dark-lowered.png') });
    await setLabTheme(page, 'JupyterLab Light');
    assert.deepEqual(errors, []);
  });
});
