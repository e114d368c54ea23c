// Bombs in an untrusted saved output, in a real browser (the static report bundle, as on an nbconvert page):
// a valid View with a 400 M-character title (~0.4 MB packed) and a 1 GB gzip of zeros (~1 MB) each end in one
// line naming the contract bound that stopped them, while the page's JS heap stays far below what opening
// them took before (2.3–3.2 GB). Both are streamed through zlib here, so the test itself never holds them.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createGzip } from 'node:zlib';
import { launch } from './browser.mjs';
import { fixture, writePage } from './pages.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** gzip of head + `chunk` × n + tail, streamed (never the whole text in memory), as a packed envelope. */
async function envelope(head, chunk, n, tail) {
  const gz = createGzip({ level: 9 });
  const out = [];
  gz.on('data', (d) => out.push(d));
  const done = new Promise((ok) => gz.on('end', ok));
  gz.write(head);
  for (let i = 0; i < n; i++) {
    if (!gz.write(chunk)) await new Promise((ok) => gz.once('drain', ok));
  }
  gz.end(tail);
  await done;
  return {
    format: 'pt2e-lens.packed',
    encoding: 'gzip+base64',
    schema_version: 1,
    data: Buffer.concat(out).toString('base64'),
  };
}

describe('bombs in a saved output', () => {
  it('a 400 M-character title and a 1 GB gzip of zeros are one line each, with a bounded heap', async () => {
    const view = JSON.stringify({ ...fixture('conv_prepared.json'), title: '@@' });
    const [head, tail] = view.split('"@@"');
    const title = await envelope(`${head}"`, Buffer.alloc(10_000_000, 'x'), 40, `"${tail}`);
    const zeros = await envelope('', Buffer.alloc(10_000_000), 100, '');
    const url = writePage('bombs.html', [title, zeros, fixture('conv_prepared.json')]);
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const t0 = Date.now();
    await page.goto(url);
    await page.waitForFunction(
      () => {
        const states = [...document.querySelectorAll('.pt2e-lens')].map((r) => r.getAttribute('data-state'));
        return states.length === 3 && !states.includes('loading');
      },
      null,
      { timeout: 120000 },
    );
    const seconds = (Date.now() - t0) / 1000;
    const states = await page.$$eval('.pt2e-lens', (rs) => rs.map((r) => r.getAttribute('data-state')));
    assert.deepEqual(states, ['error', 'error', 'ready']); // the good output next to them still draws
    const messages = await page.$$eval('.pl-message', (ms) => ms.map((m) => m.textContent));
    assert.equal(messages.length, 2);
    for (const m of messages) {
      assert.match(m, /^pt2e-lens: it unpacks to more than 134,217,728 bytes .*contract limit max_json_bytes/);
      assert.ok(!m.includes('\n') && !m.includes('not valid gzip'), m);
    }
    const heap = await page.evaluate(() => performance.memory?.usedJSHeapSize ?? 0);
    console.log(`bombs refused in ${seconds.toFixed(1)} s (page load included), JS heap ${(heap / 1e6).toFixed(0)} MB`);
    assert.ok(heap < 600e6, `JS heap ${heap}`);
    assert.deepEqual(errors, []);
    await page.close();
  });
});
