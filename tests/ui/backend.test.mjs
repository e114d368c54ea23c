// The backend overlay of a lowered stage in a real browser: a real Inductor lowering (real_lowered.json,
// made by tests/ts/fixtures/make_lowered.py) draws one outcome mark per node the backend field names, the
// legend counts them, and a hostile kernel name stays text. Screenshots in both themes, at a notebook's width
// and at the side panel's (~280 px): tests/ui/artifacts/backend-*.png.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { launch } from './browser.mjs';
import { ARTIFACTS, fixture, openReady, writePage } from './pages.mjs';

const HOSTILE = '<img src=x onerror="window.__pwned=1">qconv';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const open = (url, colorScheme, width) => openReady(browser, url, { width, height: 800, colorScheme, timeout: 120000 });

/** The real lowered view with one kernel name made hostile (what a custom backend could write). */
function hostileLowered() {
  const v = fixture('real_lowered.json');
  const b = v.panes[0].snapshot.backend;
  const first = Object.keys(b.nodes).find((k) => b.nodes[k].outcome === 'int8');
  b.nodes[first].kernel = HOSTILE;
  return { v, first };
}

describe('backend overlay, in the browser', () => {
  for (const scheme of ['light', 'dark']) {
    for (const width of [1300, 280]) {
      it(`draws every outcome of a real Inductor lowering (${scheme}, ${width} px)`, async () => {
        const { v, first } = hostileLowered();
        const url = writePage(`backend-${scheme}-${width}.html`, [v]);
        const { page, errors } = await open(url, scheme, width);
        const b = v.panes[0].snapshot.backend;
        // every node drawn on its own (not inside a closed group) that has an outcome carries its mark
        const drawn = await page.$$eval('.pl-node[data-id]', (els) =>
          els.map((e) => [e.getAttribute('data-id'), e.querySelector('.pl-outcome')?.getAttribute('data-outcome')]),
        );
        assert.ok(drawn.length > 0);
        for (const [id, outcome] of drawn) assert.equal(outcome ?? null, b.nodes[id]?.outcome ?? null, id);
        assert.equal(await page.$$eval('img', (els) => els.length), 0);
        assert.equal(await page.evaluate(() => window.__pwned), undefined);
        if (drawn.some(([id]) => id === first)) {
          const tip = await page.$eval(`[data-id="${first}"] .pl-outcome title`, (e) => e.textContent);
          assert.ok(tip.includes(HOSTILE), tip);
        }
        const legend = await page.$eval('.pl-backend-legend', (e) => e.textContent);
        assert.ok(legend.includes(`int8 kernel ${b.counts.int8}`), legend);
        await page.screenshot({ path: join(ARTIFACTS, `backend-${scheme}-${width}.png`), fullPage: width < 400 });
        assert.deepEqual(errors, []);
        await page.close();
      });
    }
  }
});
