// Jupyter Notebook 7 (`jupyter notebook`) with our labextension: a saved output of the executed quickstart is
// drawn by our MIME renderer with no kernel run, a %pt2e magic renders, and the PT2E panel opens in the
// notebook page's right sidebar. Numbers come from torchao's graphs (notebook_page.py, the kernel's print).

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { launch } from './browser.mjs';
import { executedQuickstart } from './executed.mjs';
import { kernelIdle, notebook, startNotebook7 } from './lab_server.mjs';
import { ARTIFACTS } from './pages.mjs';

const SETUP = `%load_ext pt2e_lens
import torch, pt2e_lens as pl
pl.quiet()
from pt2e_lens.examples import get_model, example_inputs, calibration_batches, ConvQuantizer
run = pl.capture(get_model('tiny').eval(), example_inputs(8), ConvQuantizer(), calibration=calibration_batches(2, 8))
conv = run['converted']
qdq = sorted(n.name for n in conv.graph_module.graph.nodes if n.op == 'call_function' and 'quantize' in str(n.target))
print('QDQ', ' '.join(qdq))`;

let server;
let browser;
let page;
let run;
before(async () => {
  run = executedQuickstart();
  server = await startNotebook7({
    'quickstart.ipynb': run.notebook,
    'magic.ipynb': notebook([SETUP, '%pt2e show conv --title "converted by magic"']),
  });
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.setDefaultTimeout(120000);
});
after(async () => {
  await browser?.close();
  server?.stop();
});

/** Sorted ids of the quantize/dequantize nodes drawn in the output titled `title`. */
function qdqIds(title) {
  return page
    .locator('.jp-Pt2eLens .pt2e-lens[data-state="ready"]', {
      has: page.locator('.pl-title', { hasText: new RegExp(`^${title}$`) }),
    })
    .first()
    .evaluate((root) =>
      [...root.querySelectorAll('.pl-node[data-role="quantize"], .pl-node[data-role="dequantize"]')]
        .map((n) => n.getAttribute('data-id'))
        .sort(),
    );
}

describe('Jupyter Notebook 7', () => {
  it('draws a saved output with our MIME renderer, no kernel run', async () => {
    await page.goto(`${server.url}/notebooks/quickstart.ipynb`);
    const converted = page.locator('.jp-Pt2eLens .pt2e-lens[data-state="ready"]', {
      has: page.locator('.pl-title', { hasText: /^tiny, converted$/ }),
    });
    await converted.first().waitFor();
    assert.deepEqual(await qdqIds('tiny, converted'), run.expected.qdq_nodes);
    await converted.first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, 'notebook7-saved.png') });
  });

  it('renders a %pt2e magic, and the PT2E panel opens in the right sidebar', async () => {
    await page.goto(`${server.url}/notebooks/magic.ipynb`);
    await kernelIdle(page);
    await page.evaluate(() => window.jupyterapp.commands.execute('notebook:run-all-cells'));
    const printed = page.locator('.jp-OutputArea-output', { hasText: /^QDQ / });
    await printed.first().waitFor();
    const torchao = (await printed.first().textContent()).trim().split(/\s+/).slice(1);
    await page
      .locator('.jp-Pt2eLens .pt2e-lens[data-state="ready"]')
      .first()
      .waitFor({ timeout: 30000 })
      .catch(async (e) => {
        await page.screenshot({ path: join(ARTIFACTS, 'notebook7-failed.png') });
        throw e;
      });
    assert.deepEqual(await qdqIds('converted by magic'), torchao);

    assert.ok(await page.evaluate(() => window.jupyterapp.commands.hasCommand('pt2e-lens:open-panel')));
    await page.evaluate(() => window.jupyterapp.commands.execute('pt2e-lens:open-panel'));
    const panel = page.locator('#pt2e-lens-panel');
    await panel.locator('.pt2e-lens[data-state="ready"] .pl-canvas svg').first().waitFor();
    assert.ok(await panel.isVisible());
    await page.screenshot({ path: join(ARTIFACTS, 'notebook7-magic-panel.png') });
  });
});
