// Real VS Code (code-server in chromium) with our .vsix: the executed quickstart, opened with VS Code's
// built-in ipynb support (no kernel), is drawn by our renderer, and the converted tiny model shows exactly
// the q/dq nodes torchao put in it (numbers from torchao's graph, see notebook_page.py). In a light and a dark
// VS Code theme, in an editor as narrow as a side-by-side split: its findings one line per rule below the graph
// (issue 15 point 1), the drawer's why lines for the fp32 add and linear word for word pl.why_not's (2), the legend
// folded to one line and the edge hints of drawing past the view (7). Screenshots: tests/ui/artifacts/vscode-*.png.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { launch } from './browser.mjs';
import { ensureCodeServer, startCodeServer } from './code_server.mjs';
import { executedQuickstart } from './executed.mjs';
import { checkFindingLines } from './finding-lines.mjs';
import { ARTIFACTS, MIME, ROOT } from './pages.mjs';
import { nodePicker } from './pick-node.mjs';
import { afterFrame, idle } from './settled.mjs';

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

/** Opens a fresh workbench (fresh browser context: the theme in the user settings is read anew; the previous one is
 * closed, its extension host with it) and a file from its explorer in the notebook editor. A file opened before the
 * workbench has read the ipynb extension's contributions opens as JSON text: then close that editor and open the file
 * again, so that VS Code's editor resolver is asked anew. Each round waits on the editor VS Code opens, not on time. */
async function openNotebook(name) {
  await page?.context().close();
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  page = await context.newPage();
  await page.goto(`${server.url}/?folder=${encodeURIComponent(server.folder)}`);
  await page.waitForSelector('.monaco-workbench', { timeout: 120000 });
  const file = page.locator('.explorer-folders-view .monaco-list-row', { hasText: name });
  const notebook = page.locator('.notebook-editor');
  // a notebook's cell editors have notebook-cell URIs (…ipynb#…): only the file opened as text ends with its name
  const text = page.locator(`.editor-instance .monaco-editor[data-uri$="/${name}"]`);
  for (let round = 1; round <= 60; round++) {
    await file.dblclick({ timeout: 60000 });
    await notebook.or(text).first().waitFor({ state: 'attached', timeout: 120000 });
    if (await notebook.count()) {
      console.log(`VS Code: opened as a notebook in round ${round}`);
      return;
    }
    await page.locator('.tabs-container .tab.active .tab-actions .action-label').click();
    await text.waitFor({ state: 'detached', timeout: 60000 });
  }
  await page.screenshot({ path: join(ARTIFACTS, 'vscode-code-server-failed.png') });
  throw new Error(`VS Code never opened ${name} as a notebook\n${server.log()}`);
}

/** The webview frame that holds the notebook's outputs (VS Code's webview: an iframe.webview, its #active-frame),
 * once it shows a pt2e-lens root. */
async function outputFrame() {
  const first = page
    .locator('iframe.webview')
    .contentFrame()
    .locator('#active-frame')
    .contentFrame()
    .locator('.pt2e-lens')
    .first();
  await first.waitFor({ state: 'attached', timeout: 300000 }).catch(() => {
    throw new Error(`no pt2e-lens output appeared in VS Code\n${server.log()}`);
  });
  return (await first.elementHandle()).ownerFrame();
}

/** The drawn output titled `title` (VS Code puts every output of the notebook in one webview). */
async function outputTitled(frame, title) {
  const root = await frame
    .waitForFunction(
      (t) =>
        [...document.querySelectorAll('.pt2e-lens')].find(
          (x) => x.querySelector('.pl-title')?.textContent === t && x.getAttribute('data-state') === 'ready',
        ) ?? null,
      title,
      { timeout: 120000 },
    )
    .catch(() => null);
  if (!root) throw new Error(`output "${title}" was never drawn`);
  return root;
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
    await idle(page, frame.locator('.pt2e-lens'));
    await page.screenshot({ path: join(ARTIFACTS, 'vscode-code-server.png') });
  });

  for (const [theme, slug] of [
    ['Default Light Modern', 'light'],
    ['Default Dark Modern', 'dark'],
  ])
    it(`the converted graph in a narrow ${slug} editor: findings one line each, why lines, folded legend, edge hints`, async () => {
      // a fresh workbench reads the theme from the user settings (the running one did not follow the file)
      server.settings({ 'workbench.colorTheme': theme });
      await openNotebook('quickstart.ipynb');
      const frame = await outputFrame();
      await narrowEditor(frame);
      await frame.waitForFunction((s) => document.body.classList.contains(`vscode-${s}`), slug, { timeout: 30000 });
      const root = () =>
        frame.locator('.pt2e-lens[data-state="ready"]', {
          has: frame.locator('.pl-title', { hasText: /^tiny, converted$/ }),
        });
      await scrollToOutput(root());
      const w = await root().evaluate((r) => r.getBoundingClientRect().width);
      assert.ok(w < 420, `the output is narrow (${w} px)`);
      // findings: one line per rule, below the graph, in the kernel's order of rules
      await checkFindingLines(root(), run.expected.findings);
      // the legend folded to its one line; the drawing past the view's edge says so
      assert.equal(
        await root()
          .locator('.pl-legend')
          .evaluate((l) => l.classList.contains('pl-legend-folded')),
        true,
      );
      const hints = await root().locator('.pl-offscreen:not([hidden])').count();
      assert.ok(hints > 0, 'an edge hint where the drawing goes on');
      await page.screenshot({ path: join(ARTIFACTS, `vscode-narrow-${slug}.png`) });
      // the drawer: pl.why_not's lines for the ops ConvQuantizer leaves fp32
      const { pick } = nodePicker(() => page, root);
      for (const id of ['add', 'linear']) {
        assert.ok(run.expected.why[id].length > 0, `the kernel has a why line for ${id}`);
        await pick(id);
        assert.deepEqual(
          await root().locator('.pl-drawer:not([hidden]) .pl-why li').allTextContents(),
          run.expected.why[id],
        );
        await scrollToOutput(root().locator('.pl-drawer:not([hidden])'));
        await page.screenshot({ path: join(ARTIFACTS, `vscode-drawer-${id}-${slug}.png`) });
      }
      await root().locator('.pl-drawer-close').click();
      await root().locator('.pl-toolbar input[type="search"]').fill('');
    });
});

/** An editor as narrow as one side of a split: the workbench at 520 px, its side bar closed; the outputs in `frame`
 * narrowed with it and re-fitted. */
async function narrowEditor(frame) {
  await page.setViewportSize({ width: 520, height: 1000 });
  // a click on the open view's icon in the activity bar closes the side bar
  if (await page.locator('.part.sidebar').isVisible()) {
    await page.locator('.part.activitybar .action-item.checked').first().click();
    await page.locator('.part.sidebar').waitFor({ state: 'hidden' });
  }
  // the webview follows the editor's width: every output under 520 px, then their re-fits drawn
  await frame.waitForFunction(
    () => [...document.querySelectorAll('.pt2e-lens')].every((r) => r.getBoundingClientRect().width < 520),
    null,
    { timeout: 120000 },
  );
  await afterFrame(frame);
  await idle(page, frame.locator('.pt2e-lens'));
}

/** Scroll the notebook editor (VS Code forwards a wheel over its outputs' webview to it) until `target`, an element
 * in that webview, is in the window. */
async function scrollToOutput(target) {
  const vh = page.viewportSize().height;
  for (let i = 0; i < 40; i++) {
    const b = await target.boundingBox();
    if (b && b.y >= 40 && b.y + Math.min(b.height, vh - 200) <= vh - 40) return;
    // over the cells' left gutter: a wheel over a graph pans the graph
    await page.mouse.move(70, vh / 2);
    await page.mouse.wheel(0, b ? Math.max(-600, Math.min(600, b.y - 120)) : 400);
    // the notebook scrolls and moves its outputs' webview within a few frames: wait on frames until it has
    for (let f = 0; f < 30; f++) {
      await afterFrame(page);
      const now = await target.boundingBox();
      if (!b || !now || Math.abs(now.y - b.y) > 0.5) break;
    }
  }
  throw new Error('the output never scrolled into view');
}
