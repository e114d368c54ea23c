// Issue 26 point 2 in a real JupyterLab + kernel: a long call's progress bar updates in place (one output, redrawn)
// while the call runs, and when it ends leaves one summary line and no bar. The calibration batches wait on a
// named pipe the test writes to, so the bar is read while the call is truly half way — a wait on a condition, not
// on time. Run with `npm run test:lab` (after a build).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { kernelIdle, notebook, setLabTheme } from './lab_server.mjs';
import { labPage } from './lab-page.mjs';
import { ARTIFACTS } from './pages.mjs';

const BATCHES = 8;
const GATE = 4; // the batch before which calibration waits for the test
const SETUP = `import torch, pt2e_lens as pl
pl.quiet()
pl.progress(True)  # from the first step: the test reads the bar, however fast the machine
from pt2e_lens.examples import get_model, example_inputs, calibration_batches, ConvQuantizer

class Gated:
    """The calibration batches; before batch ${GATE} it blocks until the test writes to the pipe 'go'."""
    def __init__(self, items): self.items = list(items)
    def __len__(self): return len(self.items)
    def __iter__(self):
        for i, b in enumerate(self.items):
            if i == ${GATE}:
                print('at the gate', flush=True)  # after the bar's last redraw: once the page shows it, the bar holds still
                with open('go') as f: f.read()
            yield b
print('ready')`;
const CALIBRATE = `run = pl.capture(get_model('tiny').eval(), example_inputs(8), ConvQuantizer())
run.calibrate(Gated(calibration_batches(${BATCHES}, 8)))
print('batches', run['calibrated'].info['batches'])`;

let lab;
let close;
let page;
before(async () => {
  ({ lab, page, close } = await labPage(
    { 'p.ipynb': notebook([SETUP, CALIBRATE]) },
    { open: 'p.ipynb', viewport: { width: 1400, height: 900 }, timeout: 120000 },
  ));
  execFileSync('mkfifo', [join(lab.root, 'go')]);
});
after(() => close?.());

describe('progress of a long call in JupyterLab', () => {
  it('one bar, redrawn in place while calibrating, then one summary line (26.2)', async () => {
    // not awaited in the page: run-all's promise ends with the last cell, which waits on the test
    await page.evaluate(() => {
      window.jupyterapp.commands.execute('notebook:run-all-cells');
    });
    const out = page.locator('.jp-Notebook .jp-Cell').nth(1).locator('.jp-OutputArea-output');
    // half way: the kernel waits on the pipe; the bar shows calibrate's count of the 8 batches
    const bar = out.locator('.pl-progress progress');
    await bar.waitFor();
    // the kernel printed 'at the gate' after its last redraw of the bar (one channel, in order): from here the bar
    // is not replaced under the reads and screenshots below
    await out.filter({ hasText: 'at the gate' }).waitFor();
    await page.waitForFunction(() =>
      /calibrate \d+\/\d+ batches/.test(document.querySelectorAll('.jp-Cell')[1]?.textContent ?? ''),
    );
    // pl.capture left its summary line; calibrate has one output, its bar, redrawn in place
    const calibrate = out.locator('.pl-progress', { hasText: 'calibrate' });
    assert.equal(await calibrate.count(), 1, 'one bar, updated in place');
    const text = await calibrate.textContent();
    const [, done, total] = text.match(/calibrate (\d+)\/(\d+) batches/);
    assert.equal(Number(total), BATCHES, text);
    assert.ok(Number(done) <= GATE, text); // it cannot have counted a batch it has not seen
    const value = Number(await bar.getAttribute('value'));
    assert.ok(Math.abs(value - Number(done) / BATCHES) < 0.01, `${value} vs ${text}`);
    for (const theme of ['JupyterLab Light', 'JupyterLab Dark']) {
      await setLabTheme(page, theme);
      await calibrate.screenshot({ path: join(ARTIFACTS, `progress-bar-${theme.split(' ')[1]}.png`) });
    }
    writeFileSync(join(lab.root, 'go'), 'go'); // let the calibration go on
    await out.filter({ hasText: `batches ${BATCHES}` }).waitFor();
    await kernelIdle(page);
    // ended: one line (the summary), no bar
    assert.equal(await calibrate.count(), 1);
    assert.equal(await out.locator('.pl-progress progress').count(), 0);
    const summary = (await calibrate.textContent()).trim();
    assert.match(summary, new RegExp(`^calibrate: ${BATCHES} batches in \\d`));
    await page.screenshot({ path: join(ARTIFACTS, 'progress-done-dark.png') });
    await setLabTheme(page, 'JupyterLab Light');
  });
});
