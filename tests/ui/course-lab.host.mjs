// The executed M03-6 chapter opened in a real JupyterLab, light and dark theme (issue 18, points 1 and 5):
// every output draws in zh-TW (the chapter chose it; JupyterLab's own language is English), and part C's
// pl.compare of the two orders marks the observer torchao moved, in both panes.
// Screenshots: tests/ui/artifacts/course-lab-orders-{light,dark}.png.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { launch } from './browser.mjs';
import { builtCourse } from './course-build.mjs';
import { PYTHON, startLab } from './lab_server.mjs';
import { ARTIFACTS, MIME, ROOT } from './pages.mjs';

const hasLab = spawnSync(PYTHON, ['-c', 'import jupyterlab, jupyter_book'], { encoding: 'utf8' }).status === 0;
const built = existsSync(join(ROOT, 'extension/labextension/package.json'));
const skip = !hasLab ? 'jupyterlab or jupyter-book not installed' : !built ? 'labextension not built' : false;
const CHAPTER = 'm03_6_partial_composable_order';
const ENGLISH =
  /Collapse all|Expand all|\bLegend\b|\bFit\b|\d nodes|observers,|sharing groups|\(output\)|observer added/;
const zh = JSON.parse(readFileSync(join(ROOT, 'kernel_pkg/pt2e_lens/locales/zh-TW.json'), 'utf8'));
const MOVED_LINE = zh['compare.moved.line'].split('{')[0];

let lab;
let browser;
let expected;
let outputs;
before(async () => {
  if (skip) return;
  const dir = builtCourse();
  expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')).moved_observer;
  const file = join(dir, `${CHAPTER}.ipynb`);
  const nb = JSON.parse(readFileSync(file, 'utf8'));
  outputs = nb.cells.flatMap((c) => c.outputs ?? []).filter((o) => o.data?.[MIME]).length;
  lab = await startLab({ [`${CHAPTER}.ipynb`]: file });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  lab?.stop();
});

describe('the M03-6 chapter in JupyterLab', { skip }, () => {
  it('light and dark: every output in zh-TW, the moved observer marked in both panes of part C', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${lab.url}/lab/tree/${CHAPTER}.ipynb`);
    await page.waitForFunction(
      (n) => document.querySelectorAll('.jp-Pt2eLens .pt2e-lens[data-state="ready"]').length >= n,
      outputs,
      { timeout: 180000 },
    );
    const backgrounds = [];
    for (const theme of ['JupyterLab Light', 'JupyterLab Dark']) {
      await page.evaluate((t) => window.jupyterapp.commands.execute('apputils:change-theme', { theme: t }), theme);
      await page.waitForFunction((t) => document.body.dataset.jpThemeName === t, theme, { timeout: 30000 });
      await page.waitForTimeout(500);
      const seen = await page.evaluate((line) => {
        const roots = [...document.querySelectorAll('.jp-Pt2eLens .pt2e-lens')];
        const root = roots.find((r) => r.querySelector('.pl-title')?.textContent.startsWith(line));
        root.scrollIntoView();
        const panes = [...root.querySelectorAll('.pl-pane')];
        const ids = (pane, cls) => [...pane.querySelectorAll(`.pl-node.${cls}`)].map((n) => n.getAttribute('data-id'));
        return {
          langs: [...new Set(roots.map((r) => r.getAttribute('lang')))],
          text: roots.map((r) => r.textContent).join('\n'),
          removed: ids(panes[0], 'pl-removed'),
          added: ids(panes[1], 'pl-added'),
          notes: panes.map((p) => [...p.querySelectorAll('.pl-callout')].map((c) => c.textContent).join(' ')),
          bg: getComputedStyle(root).backgroundColor,
        };
      }, MOVED_LINE);
      assert.deepEqual(seen.langs, ['zh-TW']);
      assert.doesNotMatch(seen.text, ENGLISH);
      for (const key of ['ui.fit', 'ui.collapse_all', 'ui.expand_all']) assert.ok(seen.text.includes(zh[key]), key);
      // where torchao's own prepare_pt2e put it: after relu (big first), between conv2d and relu (small first)
      assert.deepEqual(seen.removed, [expected[0]]);
      assert.deepEqual(seen.added, [expected[1]]);
      assert.match(seen.notes[0], /relu/);
      assert.match(seen.notes[1], /conv2d/);
      const slug = theme.endsWith('Dark') ? 'dark' : 'light';
      backgrounds.push(seen.bg);
      await page.screenshot({ path: join(ARTIFACTS, `course-lab-orders-${slug}.png`) });
    }
    assert.notEqual(backgrounds[0], backgrounds[1]); // the dark theme really drew dark
    assert.deepEqual(errors, []);
    await page.close();
  });
});
