// Colab-style isolation: each pt2e-lens output of the executed quickstart, alone in a sandboxed iframe
// (sandbox="allow-scripts": opaque origin, nothing from the page outside), srcdoc = that output's text/html.
// Every one must draw by itself; the converted tiny model shows torchao's q/dq nodes.

import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { launch } from './browser.mjs';
import { executedQuickstart } from './executed.mjs';
import { ARTIFACTS, MIME, unpackOutputs } from './pages.mjs';

let browser;
let page;
let run;
let outputs;
const errors = [];

const attr = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
const text = (v) => (Array.isArray(v) ? v.join('') : v);

before(async () => {
  run = executedQuickstart();
  const nb = JSON.parse(readFileSync(run.notebook, 'utf8'));
  const found = nb.cells.flatMap((c) => c.outputs ?? []).filter((o) => o.data?.[MIME]);
  const views = unpackOutputs(found.map((o) => o.data[MIME]));
  outputs = found.map((o, i) => ({ view: views[i], html: text(o.data['text/html']) }));
  const frames = outputs
    .map(
      (o, i) =>
        `<iframe id="out${i}" sandbox="allow-scripts" style="width:1200px;height:700px;border:1px solid #ccc" srcdoc="${attr(o.html)}"></iframe>`,
    )
    .join('\n');
  const file = join(ARTIFACTS, 'sandboxed-outputs.html');
  writeFileSync(file, `<!doctype html><meta charset="utf-8"><body>${frames}</body>`);
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
  await page.route(/^(?!file:|data:|blob:|about:).*/, (route) => route.abort());
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(pathToFileURL(file).href);
});
after(async () => {
  await browser?.close();
});

describe('each output alone in a sandboxed iframe (Colab-style)', () => {
  it('every pt2e-lens output draws inside its own sandbox', async () => {
    assert.ok(outputs.length >= 6, `${outputs.length} outputs`);
    for (let i = 0; i < outputs.length; i++) {
      const frame = page.frameLocator(`#out${i}`);
      const root = frame.locator('.pt2e-lens').first();
      await root.waitFor({ timeout: 60000 });
      await frame.locator('.pt2e-lens[data-state="ready"]').first().waitFor({ timeout: 60000 });
      const v = outputs[i].view;
      const drawn = await frame
        .locator('.pt2e-lens')
        .first()
        .evaluate((r) => ({
          nodes: r.querySelectorAll('.pl-node').length,
          tables: r.querySelectorAll('table').length,
        }));
      if (v.panes.length > 0) assert.ok(drawn.nodes > 0, `output ${i} (${v.mode}) drew no node`);
      else assert.ok(drawn.tables > 0, `output ${i} (tables) drew no table`);
    }
    assert.deepEqual(errors, []);
  });

  it('the converted tiny model shows exactly torchao’s q/dq nodes', async () => {
    const i = outputs.findIndex((o) => o.view.title === 'tiny, converted');
    assert.ok(i >= 0);
    const frame = page.frameLocator(`#out${i}`);
    const ids = await frame
      .locator('.pt2e-lens[data-state="ready"]')
      .first()
      .evaluate((r) =>
        [...r.querySelectorAll('.pl-node[data-role="quantize"], .pl-node[data-role="dequantize"]')]
          .map((n) => n.getAttribute('data-id'))
          .sort(),
      );
    assert.deepEqual(ids, run.expected.qdq_nodes);
    await page.locator(`#out${i}`).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, 'sandboxed-converted.png') });
  });
});
