// A canvas-drawn pane (> 1,500 boxes) shows what an SVG pane shows, because both paint one box model
// (box-model.ts): the overlay's value as the node's fill on the theme's scale (worst = its first stop, best = its
// last), the heat bar, and a lowered stage's outcome pills, at the pixels the layout gives the node; the canvas
// tooltip carries the same lines as the SVG <title>. Light and dark, at a notebook's width and the side panel's
// (~260 px). Screenshots: tests/ui/artifacts/canvas-paint-*.png.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { synthView } from '../ts/fixtures/synth.mjs';
import { launch } from './browser.mjs';
import { ARTIFACTS, writePage } from './pages.mjs';
import { settled } from './settled.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const N = 1700; // ~1,700 boxes once expanded: just over the canvas threshold

/** The synthetic graph with an SQNR overlay on every block's first conv (block 0 worst, the last best) and an
 * Inductor-like backend field: each first conv runs an int8 kernel, each first batch_norm is folded. */
function heatedView() {
  const v = synthView(N);
  const snap = v.panes[0].snapshot;
  const convs = snap.nodes.filter((n) => /^conv_\d+$/.test(n.id)).map((n) => n.id);
  const values = Object.fromEntries(convs.map((id, i) => [id, 10 + (20 * i) / (convs.length - 1)]));
  v.panes[0].overlay = { name: 'SQNR', unit: 'dB', higher_is_better: true, values };
  const nodes = {};
  for (const id of convs) nodes[id] = { outcome: 'int8', kernel: 'qconv2d_pointwise', reason: null, annotated: true };
  for (const n of snap.nodes)
    if (/^bn_\d+$/.test(n.id)) nodes[n.id] = { outcome: 'folded', kernel: null, reason: 'into conv', annotated: false };
  const counts = { int8: convs.length, folded: Object.keys(nodes).length - convs.length };
  snap.backend = { name: 'inductor', options: {}, nodes, counts };
  return { v, convs };
}

async function open(colorScheme, width) {
  const url = writePage(`canvas-paint-${colorScheme}-${width}.html`, []);
  const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForFunction(() => window.pt2eLens);
  const { v } = heatedView();
  await page.evaluate(async (doc) => {
    const host = document.createElement('div');
    document.body.appendChild(host);
    window.__h = window.pt2eLens.render(host, doc, { height: 560 });
    await window.__h.ready;
  }, v);
  const expand = () => page.locator('button.pl-btn', { hasText: 'Expand all' }).click();
  await settled(page, page.locator('.pl-graph').first(), expand);
  assert.ok(await page.evaluate(() => window.__h.panes[0].canvasView?.draws > 0), 'drawn on the canvas');
  return { page, errors };
}

/** Centre a node, wait for the crisp draw; its box's top-left corner in page px and the zoom. */
async function centre(page, key) {
  await settled(page, page.locator('.pl-graph').first(), () =>
    page.evaluate((k) => {
      const gv = window.__h.panes[0];
      const b = gv.placement.boxes.get(k);
      gv.panZoom.centerOn(b.x, b.y);
    }, key),
  );
  return page.evaluate((k) => {
    const gv = window.__h.panes[0];
    const b = gv.placement.boxes.get(k);
    const r = gv.el.querySelector('.pl-canvas').getBoundingClientRect();
    const t = gv.panZoom.t;
    return { x: r.left + t.x + (b.x - b.w / 2) * t.k, y: r.top + t.y + (b.y - b.h / 2) * t.k, k: t.k, h: b.h };
  }, key);
}

const pixel = (page, x, y) =>
  page.evaluate(
    ([x, y]) => {
      const c = document.querySelector('canvas.pl-raster');
      const r = c.getBoundingClientRect();
      const s = c.width / r.width;
      const d = c.getContext('2d').getImageData(Math.round((x - r.left) * s), Math.round((y - r.top) * s), 1, 1).data;
      return [d[0], d[1], d[2]];
    },
    [x, y],
  );

const cssRgb = (page, name) =>
  page.evaluate((name) => {
    const v = getComputedStyle(document.querySelector('.pl-canvas')).getPropertyValue(name).trim();
    const n = Number.parseInt(/^#([0-9a-f]{6})$/i.exec(v)[1], 16);
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  }, name);

/** hsl(h 72% l) as rgb (the heat bar's colour at the theme's --pl-heat-l). */
function hslRgb(h, s, l) {
  const a = s * Math.min(l, 1 - l);
  const f = (n) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

const near = (a, b, tol = 8) => a.every((x, i) => Math.abs(x - b[i]) <= tol);

describe('canvas renderer paints the box model', () => {
  for (const [scheme, width] of [
    ['light', 1200],
    ['dark', 1200],
    ['light', 260],
    ['dark', 260],
  ]) {
    it(`heat fill, heat bar and outcome pills at the node's pixels (${scheme}, ${width} px)`, async () => {
      const { page, errors } = await open(scheme, width);
      assert.equal(await page.evaluate(() => window.__h.panes[0].canvasMode), true);
      const { convs } = heatedView();
      const worst = convs[0];
      const best = convs[convs.length - 1];
      const heatL = Number.parseFloat(
        await page.evaluate(() =>
          getComputedStyle(document.querySelector('.pl-canvas')).getPropertyValue('--pl-heat-l'),
        ),
      );
      for (const [id, stop, hue] of [
        [worst, '--pl-heat-0', 0],
        [best, '--pl-heat-2', 120],
      ]) {
        const b = await centre(page, `n:${id}`);
        // inside the box, clear of the bar and the centred label: the overlay's fill
        const fill = await pixel(page, b.x + 14 * b.k, b.y + 7 * b.k);
        assert.ok(near(fill, await cssRgb(page, stop)), `${id} fill ${fill} ≠ ${stop}`);
        const bar = await pixel(page, b.x + 3.5 * b.k, b.y + (b.h / 2) * b.k);
        assert.ok(near(bar, hslRgb(hue, 0.72, heatL / 100), 14), `${id} bar ${bar}`);
        // the outcome pill at the bottom-left corner, in the int8 colour
        const pill = await pixel(page, b.x + 6 * b.k, b.y + (b.h + 2) * b.k);
        assert.ok(near(pill, await cssRgb(page, '--pl-int')), `${id} pill ${pill}`);
      }
      await page.screenshot({ path: join(ARTIFACTS, `canvas-paint-${scheme}-${width}.png`) });
      // a node without a value keeps its role fill; a folded batch_norm carries the folded pill
      const bn = await centre(page, 'n:bn_0');
      assert.ok(near(await pixel(page, bn.x + 14 * bn.k, bn.y + 7 * bn.k), await cssRgb(page, '--pl-compute-fill')));
      const pill = await pixel(page, bn.x + 6 * bn.k, bn.y + (bn.h + 2) * bn.k);
      assert.ok(near(pill, await cssRgb(page, '--pl-muted')), `bn_0 pill ${pill}`);
      // the tooltip is the SVG path's: overlay value and backend outcome lines included
      const cx = bn.x + 40 * bn.k;
      await page.mouse.move(cx, bn.y + 20 * bn.k);
      await page.waitForFunction(() => document.querySelector('canvas.pl-raster').title.startsWith('bn_0: '));
      const tip = await page.locator('canvas.pl-raster').getAttribute('title');
      assert.match(tip, /into conv/);
      const w = await centre(page, `n:${worst}`);
      await page.mouse.move(w.x + 40 * w.k, w.y + 20 * w.k);
      await page.waitForFunction((id) => document.querySelector('canvas.pl-raster').title.startsWith(`${id}: `), worst);
      const wt = await page.locator('canvas.pl-raster').getAttribute('title');
      assert.match(wt, /SQNR: 10\.00 dB/);
      assert.match(wt, /qconv2d_pointwise/);
      assert.deepEqual(errors, []);
      await page.close();
    });
  }
});
