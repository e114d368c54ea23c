// Issue 26.4: no column cut at a table's edge. A table wider than its output (the side panel's ~300 px, or a long
// class name at any width) stacks its rows, each cell named by its column; a table that fits stays side by side,
// and a stacked one goes back side by side when its output widens enough.
// The real capture's observers, sharing and q/dq tables (tests/ts/fixtures/real_run.json), light and dark.
// Screenshots: tests/ui/artifacts/table-edges-{300,1400}-{light,dark}.png

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { launch } from './browser.mjs';
import { ARTIFACTS, fixture, writePage } from './pages.mjs';
import { idle } from './settled.mjs';

const run = fixture('real_run.json');
const tableView = (t) => ({
  ...run,
  mode: 'table',
  title: null,
  panes: [],
  diffs: [],
  focus: null,
  notes: [],
  tables: [t],
});
const views = ['observers', 'sharing', 'qdq'].map((name) => tableView(run.tables.find((t) => t.name === name)));
const narrow = { ...tableView({ name: 'op_diff', title: null, columns: ['op', 'a'], rows: [['relu', 1]] }) };

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function open(width, scheme) {
  const page = await browser.newPage({ viewport: { width, height: 1200 }, colorScheme: scheme });
  await page.goto(writePage(`table-edges-${width}-${scheme}.html`, [...views, narrow]));
  await page.waitForFunction(() =>
    [...document.querySelectorAll('.pt2e-lens')].every((e) => e.getAttribute('data-state') === 'ready'),
  );
  await idle(page, page.locator('.pt2e-lens'));
  return page;
}

/** Per table: is it cut at either edge, is it stacked, and the texts of its cells outside its frame. */
const edges = (page) =>
  page.$$eval('.pl-table-frame', (frames) =>
    frames.map((f) => {
      const s = f.querySelector('.pl-table-scroll');
      const box = s.getBoundingClientRect();
      const left = box.left + s.clientLeft;
      const right = left + s.clientWidth;
      const out = [];
      for (const td of f.querySelectorAll('td, th')) {
        const range = document.createRange();
        range.selectNodeContents(td);
        for (const q of range.getClientRects())
          if (q.width > 0 && (q.left < left - 0.5 || q.right > right + 0.5)) out.push(td.textContent.slice(0, 30));
      }
      return {
        cut: s.scrollWidth - s.clientWidth > 1,
        stacked: f.closest('.pl-table-wrap').classList.contains('pl-table-stacked'),
        out,
      };
    }),
  );

/** The stacked rows name each column: every cell's label is its column's header. */
const labelled = (page) =>
  page.$$eval('.pl-table-stacked tbody tr:first-child', (rows) =>
    rows.every((tr) => {
      const heads = [...tr.closest('table').querySelectorAll('th')].map((th) => th.dataset.key);
      return [...tr.children].every((td, i) => td.dataset.label && heads[i] !== undefined);
    }),
  );

describe('tables wider than their output', () => {
  for (const scheme of ['light', 'dark'])
    it(`stack their rows: no column cut at the output's edge (${scheme}, 300 px)`, async () => {
      const page = await open(300, scheme);
      const all = await edges(page);
      assert.equal(all.length, 4);
      // the real tables do not fit 300 px side by side: stacked, nothing cut, no text past the frame
      for (const e of all.slice(0, 3)) assert.deepEqual(e, { cut: false, stacked: true, out: [] });
      assert.deepEqual(all[3], { cut: false, stacked: false, out: [] }); // fits: a plain table
      assert.ok(await labelled(page));
      await page.screenshot({ path: join(ARTIFACTS, `table-edges-300-${scheme}.png`), fullPage: true });
      // widened, the same page lays out its tables as a page opened that wide does (side by side where they fit)
      await page.setViewportSize({ width: 1400, height: 1200 });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const wide = await open(1400, scheme);
      assert.deepEqual(await edges(page), await edges(wide));
      await wide.close();
      await page.close();
    });

  it('side by side where the whole table fits (a wide output)', async () => {
    const page = await open(1400, 'light');
    const all = await edges(page);
    for (const e of all) assert.deepEqual(e, { cut: false, stacked: e.stacked, out: [] });
    assert.equal(all[3].stacked, false);
    await page.screenshot({ path: join(ARTIFACTS, 'table-edges-1400-light.png'), fullPage: true });
    await page.close();
  });
});
