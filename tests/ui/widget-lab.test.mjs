// pl.widget inside a real anywidget host: JupyterLab (with our extension installed, as `pip install` leaves it)
// and a kernel. The widget view outranks our MIME renderer there, and `w.update(...)` must redraw it live.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { launch } from './browser.mjs';
import { notebook, PYTHON, startLab } from './lab_server.mjs';
import { ARTIFACTS, ROOT } from './pages.mjs';

const py = spawnSync(PYTHON, ['-c', 'import anywidget, ipykernel, jupyterlab'], { encoding: 'utf8' });
const built = existsSync(join(ROOT, 'kernel_pkg/pt2e_lens/_static/widget.js'));
const skip =
  py.status !== 0
    ? 'the Python environment lacks anywidget / ipykernel / jupyterlab'
    : !built
      ? 'widget.js not built'
      : false;

const CELL = `import pt2e_lens as pl
from pt2e_lens.examples import ConvQuantizer, calibration_batches, example_inputs, get_model
pl.quiet()
run = pl.capture(get_model("conv_relu").eval(), example_inputs(2), ConvQuantizer(), calibration=calibration_batches(1, 2))
# what the widget draws: every node but torch.export's _guards_fn (hidden unless focused)
drawn = lambda s: sum(n["target"] != "_guards_fn" for n in run[s].snapshot.nodes)
print("counts", drawn("prepared"), drawn("converted"))
w = pl.widget(run["prepared"])
w`;
const CELL2 = `w.update(run["converted"]);`;

let lab;
let browser;
before(async () => {
  if (skip) return;
  lab = await startLab({ 'widget.ipynb': notebook([CELL, CELL2]) });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  lab?.stop();
});

describe('anywidget host (JupyterLab + kernel)', { skip }, () => {
  it('pl.widget renders its view and redraws on update()', async () => {
    const page = await browser.newPage({ viewport: { width: 1300, height: 1000 } });
    await page.goto(`${lab.url}/lab/tree/widget.ipynb`);
    await page.locator('.jp-Notebook .jp-Cell').first().waitFor({ timeout: 60000 });
    // wait for the kernel (status bar "… | Idle"), then run the first cell
    await page.waitForFunction(
      () => /\|\s*Idle/.test(document.querySelector('#jp-main-statusbar')?.textContent ?? ''),
      null,
      { timeout: 90000 },
    );
    await page.locator('.jp-Cell .jp-InputArea-editor').first().click();
    await page.keyboard.press('Shift+Enter');
    const widget = page.locator('.jp-OutputArea .pt2e-lens[data-state="ready"]');
    try {
      await widget.waitFor({ timeout: 120000 });
    } catch (e) {
      await page.screenshot({ path: join(ARTIFACTS, 'anywidget-lab-failed.png') });
      throw e;
    }
    const text = await page.locator('.jp-OutputArea-output').first().textContent();
    const [, prepared, converted] = text.match(/counts (\d+) (\d+)/).map(Number);
    assert.equal(await widget.locator('.pl-node').count(), prepared);
    await page.keyboard.press('Shift+Enter'); // second cell: w.update(run["converted"])
    await page.waitForFunction(
      (n) => document.querySelectorAll('.jp-OutputArea .pt2e-lens .pl-node').length === n,
      converted,
      { timeout: 60000 },
    );
    await page.screenshot({ path: join(ARTIFACTS, 'anywidget-lab.png') });
    await page.close();
  });
});
