// The packed transport in a real browser, the static report bundle: a `gzip+base64` envelope (the plain
// encoding, made here with node's zlib) draws with an exact-match SQNR shown as ∞; a damaged envelope is one line
// where the graph would be; a 0.1 plain View next to them still draws. Light and dark screenshots.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { launch } from './browser.mjs';
import { ARTIFACTS, packedEnvelope as envelope, fixture, writePage } from './pages.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

describe('packed outputs on a static page', () => {
  it('draw like plain ones; a damaged one is one line; ∞ reads as ∞ (light and dark)', async () => {
    const accuracy = fixture('accuracy.json');
    accuracy.panes[0].overlay.values.add = 'Infinity'; // an exact match, as pl.accuracy writes it
    const damaged = { ...envelope(accuracy), data: 'H4sIAAAAdamaged' };
    const url = writePage('packed-outputs.html', [envelope(accuracy), damaged, fixture('conv_prepared.json')]);
    for (const scheme of ['light', 'dark']) {
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 }, colorScheme: scheme });
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(url);
      await page.waitForFunction(
        () => {
          const states = [...document.querySelectorAll('.pt2e-lens')].map((r) => r.getAttribute('data-state'));
          return states.length === 3 && !states.includes('loading');
        },
        null,
        { timeout: 60000 },
      );
      const states = await page.$$eval('.pt2e-lens', (rs) => rs.map((r) => r.getAttribute('data-state')));
      assert.deepEqual(states, ['ready', 'error', 'ready']);
      const roots = page.locator('.pt2e-lens');
      assert.equal(await roots.nth(0).locator('.pl-node').count(), accuracy.panes[0].snapshot.nodes.length);
      assert.equal(
        await roots.nth(2).locator('.pl-node').count(),
        fixture('conv_prepared.json').panes[0].snapshot.nodes.length,
      );
      const message = await roots.nth(1).locator('.pl-message').textContent();
      assert.equal(message, 'pt2e-lens: a damaged packed View (its data is not valid gzip); re-run the cell');
      // select it as a click does (the node may sit below the canvas' fold)
      await roots
        .nth(0)
        .locator('.pl-node[data-id="add"]')
        .evaluate((n) => n.dispatchEvent(new MouseEvent('click', { bubbles: true })));
      assert.match(await roots.nth(0).locator('.pl-details').textContent(), /SQNR∞ dB/);
      await page.screenshot({ path: join(ARTIFACTS, `packed-outputs-${scheme}.png`), fullPage: true });
      assert.deepEqual(errors, []);
      await page.close();
    }
  });
});
