// The executed M03-6 chapter opened in a real JupyterLab, light and dark theme (issue 18, points 1 and 5):
// every output draws in zh-TW (the chapter chose it; JupyterLab's own language is English), and part C's
// pl.compare of the two orders marks the observer torchao moved, in both panes.
// Screenshots: tests/ui/artifacts/course-lab-orders-{light,dark}.png.

import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { launch } from './browser.mjs';
import { builtCourse } from './course-build.mjs';
import { PYTHON, setLabTheme, startLab } from './lab_server.mjs';
import { ARTIFACTS, MIME, ROOT, unpackOutputs } from './pages.mjs';
import { idle } from './settled.mjs';

const hasLab = spawnSync(PYTHON, ['-c', 'import jupyterlab, jupyter_book'], { encoding: 'utf8' }).status === 0;
const built = existsSync(join(ROOT, 'extension/labextension/package.json'));
const skip = !hasLab ? 'jupyterlab or jupyter-book not installed' : !built ? 'labextension not built' : false;
const CHAPTER = 'm03_6_partial_composable_order';
const ENGLISH =
  /Collapse all|Expand all|\bLegend\b|\bFit\b|\d nodes|observers,|sharing groups|\(output\)|observer added/;
const zh = JSON.parse(readFileSync(join(ROOT, 'kernel_pkg/pt2e_lens/locales/zh-TW.json'), 'utf8'));
const MOVED_LINE = zh['compare.moved.line'].split('{')[0];
const SVG = 'image/svg+xml';
const text = (v) => (Array.isArray(v) ? v.join('') : v);

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
  outputs = nbOutputs(nb).length;
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
      await setLabTheme(page, theme);
      await idle(page, page.locator('.jp-Pt2eLens .pt2e-lens')); // a canvas pane repaints in the theme
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
    // point 2: the renderer stored a picture per graph; saved, the notebook shows them with scripts stripped
    const chapterFile = JSON.parse(readFileSync(join(lab.root, `${CHAPTER}.ipynb`), 'utf8'));
    const graphs = unpackOutputs(nbOutputs(chapterFile).map((o) => o.data[MIME])).filter((v) => v.panes.length).length;
    await page.waitForFunction(
      ([svg, n]) => {
        const nb = window.jupyterapp.shell.currentWidget?.content?.model;
        let k = 0;
        for (const cell of nb?.cells ?? []) for (const o of cell.outputs?.toJSON?.() ?? []) if (o.data?.[svg]) k++;
        return k === n;
      },
      [SVG, graphs],
      { timeout: 60000 },
    );
    await page.evaluate(() => window.jupyterapp.commands.execute('docmanager:save'));
    await page.waitForFunction(() => !window.jupyterapp.shell.currentWidget.context.model.dirty, null, {
      timeout: 30000,
    });
    await page.close();
    const saved = nbOutputs(JSON.parse(readFileSync(join(lab.root, `${CHAPTER}.ipynb`), 'utf8')));
    const pictures = saved.map((o) => text(o.data[SVG] ?? '')).filter(Boolean);
    assert.equal(pictures.length, graphs);
    for (const svg of pictures) {
      const words = svg.replace(/<[^>]+>/g, ' ');
      assert.doesNotMatch(words, ENGLISH);
      assert.doesNotMatch(words, /點一下|click to open/); // nothing in a picture can be clicked
    }
    // part C's picture: both panes' moved observer, the first dashed (removed), the second framed green (added)
    const orders = pictures.find((p) => p.includes(MOVED_LINE));
    assert.equal(orders.split(`data-id="${expected[0]}"`).length - 1, 2);
    assert.match(orders, /stroke-dasharray/);
    for (const theme of ['light', 'dark']) {
      const html = join(lab.root, `${CHAPTER}-${theme}.html`);
      const code =
        'import sys\nfrom nbconvert import HTMLExporter\nimport nbformat\n' +
        'nb = nbformat.read(sys.argv[1], as_version=4)\n' +
        'body, _ = HTMLExporter(template_name="lab", theme=sys.argv[3]).from_notebook_node(nb)\n' +
        'open(sys.argv[2], "w", encoding="utf-8").write(body)';
      execFileSync(PYTHON, ['-c', code, join(lab.root, `${CHAPTER}.ipynb`), html, theme]);
      const context = await browser.newContext({
        viewport: { width: 1300, height: 900 },
        javaScriptEnabled: false,
        colorScheme: theme,
      });
      const stripped = await context.newPage();
      await stripped.route(/^(?!file:|data:|blob:).*/, (route) => route.abort());
      await stripped.goto(pathToFileURL(html).href);
      assert.equal(await stripped.locator('.pt2e-lens-root .pt2e-lens-picture > svg').count(), graphs);
      const shown = stripped.locator('.pt2e-lens-picture', { hasText: MOVED_LINE });
      await shown.scrollIntoViewIfNeeded();
      await stripped.screenshot({ path: join(ARTIFACTS, `course-lab-saved-noscript-${theme}.png`) });
      await context.close();
    }
  });
});

/** The outputs with a pt2e-lens View, their MIME data as saved. */
function nbOutputs(nb) {
  return nb.cells.flatMap((c) => c.outputs ?? []).filter((o) => o.data?.[MIME]);
}
