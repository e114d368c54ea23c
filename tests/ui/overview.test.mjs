// Issue 15 point 6, the overview of a big graph, in chromium (static report), light at notebook width and dark at
// the side panel's 260 px: a chain of 250 residual blocks opens readable (Fit stays at a readable scale) with a
// minimap of the chain's shape; zoomed far out every group title drawn is 11 px on screen on its plate, none
// overlapping (semantic zoom, SVG); Expand all is there at every size and its canvas scene labels its groups the
// same way. Screenshots: artifacts/overview-*.png.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { synthView } from '../ts/fixtures/synth.mjs';
import { launch } from './browser.mjs';
import { ARTIFACTS, openReady, writePage } from './pages.mjs';
import { settled } from './settled.mjs';

const BLOCKS = 250;
let browser;
let url;
before(async () => {
  browser = await launch();
  // synth.mjs: ~11 nodes per block under layers.<i>
  url = writePage('overview.html', [synthView(BLOCKS * 11)]);
});
after(async () => {
  await browser?.close();
});

const shot = (page, name) => page.screenshot({ path: join(ARTIFACTS, `overview-${name}.png`) });
const scale = (page) =>
  page.$eval('.pl-viewport', (g) => Number(/scale\(([\d.e-]+)\)/.exec(g.getAttribute('transform'))[1]));

const pane = (page) => page.locator('.pl-graph').first();

/** Ctrl+wheel over the graph `n` times (zoom out), each step settled (on the canvas: its crisp draw done). */
async function zoomOut(page, n) {
  const box = await page.locator('.pl-canvas').first().boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 3);
  for (let i = 0; i < n; i++) {
    await page.keyboard.down('Control');
    await settled(page, pane(page), () => page.mouse.wheel(0, 300));
    await page.keyboard.up('Control');
  }
}

/** The SVG zoom labels on screen: text heights (px) and whether any two plates overlap. */
const svgLabels = (page) =>
  page.evaluate(() => {
    const ls = [...document.querySelectorAll('.pl-zlabel')];
    const rs = ls.map((l) => l.querySelector('rect').getBoundingClientRect());
    let overlap = 0;
    for (let i = 0; i < rs.length; i++)
      for (let j = i + 1; j < rs.length; j++) {
        const [a, b] = [rs[i], rs[j]];
        if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5)
          overlap++;
      }
    const px = ls.map((l) => Number.parseFloat(getComputedStyle(l.querySelector('text')).fontSize));
    return {
      n: ls.length,
      overlap,
      px,
      texts: ls.map((l) => l.textContent),
      zoomed: !!document.querySelector('svg.pl-zoomed'),
    };
  });

describe('the overview of a chain of 250 blocks', () => {
  for (const [scheme, width] of [
    ['light', 1300],
    ['dark', 260],
  ]) {
    it(`${scheme} at ${width} px: readable Fit, minimap, semantic zoom in SVG and canvas, Expand all`, async () => {
      const { page, errors } = await openReady(browser, url, { width, colorScheme: scheme });
      await settled(page, pane(page), () => page.locator('.pl-group[data-group="layers"]').click());
      assert.ok((await page.locator('.pl-group.pl-collapsed').count()) >= BLOCKS, 'layers open: its blocks closed');
      await settled(page, pane(page), () => page.locator('button.pl-btn', { hasText: /^Fit$/ }).click());
      const k = await scale(page);
      assert.ok(k >= 0.75, `Fit keeps the chain readable (scale ${k})`);
      // the chain is far taller than the pane: the minimap is there (folded at the panel's width to a toolbar
      // button, so nothing sits over the zoomed-out titles)
      if (width < 480) {
        assert.equal(await page.locator('.pl-toolbar .pl-minimap-toggle').isVisible(), true);
        assert.equal(await page.locator('.pl-canvas .pl-minimap-toggle').count(), 0);
      } else assert.equal(await page.locator('.pl-minimap canvas').isVisible(), true);
      // at Fit a group title is ≥ 11 px on screen: its own (12 px × scale) or, below that, a zoom label
      const atFit = await svgLabels(page);
      if (12 * k >= 11) assert.equal(atFit.n, 0, 'no zoom labels while the titles are readable');
      else for (const px of atFit.px) assert.ok(Math.abs(px * k - 11) < 0.05);
      await shot(page, `fit-${scheme}-${width}`);

      await zoomOut(page, 8);
      const far = await scale(page);
      assert.ok(far < 0.15, `zoomed far out (scale ${far})`);
      const l = await svgLabels(page);
      assert.equal(l.zoomed, true);
      assert.ok(l.n >= 10, `group titles drawn zoomed out: ${l.n}`);
      for (const px of l.px) assert.ok(Math.abs(px * far - 11) < 0.05, `11 px on screen, got ${px * far}`);
      assert.equal(l.overlap, 0, 'no title covers another');
      assert.ok(
        l.texts.some((t) => /⊞ \d+ · \w*Block/.test(t)),
        l.texts.slice(0, 5).join('|'),
      );
      await shot(page, `zoomed-out-${scheme}-${width}`);

      // Expand all at any size: its scene is on the canvas, and zoomed out its groups are labelled there too
      await settled(page, pane(page), () => page.locator('button.pl-btn', { hasText: 'Expand all' }).click());
      assert.ok(await page.evaluate(() => document.querySelector('canvas.pl-raster')?.offsetParent), 'on the canvas');
      await zoomOut(page, 6);
      const cv = await page.evaluate(() => {
        const c = document.querySelector('canvas.pl-raster');
        return { nodes: Number(c.getAttribute('data-nodes')), labels: Number(c.getAttribute('data-zoom-labels')) };
      });
      assert.ok(cv.nodes > BLOCKS * 10, `everything open: ${cv.nodes} nodes drawn`);
      assert.ok(cv.labels >= 5, `the canvas labels its groups zoomed out: ${cv.labels}`);
      await shot(page, `canvas-zoomed-out-${scheme}-${width}`);
      assert.deepEqual(errors, []);
      await page.close();
    });
  }
});
