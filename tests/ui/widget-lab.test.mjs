// widget.js inside a real anywidget host: a JupyterLab kernel runs a minimal AnyWidget whose `_esm` is the
// built widget.js and whose `view_json` trait carries a View; changing the trait re-renders.
// Needs `jupyter lab`, ipykernel and anywidget in the Python environment (skipped otherwise).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch } from './browser.mjs';
import { ARTIFACTS, ROOT } from './pages.mjs';

const py = spawnSync('python3', ['-c', 'import anywidget, ipykernel, jupyterlab'], { encoding: 'utf8' });
const built = existsSync(join(ROOT, 'kernel_pkg/pt2e_lens/_static/widget.js'));
const skip = py.status !== 0 ? 'python3 lacks anywidget / ipykernel / jupyterlab' : !built ? 'widget.js not built' : false;

function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const CELL = `import json, pathlib, anywidget, traitlets
class Lens(anywidget.AnyWidget):
    _esm = pathlib.Path(${JSON.stringify(join(ROOT, 'kernel_pkg/pt2e_lens/_static/widget.js'))})
    view_json = traitlets.Unicode("").tag(sync=True)
fx = pathlib.Path(${JSON.stringify(join(ROOT, 'tests/ts/fixtures'))})
w = Lens(view_json=(fx / "conv_prepared.json").read_text())
w`;
const CELL2 = `w.view_json = (fx / "conv_converted.json").read_text()`;

let server;
let browser;
let base;
before(async () => {
  if (skip) return;
  const dir = mkdtempSync(join(tmpdir(), 'pt2e-lens-widget-'));
  mkdirSync(join(dir, 'nb'));
  const cell = (src) => ({ cell_type: 'code', id: `c${Math.random().toString(36).slice(2, 8)}`, execution_count: null, metadata: {}, source: [src], outputs: [] });
  writeFileSync(join(dir, 'nb/widget.ipynb'), JSON.stringify({
    nbformat: 4, nbformat_minor: 5,
    metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } },
    cells: [cell(CELL), cell(CELL2)],
  }));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn('jupyter', ['lab', '--no-browser', `--port=${port}`, '--ip=127.0.0.1', '--allow-root',
    '--ServerApp.token=t', `--ServerApp.root_dir=${join(dir, 'nb')}`], { stdio: 'ignore' });
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

describe('anywidget host (JupyterLab + kernel)', { skip }, () => {
  it('renders view_json and re-renders when the trait changes', async () => {
    const page = await browser.newPage({ viewport: { width: 1300, height: 1000 } });
    await page.goto(`${base}/lab/tree/widget.ipynb?token=t`);
    await page.locator('.jp-Notebook .jp-Cell').first().waitFor({ timeout: 60000 });
    await page.waitForFunction(() => document.querySelector('.jp-Notebook')?.textContent?.includes('Lens'), null, { timeout: 60000 });
    // wait for the kernel (status bar "… | Idle"), then run the first cell
    await page.waitForFunction(() => /\|\s*Idle/.test(document.querySelector('#jp-main-statusbar')?.textContent ?? ''), null, { timeout: 90000 });
    await page.locator('.jp-Cell .jp-InputArea-editor').first().click();
    await page.keyboard.press('Shift+Enter');
    const widget = page.locator('.jp-OutputArea .pt2e-lens[data-state="ready"]');
    try {
      await widget.waitFor({ timeout: 90000 });
    } catch (e) {
      await page.screenshot({ path: join(ARTIFACTS, 'anywidget-lab-failed.png') });
      throw e;
    }
    assert.equal(await widget.locator('.pl-node').count(), 24);
    await page.keyboard.press('Shift+Enter'); // second cell: new view_json
    await page.waitForFunction(() => document.querySelectorAll('.jp-OutputArea .pt2e-lens .pl-node').length === 37, null, { timeout: 60000 });
    await page.screenshot({ path: join(ARTIFACTS, 'anywidget-lab.png') });
    await page.close();
  });
});
