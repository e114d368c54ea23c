// Every %pt2e magic in a real JupyterLab + kernel: each output renders (our MIME renderer), errors are one line.
// Run with `npm run test:lab` (after a build).

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { notebook } from './lab_server.mjs';
import { labPage } from './lab-page.mjs';
import { ARTIFACTS } from './pages.mjs';

const SETUP = `%load_ext pt2e_lens
import torch, pt2e_lens as pl
pl.quiet()
from pt2e_lens.examples import get_model, example_inputs, calibration_batches, ConvQuantizer
ep = torch.export.export(get_model('tiny').eval(), example_inputs())
run = pl.capture(get_model('tiny').eval(), example_inputs(8), ConvQuantizer(), calibration=calibration_batches(2, 8))
conv = run['converted']
print('QDQ', len(pl.qdq(conv)))`;
// one magic per cell; each renders one pt2e-lens output (the error cell renders one line of text)
const MAGICS = [
  '%pt2e show conv --title converted',
  '%pt2e compare ep conv --focus conv2d --hops 1',
  '%pt2e diff ep conv',
  '%pt2e annotations run',
  '%pt2e observers run',
  '%pt2e qdq conv',
  '%pt2e decomp ep --table empty',
];
const BAD = '%pt2e show convv';

let close;
let page;
before(async () => {
  ({ page, close } = await labPage(
    { 'm.ipynb': notebook([SETUP, ...MAGICS, BAD]) },
    { open: 'm.ipynb', timeout: 120000 },
  ));
});
after(() => close?.());

describe('%pt2e magics in JupyterLab', () => {
  it('renders the output of every magic and a one-line error for a bad name', async () => {
    await page.evaluate(() => window.jupyterapp.commands.execute('notebook:run-all-cells'));
    const cells = page.locator('.jp-Notebook .jp-Cell');
    const last = cells.nth(MAGICS.length + 1).locator('.jp-OutputArea-output');
    await last.first().waitFor();
    const qdq = Number(
      (await cells.nth(0).locator('.jp-OutputArea-output').first().textContent()).match(/QDQ (\d+)/)[1],
    );
    for (let i = 0; i < MAGICS.length; i++) {
      const view = cells.nth(i + 1).locator('.pt2e-lens[data-state="ready"]');
      await view.first().waitFor();
      assert.equal(await view.count(), 1, MAGICS[i]);
    }
    // %pt2e show conv draws the q/dq nodes torchao put there (counted in the kernel by pl.qdq)
    const drawn = await cells
      .nth(1)
      .locator('.pl-node[data-role="quantize"], .pl-node[data-role="dequantize"]')
      .count();
    assert.equal(drawn, qdq);
    const error = (await last.first().textContent()).trim();
    assert.match(error, /no variable 'convv'.*conv/);
    assert.equal(error.split('\n').length, 1);
    await page.screenshot({ path: join(ARTIFACTS, 'magics-lab.png'), fullPage: true });
  });
});
