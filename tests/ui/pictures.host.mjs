// Pictures where no JavaScript runs: the executed quickstart, filled by `python -m pt2e_lens.pictures`,
// exported by nbconvert, every <script> stripped, opened with JavaScript off and the network blocked.
// Every graph output shows a static SVG (the converted tiny model's with exactly torchao's q/dq nodes), and
// tables are real HTML tables, left-aligned and not squeezed by nbconvert's `table-layout: fixed`.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { launch } from './browser.mjs';
import { executedQuickstart } from './executed.mjs';
import { PYTHON } from './lab_server.mjs';
import { ARTIFACTS, MIME, ROOT, unpackOutputs } from './pages.mjs';

const OUT = join(ARTIFACTS, 'pictures');
let browser;
let page;
let run;
let views;

before(async () => {
  run = executedQuickstart();
  mkdirSync(OUT, { recursive: true });
  const nbPath = join(OUT, 'quickstart.ipynb');
  copyFileSync(run.notebook, nbPath);
  const env = { ...process.env, PYTHONPATH: join(ROOT, 'kernel_pkg') };
  execFileSync(PYTHON, ['-m', 'pt2e_lens.pictures', nbPath], { env, stdio: 'inherit', timeout: 600000 });
  const nb = JSON.parse(readFileSync(nbPath, 'utf8'));
  views = nb.cells.flatMap((c) => c.outputs ?? []).filter((o) => o.data?.[MIME]);
  const unpacked = unpackOutputs(views.map((o) => o.data[MIME]));
  views.forEach((o, i) => {
    o.view = unpacked[i];
  });
  execFileSync(PYTHON, ['-m', 'nbconvert', '--to', 'html', '--output-dir', OUT, nbPath], { env, stdio: 'ignore' });
  const stripped = readFileSync(join(OUT, 'quickstart.html'), 'utf8').replace(/<script\b[\s\S]*?<\/script>/gi, '');
  assert.ok(!/<script/i.test(stripped));
  writeFileSync(join(OUT, 'stripped.html'), stripped);
  browser = await launch();
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1300, height: 900 } });
  page = await context.newPage();
  await page.route(/^(?!file:|data:).*/, (route) => route.abort());
  await page.goto(pathToFileURL(join(OUT, 'stripped.html')).href);
});
after(async () => {
  await browser?.close();
});

describe('saved notebook with scripts stripped', () => {
  it('every graph output carries a picture, stored as image/svg+xml too', () => {
    for (const o of views) {
      const v = o.view;
      if (v.panes.length) assert.match(o.data['image/svg+xml'] ?? '', /^<svg/);
    }
  });

  it('shows a picture for every graph output; the converted model with exactly torchao’s q/dq nodes', async () => {
    const pictures = await page.evaluate(() =>
      [...document.querySelectorAll('.pt2e-lens-root .pt2e-lens-picture > svg')].map((svg) => ({
        title: svg.querySelector('title')?.textContent ?? '',
        nodes: svg.querySelectorAll('.pl-node').length,
        qdq: [...svg.querySelectorAll('.pl-node[data-role="quantize"], .pl-node[data-role="dequantize"]')]
          .map((n) => n.getAttribute('data-id'))
          .sort(),
        width: svg.getBoundingClientRect().width,
      })),
    );
    assert.equal(pictures.length, views.filter((o) => o.view.panes.length).length);
    for (const p of pictures) assert.ok(p.nodes > 0 && p.width > 100, JSON.stringify(p));
    const converted = pictures.find((p) => p.title === 'tiny, converted');
    assert.deepEqual(converted.qdq, run.expected.qdq_nodes);
    const svg = page.locator('.pt2e-lens-root .pt2e-lens-picture > svg', {
      has: page.locator('title', { hasText: 'tiny, converted' }),
    });
    await svg.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, 'pictures-no-script.png') });
  });

  it('tables are real HTML tables, left-aligned, sized by their content', async () => {
    const tables = await page.evaluate(() =>
      [...document.querySelectorAll('table.pt2e-lens-table')].map((t) => {
        const td = t.querySelector('td');
        const cs = td ? getComputedStyle(td) : null;
        return {
          rows: t.querySelectorAll('tbody tr').length,
          layout: getComputedStyle(t).tableLayout,
          align: cs?.textAlign,
          clipped: [...t.querySelectorAll('td')].some((c) => c.scrollWidth > c.clientWidth + 1),
        };
      }),
    );
    const expected = views.flatMap((o) => o.view.tables);
    assert.equal(tables.length, expected.length);
    tables.forEach((t, i) => {
      assert.equal(t.rows, expected[i].rows.length);
      assert.equal(t.layout, 'auto');
      if (t.rows) assert.equal(t.align, 'left');
      assert.equal(t.clipped, false);
    });
    await page.locator('table.pt2e-lens-table').first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, 'pictures-tables-no-script.png') });
  });
});
