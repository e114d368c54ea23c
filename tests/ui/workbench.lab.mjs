// pl.workbench in JupyterLab with a real kernel (issue 26.1): the steps clicked one by one (export, prepare,
// calibrate, convert), each finished step a stage tab of the run drawn below; a node selected in the graph is
// kept fp32 and "rerun" shows the comparison; a recipe is asked for; then "lower" in the dark theme. Waits on the controls' `data-done`
// / `data-busy` and the panes' ready signal (settled.mjs). Then cancel mid-step (a second workbench): its calibration
// waits on a named pipe the test writes to, so cancel is pressed while a step is truly half way (a wait on a
// condition, not on time), and the controls say when the kernel has heard it (`data-cancelling`): one line, the
// earlier stages kept, and the next press of calibrate feeds the rest. Screenshots: tests/ui/artifacts/workbench-*.png.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { dismissNewsToast, notebook, setLabTheme } from './lab_server.mjs';
import { labPage } from './lab-page.mjs';
import { ARTIFACTS } from './pages.mjs';
import { nodePicker } from './pick-node.mjs';
import { idle } from './settled.mjs';

const CELL = `import pt2e_lens as pl
pl.quiet()
from pt2e_lens.examples import get_model, example_inputs, calibration_batches
model = get_model("conv_relu").eval()
wb = pl.workbench(model, example_inputs(2), calibration=calibration_batches(6, 2))
wb`;

const BATCHES = 6;
const GATE = 3; // the batch calibration waits on: the bar reads GATE/BATCHES while it waits
// pl.workbench reads its calibration iterable once, when made (a generator could not be fed again on rerun), so
// the wait is in a batch: the first time calibration unpacks batch GATE it blocks until the test writes to 'go'
const GATED = `from pt2e_lens.examples import calibration_batches
class Gate(tuple):
    waited = False
    def __iter__(self):
        if not Gate.waited:
            Gate.waited = True
            with open('go') as f: f.read()
        return super().__iter__()
batches = calibration_batches(${BATCHES}, 2)
batches[${GATE}] = Gate(batches[${GATE}])
wb2 = pl.workbench(model, example_inputs(2), calibration=batches)
wb2`;

let lab;
let close;
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

const second = () => page.locator('.jp-OutputArea .pl-workbench').nth(1);
const gated = () => second().locator('.pl-wb-controls');
const gatedGraph = () => second().locator('.pl-wb-graph .pt2e-lens');

/** Until the second workbench's controls show `want`: data-busy / data-cancelling, the steps done, the status. */
const gatedUntil = (want) =>
  page.waitForFunction(
    (w) => {
      const c = document.querySelectorAll('.jp-OutputArea .pl-workbench')[1]?.querySelector('.pl-wb-controls');
      if (!c) return false;
      const status = c.querySelector('.pl-wb-status')?.textContent;
      return (
        (w.busy === undefined || c.dataset.busy === w.busy) &&
        (w.cancelling === undefined || c.dataset.cancelling === w.cancelling) &&
        (w.done === undefined || c.dataset.done === w.done) &&
        (w.status === undefined || status === w.status)
      );
    },
    want,
    { timeout: 0 },
  );

const done = (step) => `.pl-wb-step[data-step="${step}"][data-done="true"]`;

before(async () => {
  const files = { 'wb.ipynb': notebook([CELL, GATED]) };
  const viewport = { width: 1300, height: 1100 };
  ({ lab, page, close } = await labPage(files, { open: 'wb.ipynb', viewport, timeout: 120000, errors }));
  execFileSync('mkfifo', [join(lab.root, 'go')]); // before the cells run: the gated one reads the pipe
  await page.evaluate(() => window.jupyterapp.commands.execute('notebook:run-all-cells'));
  await controls().waitFor({ timeout: 180000 });
  await gated().waitFor({ timeout: 180000 });
  await dismissNewsToast(page);
});
after(() => close?.());

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

  it('cancel mid-calibration: one line, the earlier stages kept, and the controls take the next step', async () => {
    const c = gated();
    for (const [step, done] of [
      ['export', 'export'],
      ['prepare', 'export,prepare'],
    ]) {
      await c.locator(`.pl-wb-step[data-step="${step}"]`).click();
      await gatedUntil({ busy: 'false', done });
    }
    await c.locator('.pl-wb-step[data-step="calibrate"]').click();
    // half way: the kernel waits on the pipe before batch GATE; the bar says so
    await gatedUntil({ status: `calibrate ${GATE}/${BATCHES} batches` });
    assert.equal(Number(await c.locator('progress.pl-wb-progress').getAttribute('value')), GATE);
    await c.locator('.pl-wb-cancel').click();
    await gatedUntil({ cancelling: 'true' }); // the kernel has heard it: the status says "cancelling"
    assert.equal(await c.locator('.pl-wb-status').textContent(), 'cancelling calibrate…');
    assert.equal(await c.locator('.pl-wb-cancel').isDisabled(), true);
    writeFileSync(join(lab.root, 'go'), 'go'); // the batch under way goes on; the cancel lands before the next
    await gatedUntil({ busy: 'false', cancelling: 'false' });
    const error = c.locator('.pl-wb-error');
    assert.equal(await error.count(), 1);
    const line = await error.textContent();
    // the batch under way when cancel was pressed finishes: GATE + 1 batches observed, kept as the calibrated stage
    const seen = GATE + 1;
    assert.equal(
      line,
      `calibrate cancelled after ${seen} of ${BATCHES} batches — kept: export, prepare, and the ${seen} batches the observers saw (the calibrated stage); advance() feeds the rest.`,
    );
    assert.equal(await c.getAttribute('data-done'), 'export,prepare');
    // the batches seen before the cancel are kept as the calibrated stage, beside the stages before it
    await idle(page, gatedGraph());
    const tabs = await gatedGraph().locator('.pl-tab').allTextContents();
    for (const stage of ['exported', 'prepared', 'calibrated'])
      assert.ok(
        tabs.some((t) => t.includes(stage)),
        `no ${stage} tab after the cancel: ${tabs}`,
      );
    assert.equal(await c.locator('.pl-wb-step[data-step="calibrate"]').isEnabled(), true);
    await second().screenshot({ path: join(ARTIFACTS, 'workbench-cancelled-light.png') });
    await setLabTheme(page, 'JupyterLab Dark');
    await idle(page, gatedGraph());
    await second().screenshot({ path: join(ARTIFACTS, 'workbench-cancelled-dark.png') });
    await setLabTheme(page, 'JupyterLab Light');
    // the controls work again: calibrate feeds the batches left, then convert
    await c.locator('.pl-wb-step[data-step="calibrate"]').click();
    await gatedUntil({ busy: 'false', done: 'export,prepare,calibrate' });
    assert.equal(await c.locator('.pl-wb-error').count(), 0);
    await c.locator('.pl-wb-step[data-step="convert"]').click();
    await gatedUntil({ busy: 'false', done: 'export,prepare,calibrate,convert' });
    assert.match(await c.locator('.pl-wb-sqnr').textContent(), /SQNR [\d.]+ dB/);
    assert.deepEqual(errors, []);
  });
});
