// Real VS Code (code-server in chromium) with our .vsix: the executed quickstart, opened with VS Code's
// built-in ipynb support (no kernel), is drawn by our renderer, and the converted tiny model shows exactly
// the q/dq nodes torchao put in it (numbers from torchao's graph, see notebook_page.py).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { launch } from './browser.mjs';
import { ensureCodeServer, startCodeServer } from './code_server.mjs';
import { executedQuickstart } from './executed.mjs';
import { ARTIFACTS, MIME, ROOT } from './pages.mjs';

let server;
let browser;
let page;
let run;

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const entry = ensureCodeServer();
  execFileSync('npm', ['run', '--silent', 'package:vscode'], { cwd: ROOT, stdio: 'ignore' });
  run = executedQuickstart();
  server = await startCodeServer(entry, [run.notebook]);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.stop();
});

/** Opens the workbench and a file from its explorer in the notebook editor. A file opened before the
 * workbench has read the ipynb extension's contributions opens as JSON text, and the workbench remembers
 * that: then try again in a fresh browser context (fresh workbench state), waiting longer each time. */
async function openNotebook(name) {
  for (let attempt = 1; attempt <= 6; attempt++) {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    page = await context.newPage();
    const launched = () => server.log().split('Launched Extension Host Process').length;
    const before = launched();
    await page.goto(`${server.url}/?folder=${encodeURIComponent(server.folder)}`);
    await page.waitForSelector('.monaco-workbench', { timeout: 120000 });
    // each workbench gets its own extension host; give it time to hand over the extensions it found
    for (let i = 0; i < 240 && launched() === before; i++) await page.waitForTimeout(250);
    await page.waitForTimeout(3000 * attempt);
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: name }).dblclick({ timeout: 60000 });
    try {
      await page.waitForSelector('.notebook-editor', { state: 'attached', timeout: 10000 });
      console.log(`VS Code: opened as a notebook on attempt ${attempt}`);
      return;
    } catch {
      await page.screenshot({ path: join(ARTIFACTS, 'vscode-code-server-failed.png') });
      await context.close();
    }
  }
  throw new Error(`VS Code never opened ${name} as a notebook\n${server.log()}`);
}

/** The webview frame that holds the notebook's outputs, once it shows `n` pt2e-lens roots. */
async function outputFrame() {
  for (let i = 0; i < 240; i++) {
    for (const f of page.frames()) {
      const n = await f.evaluate(() => document.querySelectorAll('.pt2e-lens').length).catch(() => 0);
      if (n > 0) return f;
    }
    await page.waitForTimeout(250);
  }
  throw new Error(`no pt2e-lens output appeared in VS Code\n${server.log()}`);
}

/** The drawn output titled `title` (VS Code puts every output of the notebook in one webview). */
async function outputTitled(frame, title) {
  for (let i = 0; i < 240; i++) {
    const root = await frame.evaluateHandle(
      (t) =>
        [...document.querySelectorAll('.pt2e-lens')].find(
          (x) => x.querySelector('.pl-title')?.textContent === t && x.getAttribute('data-state') === 'ready',
        ) ?? null,
      title,
    );
    if (await root.evaluate((r) => r !== null)) return root;
    await page.waitForTimeout(250);
  }
  throw new Error(`output "${title}" was never drawn`);
}

describe('VS Code (code-server) with the pt2e-lens .vsix', () => {
  it('the .vsix is installed', () => {
    assert.ok(server.extensions.includes('pt2e-lens.pt2e-lens-renderer'), server.extensions.join(', '));
  });

  it('opens the executed quickstart without a kernel; our renderer draws torchao’s q/dq nodes', async () => {
    const t0 = Date.now();
    await openNotebook('quickstart.ipynb');
    console.log(`VS Code: notebook editor open after ${Date.now() - t0} ms`);
    const frame = await outputFrame();
    console.log(`VS Code: first pt2e-lens output after ${Date.now() - t0} ms`);
    const root = await outputTitled(frame, 'tiny, converted');
    const ids = await root.evaluate((r) =>
      [...r.querySelectorAll('.pl-node[data-role="quantize"], .pl-node[data-role="dequantize"]')]
        .map((n) => n.getAttribute('data-id'))
        .sort(),
    );
    assert.deepEqual(ids, run.expected.qdq_nodes);
    // Drawn by our MIME renderer, not by VS Code's HTML renderer running the text/html fallback
    // (that one carries the View in a <script type=MIME> next to its mount point).
    const fallback = await frame.evaluate((m) => document.querySelectorAll(`script[type="${m}"]`).length, MIME);
    assert.equal(fallback, 0);
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(ARTIFACTS, 'vscode-code-server.png') });
  });
});
