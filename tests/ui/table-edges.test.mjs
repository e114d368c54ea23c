// Issue 26.4: a table wider than its output (the side panel's ~300 px, or a long class name at any width) says so
// at the edge that cuts it — "more ▸" over its header — and a click scrolls that way; a table that fits shows none.
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

/** Per table: is it cut at its right edge, and is the right hint shown (laid out, inside the table's frame)? */
const edges = (page) =>
  page.$$eval('.pl-table-frame', (frames) =>
    frames.map((f) => {
      const s = f.querySelector('.pl-table-scroll');
      const hint = (side) => {
        const b = f.querySelector(`.pl-more-cols.pl-offscreen-${side}`);
        const r = b.getBoundingClientRect();
        const box = f.getBoundingClientRect();
        return !b.hidden && r.width > 0 && r.left >= box.left - 0.5 && r.right <= box.right + 0.5;
      };
      return {
        cutRight: s.scrollWidth - s.scrollLeft - s.clientWidth > 1,
        cutLeft: s.scrollLeft > 1,
        right: hint('right'),
        left: hint('left'),
      };
    }),
  );

describe('tables wider than their output', () => {
  for (const scheme of ['light', 'dark'])
    it(`say so at the edge that cuts them, and a click scrolls there (${scheme})`, async () => {
      const page = await open(300, scheme);
      const before = await edges(page);
      assert.equal(before.length, 4);
      assert.ok(
        before.slice(0, 3).every((e) => e.cutRight && e.right && !e.left && !e.cutLeft),
        JSON.stringify(before),
      );
      assert.deepEqual(before[3], { cutRight: false, cutLeft: false, right: false, left: false }); // fits: no hint
      await page.screenshot({ path: join(ARTIFACTS, `table-edges-300-${scheme}.png`), fullPage: true });
      await page.locator('.pl-more-cols.pl-offscreen-right').first().click();
      await page.waitForFunction(() => document.querySelector('.pl-table-scroll').scrollLeft > 0);
      const after = (await edges(page))[0];
      assert.ok(after.cutLeft && after.left, JSON.stringify(after)); // now the left side says so too
      await page.close();
    });

  it('show no hint where the whole table fits (a wide output)', async () => {
    const page = await open(1400, 'light');
    const all = await edges(page);
    for (const e of all) assert.equal(e.right, e.cutRight);
    await page.screenshot({ path: join(ARTIFACTS, 'table-edges-1400-light.png'), fullPage: true });
    await page.close();
  });
});
