// The course chapters built as a Jupyter Book (1.x: Sphinx + MyST-NB, offline; see tests/ui/book_build.py),
// opened in chromium with the network blocked: every graph output draws, the stem's conv → bn → relu and the
// stem-only q/dq nodes are exactly torchao's, and tables are real <table>s.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { launch } from './browser.mjs';
import { builtCourse } from './course-build.mjs';
import { PYTHON } from './lab_server.mjs';
import { ARTIFACTS, MIME } from './pages.mjs';

let OUT;
const hasBook = spawnSync(PYTHON, ['-c', 'import jupyter_book'], { encoding: 'utf8' }).status === 0;
const skip = hasBook ? false : 'jupyter-book not installed (pip install -e ".[test]")';

let browser;
let expected;
const problems = { dialogs: [], errors: [] };

before(async () => {
  if (skip) return;
  OUT = builtCourse();
  expected = JSON.parse(readFileSync(join(OUT, 'expected.json'), 'utf8'));
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** A built chapter page, offline, once every pt2e-lens output has finished drawing. */
async function open(chapter) {
  const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
  // offline: anything but the built files (fonts, CDNs, analytics) is refused
  await page.route(/^(?!file:|data:|blob:).*/, (route) => route.abort());
  page.on('dialog', async (d) => {
    problems.dialogs.push(d.message());
    await d.dismiss();
  });
  page.on('pageerror', (e) => problems.errors.push(`${chapter}: ${e.message}`));
  await page.goto(pathToFileURL(join(OUT, '_build', 'html', `${chapter}.html`)).href);
  await page.waitForFunction(
    (mime) => {
      const n = document.querySelectorAll(`script[type="${mime}"]`).length;
      const roots = [...document.querySelectorAll('.pt2e-lens')];
      return n > 0 && roots.length >= n && roots.every((r) => r.getAttribute('data-state') === 'ready');
    },
    MIME,
    { timeout: 90000 },
  );
  return page;
}

/** Per output: its View's mode/title and, per graph pane shown, the node ids drawn. */
function outputs(page) {
  return page.evaluate(async (mime) => {
    const scripts = [...document.querySelectorAll(`script[type="${mime}"]`)];
    // each output's View is packed: the page's own viewer unpacks it
    const views = await Promise.all(scripts.map((sc) => globalThis.pt2eLens.unpack(sc.textContent)));
    return scripts.map((sc, i) => {
      const view = views[i];
      const root = sc.previousElementSibling.querySelector('.pt2e-lens') ?? sc.previousElementSibling;
      const panes = [...root.querySelectorAll('.pl-canvas')]
        .filter((c) => c.offsetParent !== null)
        .map((c) => [...c.querySelectorAll('.pl-node')].map((n) => n.getAttribute('data-id')));
      return {
        mode: view.mode,
        title: view.title,
        focus: view.focus,
        panes,
        tables: root.querySelectorAll('table').length,
      };
    });
  }, MIME);
}

describe('Jupyter Book of the course, offline', { skip }, () => {
  it('M00-3: the stem compare draws exactly torchao’s conv → bn → relu in each stage; the op table is a table', async () => {
    const page = await open('m00_3_decomposition');
    const outs = await outputs(page);
    const stem = outs.find((o) => o.mode === 'compare' && o.title.startsWith('只看 stem'));
    assert.deepEqual(
      stem.panes.map((p) => [...p].sort()),
      expected.stem_panes.map((p) => [...p].sort()),
    );
    // the seed's own call: all four conv → bn → relu groups, in each stage
    const groups = outs.find((o) => o.mode === 'compare' && o.title === 'stem 的 conv → bn → relu');
    assert.deepEqual(
      groups.panes.map((p) => [...p].sort()),
      expected.group_panes,
    );
    for (const o of outs.filter((x) => x.mode !== 'table'))
      assert.ok(
        o.panes.every((p) => p.length > 0),
        o.title,
      );
    const opTable = await page.evaluate(() => {
      const t = [...document.querySelectorAll('.pt2e-lens table')].find((x) => /^op/.test(x.textContent));
      return t ? t.querySelectorAll('tbody tr').length : -1;
    });
    assert.equal(opTable, expected.op_rows);
    await page.locator('.pt2e-lens').first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, 'book-m00_3.png') });
    await page.close();
  });

  it('M03-6: every graph draws; the stem-only model shows exactly torchao’s q/dq nodes; tables are tables', async () => {
    const page = await open('m03_6_partial_composable_order');
    const outs = await outputs(page);
    const graphs = outs.filter((o) => o.mode !== 'table');
    assert.ok(graphs.length >= 4, `graph outputs: ${graphs.length}`);
    for (const o of graphs) {
      assert.ok(o.panes.length >= 1 && o.panes.every((p) => p.length > 0), `${o.title}: nothing drawn`);
      for (const [i, ids] of (o.focus ?? []).entries()) assert.equal(o.panes[i].length, ids.length, o.title);
    }
    const stem = graphs.find((o) => o.title?.startsWith('只量化 stem'));
    const qdq = await page.evaluate((title) => {
      const root = [...document.querySelectorAll('.pt2e-lens')].find(
        (r) => r.querySelector('.pl-title')?.textContent === title,
      );
      return [...root.querySelectorAll('.pl-node[data-role="quantize"], .pl-node[data-role="dequantize"]')]
        .map((n) => n.getAttribute('data-id'))
        .sort();
    }, stem.title);
    assert.deepEqual(qdq, expected.stem_only_qdq);
    const tables = outs.filter((o) => o.mode === 'table');
    assert.ok(tables.length >= 2 && tables.every((o) => o.tables >= 1), JSON.stringify(tables));
    await page.screenshot({ path: join(ARTIFACTS, 'book-m03_6.png'), fullPage: false });
    await page.close();
  });

  it('ran without page errors or dialogs', () => {
    assert.deepEqual(problems, { dialogs: [], errors: [] });
  });
});
