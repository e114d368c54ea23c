// The prebuilt JupyterLab extension (extension/labextension) inside a real JupyterLab: a notebook whose
// saved output carries application/vnd.pt2e-lens.v1+json renders through our MIME renderer.
// Needs `jupyter lab` (PyPI jupyterlab) on PATH; the extension is found through JUPYTER_PATH, no install.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { launch } from './browser.mjs';
import { PYTHON, startLab } from './lab_server.mjs';
import { ARTIFACTS, fixture, MIME, ROOT } from './pages.mjs';

const hasLab = spawnSync(PYTHON, ['-c', 'import jupyterlab'], { encoding: 'utf8' }).status === 0;
const built = existsSync(join(ROOT, 'extension/labextension/package.json'));
const skip = !hasLab ? 'jupyterlab not installed' : !built ? 'labextension not built (npm run build)' : false;

let lab;
let browser;
before(async () => {
  if (skip) return;
  // two plain Views (as pt2e-lens 0.1 saved them), a packed one, and a damaged envelope
  const damaged = { ...fixture('packed/conv_converted.json'), data: 'H4sIAAAAdamaged' };
  const outputs = [
    fixture('conv_prepared.json'),
    fixture('hostile.json'),
    fixture('packed/conv_converted.json'),
    damaged,
  ].map((doc) => ({
    output_type: 'display_data',
    metadata: {},
    data: { [MIME]: doc, 'text/plain': ['pt2e-lens view'] },
  }));
  lab = await startLab({
    'demo.ipynb': JSON.stringify({
      nbformat: 4,
      nbformat_minor: 5,
      metadata: {},
      cells: [
        {
          cell_type: 'code',
          id: 'c1',
          execution_count: null,
          metadata: {},
          source: ['# saved pt2e-lens outputs'],
          outputs,
        },
      ],
    }),
  });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  lab?.stop();
});

describe('JupyterLab MIME renderer', { skip }, () => {
  it('renders saved outputs (plain and packed) with the prebuilt extension, hostile text as text', async () => {
    const page = await browser.newPage({ viewport: { width: 1300, height: 1000 } });
    const dialogs = [];
    page.on('dialog', async (d) => {
      dialogs.push(d.message());
      await d.dismiss();
    });
    await page.goto(`${lab.url}/lab/tree/demo.ipynb`);
    await page.waitForFunction(
      () =>
        document.querySelectorAll('.jp-Pt2eLens .pt2e-lens[data-state="ready"]').length === 3 &&
        document.querySelectorAll('.jp-Pt2eLens .pt2e-lens[data-state="error"]').length === 1,
      null,
      { timeout: 90000 },
    );
    const outs = page.locator('.jp-Pt2eLens');
    const roles = await outs
      .nth(0)
      .locator('.pl-node')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-role')));
    assert.equal(roles.length, fixture('conv_prepared.json').panes[0].snapshot.nodes.length);
    assert.equal(await outs.nth(1).locator('.pl-title').first().textContent(), '<img src=y onerror=alert(4)>');
    assert.equal(await page.locator('.jp-Pt2eLens img').count(), 0);
    const packed = await outs.nth(2).locator('.pl-node').count();
    assert.equal(packed, fixture('conv_converted.json').panes[0].snapshot.nodes.length);
    const message = await outs.nth(3).locator('.pl-message').textContent();
    assert.match(message, /^pt2e-lens: a damaged packed View \(.*\); re-run the cell$/);
    assert.deepEqual(dialogs, []);
    const nope = page.getByRole('dialog').getByRole('button', { name: 'No Kernel' });
    if (await nope.count()) await nope.click();
    await outs.nth(3).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, 'jupyterlab-packed-and-damaged.png') });
    await outs.nth(0).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, 'jupyterlab.png') });
    await page.close();
  });
});
