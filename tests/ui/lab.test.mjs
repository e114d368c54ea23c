// The prebuilt JupyterLab extension (extension/labextension) inside a real JupyterLab: a notebook whose
// saved output carries application/vnd.pt2e-lens.v1+json renders through our MIME renderer.
// Needs `jupyter lab` (PyPI jupyterlab) on PATH; the extension is found through JUPYTER_PATH, no install.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch } from './browser.mjs';
import { ARTIFACTS, MIME, ROOT, fixture } from './pages.mjs';

const hasLab = spawnSync('jupyter', ['lab', '--version'], { encoding: 'utf8' }).status === 0;
const built = existsSync(join(ROOT, 'extension/labextension/package.json'));
const skip = !hasLab ? 'jupyter lab not installed' : !built ? 'labextension not built (npm run build)' : false;

function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

let server;
let browser;
let base;
before(async () => {
  if (skip) return;
  const dir = mkdtempSync(join(tmpdir(), 'pt2e-lens-lab-'));
  mkdirSync(join(dir, 'jp/labextensions'), { recursive: true });
  symlinkSync(join(ROOT, 'extension/labextension'), join(dir, 'jp/labextensions/pt2e-lens'));
  mkdirSync(join(dir, 'nb'));
  const outputs = ['conv_prepared.json', 'hostile.json'].map((f) => ({
    output_type: 'display_data', metadata: {}, data: { [MIME]: fixture(f), 'text/plain': ['pt2e-lens view'] },
  }));
  writeFileSync(join(dir, 'nb/demo.ipynb'), JSON.stringify({
    nbformat: 4, nbformat_minor: 5, metadata: {},
    cells: [{ cell_type: 'code', id: 'c1', execution_count: null, metadata: {}, source: ['# saved pt2e-lens outputs'], outputs }],
  }));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn('jupyter', ['lab', '--no-browser', `--port=${port}`, '--ip=127.0.0.1', '--allow-root',
    '--ServerApp.token=t', `--ServerApp.root_dir=${join(dir, 'nb')}`], {
    env: { ...process.env, JUPYTER_PATH: join(dir, 'jp') }, stdio: 'ignore',
  });
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`${base}/api/status?token=t`)).ok) break;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 500));
  }
  browser = await launch();
});
after(async () => {
  await browser?.close();
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server.once('exit', r));
    try {
      await fetch(`${base}/api/shutdown?token=t`, { method: 'POST' });
    } catch { /* already down */ }
    const t = setTimeout(() => server.kill('SIGKILL'), 15000);
    await exited;
    clearTimeout(t);
  }
});

describe('JupyterLab MIME renderer', { skip }, () => {
  it('renders saved outputs with the prebuilt extension, hostile text as text', async () => {
    const page = await browser.newPage({ viewport: { width: 1300, height: 1000 } });
    const dialogs = [];
    page.on('dialog', async (d) => { dialogs.push(d.message()); await d.dismiss(); });
    await page.goto(`${base}/lab/tree/demo.ipynb?token=t`);
    await page.waitForFunction(() => document.querySelectorAll('.jp-Pt2eLens .pt2e-lens[data-state="ready"]').length === 2, null, { timeout: 90000 });
    const outs = page.locator('.jp-Pt2eLens');
    const roles = await outs.nth(0).locator('.pl-node').evaluateAll((els) => els.map((e) => e.getAttribute('data-role')));
    assert.equal(roles.length, fixture('conv_prepared.json').panes[0].snapshot.nodes.length);
    assert.equal(await outs.nth(1).locator('.pl-title').first().textContent(), '<img src=y onerror=alert(4)>');
    assert.equal(await page.locator('.jp-Pt2eLens img').count(), 0);
    assert.deepEqual(dialogs, []);
    const nope = page.getByRole('dialog').getByRole('button', { name: 'No Kernel' });
    if (await nope.count()) await nope.click();
    await page.screenshot({ path: join(ARTIFACTS, 'jupyterlab.png') });
    await page.close();
  });
});
