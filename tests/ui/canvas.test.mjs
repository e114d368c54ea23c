// The canvas renderer of large scenes in chromium: a synthetic graph expanded all is drawn on a canvas (pixels
// in the role colours where the layout put the nodes), a click on a node opens its details, a click on an open
// group's title closes it and a click on the closed group opens it again, the minimap moves the view, the wheel
// rule holds. Screenshots in light and dark, at normal and at the side panel's ~250 px width:
// tests/ui/artifacts/canvas-*.png.

import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { synthView } from '../ts/fixtures/synth.mjs';
import { launch } from './browser.mjs';
import { ARTIFACTS, fixture, writePage } from './pages.mjs';
import { idle, settled } from './settled.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const N = 3000; // above the canvas threshold once expanded, small enough for a busy machine

/** A page with the report bundle and no output; the test renders the view itself and keeps the handle. */
async function open({ width = 1200, colorScheme = 'light', outWidth = null, doc = null, name = 'canvas.html' } = {}) {
  const url = writePage(name, [], outWidth ? `<style>.out{width:${outWidth}px}</style>` : '');
  const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForFunction(() => window.pt2eLens);
  await page.evaluate(async (doc) => {
    const host = document.createElement('div');
    host.className = 'out';
    document.body.appendChild(host);
    window.__h = window.pt2eLens.render(host, doc, { height: 560 });
    await window.__h.ready;
  }, doc ?? synthView(N));
  return { page, errors };
}

/** Expand all through the toolbar button, as a user does; wait until the canvas has drawn. */
async function expandAll(page) {
  await settled(page, pane(page), () => page.locator('button.pl-btn', { hasText: 'Expand all' }).click());
  assert.ok(await page.evaluate(() => window.__h.panes[0].canvasView?.draws > 0), 'drawn on the canvas');
}

/** Screen position (page px) of a layout point in pane 0. */
const screenOf = (page, key, dx = 0, dy = 0) =>
  page.evaluate(
    ([key, dx, dy]) => {
      const gv = window.__h.panes[0];
      const b = gv.placement.boxes.get(key);
      const r = gv.el.querySelector('.pl-canvas').getBoundingClientRect();
      const t = gv.panZoom.t;
      return [r.left + t.x + (b.x + dx) * t.k, r.top + t.y + (b.y + dy) * t.k];
    },
    [key, dx, dy],
  );

/** the first pane (its ready signal: settled.mjs) */
const pane = (page) => page.locator('.pl-graph').first();

/** Wait for the crisp draw after a move or a change already begun (the pane is busy until it is on screen; the
 * raster is only transformed meanwhile). */
const drawn = (page) => idle(page, pane(page));

/** Centre the first pane on a box (by key) and wait for its crisp draw. */
async function centerOnBox(page, key) {
  await page.evaluate((k) => {
    const gv = window.__h.panes[0];
    const b = gv.placement.boxes.get(k);
    gv.panZoom.centerOn(b.x, b.y);
  }, key);
  await drawn(page);
}

/** RGB of a canvas pixel at page px (x, y), and a CSS variable's colour as rgb. */
const pixel = (page, x, y) =>
  page.evaluate(
    ([x, y]) => {
      const c = document.querySelector('canvas.pl-raster');
      const r = c.getBoundingClientRect();
      const k = c.width / r.width;
      const d = c.getContext('2d').getImageData(Math.round((x - r.left) * k), Math.round((y - r.top) * k), 1, 1).data;
      return [d[0], d[1], d[2], d[3]];
    },
    [x, y],
  );
const cssRgb = (page, name) =>
  page.evaluate((name) => {
    const v = getComputedStyle(document.querySelector('.pl-canvas')).getPropertyValue(name).trim();
    const m = /^#([0-9a-f]{6})$/i.exec(v);
    const n = Number.parseInt(m[1], 16);
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  }, name);
const near = (a, b, tol = 6) => a.slice(0, 3).every((x, i) => Math.abs(x - b[i]) <= tol);

const shot = (page, name) => page.screenshot({ path: join(ARTIFACTS, `canvas-${name}.png`), fullPage: true });

/** Click Export "SVG" and read the file (kept in the artifacts as canvas-export-<name>.svg). */
async function exportSvg(page, name) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('button[data-export="svg"]')]);
  assert.equal(dl.suggestedFilename(), 'pt2e-lens.svg');
  const text = readFileSync(await dl.path(), 'utf8');
  writeFileSync(join(ARTIFACTS, `canvas-export-${name}.svg`), text);
  assert.ok(!text.includes('var(--pl-'), 'colours resolved');
  return text;
}

/** Export "SVG" of the canvas-drawn view: a real SVG (it parses) of the current view: a box per node in view, with
 * its label and its fill in the theme's colour (`fill`: the compute fill as the page resolves it), and none of the
 * boxes far out of view. */
async function checkViewSvg(page, fill, name) {
  const text = await exportSvg(page, name);
  const got = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    const gv = window.__h.panes[0];
    const r = gv.el.querySelector('.pl-canvas').getBoundingClientRect();
    const t = gv.panZoom.t;
    const inView = [];
    let far = 0;
    for (const b of gv.placement.boxes.values()) {
      if (b.kind !== 'node') continue;
      const [x, y] = [t.x + b.x * t.k, t.y + b.y * t.k];
      if (x > 0 && x < r.width && y > 0 && y < r.height) inView.push(gv.facts.nodes.get(b.id).target);
      else if (x < -r.width || x > 2 * r.width || y < -r.height || y > 2 * r.height) far++;
    }
    // the boxes' fills: <rect>s of class pl-box, the colour on them or on their <g>
    const fillOf = (e) => e.getAttribute('fill') ?? e.parentElement.getAttribute('fill');
    const boxes = [...doc.querySelectorAll('.pl-box')].flatMap((e) => (e.tagName === 'g' ? [...e.children] : [e]));
    const filled = boxes.filter((e) => fillOf(e) !== 'none');
    return {
      error: doc.querySelector('parsererror')?.textContent ?? null,
      nodes: filled.length,
      texts: [...doc.querySelectorAll('text.pl-label')].map((x) => x.textContent),
      fills: filled.map(fillOf),
      inView,
      far,
    };
  }, text);
  assert.equal(got.error, null);
  assert.ok(got.inView.length > 3 && got.far > 100, `${got.inView.length} nodes in view, ${got.far} far out`);
  assert.ok(got.nodes >= got.inView.length && got.nodes < got.inView.length + got.far, `${got.nodes} boxes`);
  for (const label of got.inView)
    assert.ok(
      got.texts.some((x) => label.startsWith(x.replace(/…$/, ''))),
      label,
    );
  const hex = (c) => `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
  assert.ok(got.fills.map((f) => f.toLowerCase()).includes(hex(fill)), `a compute fill ${hex(fill)}`);
}

describe('canvas renderer (large scenes)', () => {
  it('expand all draws on a canvas; click a node → its details; group title/closed group toggle; minimap', async () => {
    const { page, errors } = await open();
    // collapsed at first: few boxes, drawn in SVG
    assert.equal(await page.evaluate(() => window.__h.panes[0].canvasMode), false);
    await expandAll(page);
    const info = await page.evaluate(() => {
      const gv = window.__h.panes[0];
      const c = gv.el.querySelector('canvas.pl-raster');
      return {
        mode: gv.canvasMode,
        svgShown: getComputedStyle(gv.el.querySelector('.pl-canvas svg')).display !== 'none',
        // the live SVG only: the hidden overview picture (svg.pl-overview, for saved outputs) has its own nodes
        svgNodes: gv.el.querySelectorAll('.pl-canvas > svg:not(.pl-overview) .pl-node').length,
        drawn: Number(c.getAttribute('data-nodes')),
        placed: [...gv.placement.boxes.values()].filter((b) => b.kind === 'node').length,
        label: c.getAttribute('aria-label'),
        map: !!gv.el.querySelector('.pl-minimap canvas'),
      };
    });
    assert.equal(info.mode, true);
    assert.equal(info.svgShown, false);
    assert.equal(info.svgNodes, 0);
    assert.equal(info.drawn, N + 2);
    assert.equal(info.placed, N + 2);
    assert.match(info.label, new RegExp(`${N + 2}`));
    assert.ok(info.map);
    await shot(page, 'all-light');

    // bring a known node into view at a readable scale, then click it as a user would
    await centerOnBox(page, 'n:conv_7');
    // the node is drawn where the layout put it, in the compute role's fill
    const [fx, fy] = await screenOf(page, 'n:conv_7', -30, 14);
    assert.ok(near(await pixel(page, fx, fy), await cssRgb(page, '--pl-compute-fill')), 'compute fill at conv_7');
    // a pan step moves the cached raster with the view before any crisp redraw
    const drawsBefore = await page.evaluate(() => window.__h.panes[0].canvasView.draws);
    await page.evaluate(() => {
      const pz = window.__h.panes[0].panZoom;
      pz.t.x += 60;
      pz.t.y += 30;
      pz.apply();
    });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const [gx, gy] = await screenOf(page, 'n:conv_7', -30, 14);
    const rasterFrame = (await page.evaluate(() => window.__h.panes[0].canvasView.draws)) === drawsBefore;
    assert.ok(
      near(await pixel(page, gx, gy), await cssRgb(page, '--pl-compute-fill')),
      `moved (raster: ${rasterFrame})`,
    );
    await drawn(page);
    const [x, y] = await screenOf(page, 'n:conv_7');
    await page.mouse.click(x, y);
    await page.waitForSelector('.pl-drawer:not([hidden])');
    assert.match(await page.locator('.pl-drawer h4').first().textContent(), /^conv_7 — /);
    assert.equal(await page.evaluate(() => window.__h.panes[0].selected), 'conv_7');
    await drawn(page);
    await shot(page, 'select-light');
    await page.locator('.pl-drawer-close').click();
    assert.equal(await page.locator('canvas.pl-raster').getAttribute('title'), '');
    // hover: the tooltip names the node under the pointer
    await page.mouse.move(x + 1, y + 1);
    await page.waitForFunction(() => document.querySelector('canvas.pl-raster').title.startsWith('conv_7: '));
    assert.match(await page.locator('canvas.pl-raster').getAttribute('title'), /^conv_7: aten\.conv2d\.default/);

    // a search hit is outlined in the match colour (the SVG path's .pl-match stroke)
    await settled(page, pane(page), () => page.locator('.pl-toolbar input[type="search"]').fill('bn_7'));
    assert.ok(
      await page.evaluate(() => window.__h.panes[0].el.querySelector('.pl-results')?.textContent.includes('bn_7')),
    );
    const half = await page.evaluate(() => window.__h.panes[0].placement.boxes.get('n:bn_7').w / 2);
    const [ex, ey] = await screenOf(page, 'n:bn_7', -half, 0);
    assert.ok(near(await pixel(page, ex, ey), await cssRgb(page, '--pl-match'), 40), 'match outline on bn_7');
    // cleared: the results bar above the canvas goes (the canvas moves up), so positions are read after that
    await settled(page, pane(page), () => page.locator('.pl-toolbar input[type="search"]').fill(''));

    // the open block's title band closes it; a click on the closed block opens it again
    const block = await page.evaluate(() => window.__h.panes[0].hier.parentOf.get('add_7').key);
    const [hx, hy] = await screenOf(page, `g:${block}`);
    const top = await page.evaluate((k) => {
      const b = window.__h.panes[0].placement.boxes.get(k);
      return b.h / 2 - 8;
    }, `g:${block}`);
    const k = await page.evaluate(() => window.__h.panes[0].panZoom.t.k);
    await page.mouse.click(hx, hy - top * k);
    await page.waitForFunction(
      (key) => window.__h.panes[0].placement.boxes.get(`g:${key}`)?.kind === 'collapsed',
      block,
    );
    assert.equal(await page.evaluate(() => window.__h.panes[0].canvasMode), true);
    await drawn(page);
    const [cx, cy] = await screenOf(page, `g:${block}`);
    await page.mouse.click(cx, cy);
    await page.waitForFunction(
      (key) => window.__h.panes[0].placement.boxes.get(`g:${key}`)?.kind === 'expanded',
      block,
    );

    // the minimap: a click centres the view on that point of the layout
    const map = await page.locator('.pl-minimap canvas').boundingBox();
    await page.mouse.click(map.x + map.width * 0.5, map.y + map.height * 0.8);
    const moved = await page.evaluate(() => {
      const gv = window.__h.panes[0];
      const r = gv.el.querySelector('.pl-canvas').getBoundingClientRect();
      const t = gv.panZoom.t;
      // the layout point now at the view's centre, as a fraction of the layout
      return [(r.width / 2 - t.x) / t.k / gv.placement.width, (r.height / 2 - t.y) / t.k / gv.placement.height];
    });
    assert.ok(Math.abs(moved[1] - 0.8) < 0.08, `centre at ${moved}`);
    assert.ok(Math.abs(moved[0] - 0.5) < 0.3, `centre at ${moved}`);

    // the wheel without a modifier, before a click into the graph, scrolls the page: no zoom
    await page.mouse.move(10, 10);
    await page.mouse.click(5, 880); // outside the graph: not active
    const k0 = await page.evaluate(() => window.__h.panes[0].panZoom.t.k);
    const area = await page.locator('.pl-canvas').boundingBox();
    await page.mouse.move(area.x + area.width / 2, area.y + area.height / 2);
    await page.mouse.wheel(0, -200);
    // the handler has run once it shows its hint ("Ctrl + wheel to zoom"): it would have zoomed by then
    await page.locator('.pl-hint.pl-show').first().waitFor();
    assert.equal(await page.evaluate(() => window.__h.panes[0].panZoom.t.k), k0);
    await page.keyboard.down('Control');
    await settled(page, pane(page), () => page.mouse.wheel(0, -200));
    await page.keyboard.up('Control');
    assert.ok((await page.evaluate(() => window.__h.panes[0].panZoom.t.k)) > k0);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('themes and the side panel width: dark colours on the canvas; the minimap stays out of the way at 250 px', async () => {
    for (const scheme of ['light', 'dark']) {
      for (const [name, outWidth] of [
        ['normal', null],
        ['250', 250],
      ]) {
        const { page, errors } = await open({ colorScheme: scheme, width: outWidth ? 600 : 1200, outWidth });
        await expandAll(page);
        await centerOnBox(page, 'n:bn_2');
        const [fx, fy] = await screenOf(page, 'n:bn_2', -30, 14);
        const want = await cssRgb(page, '--pl-compute-fill');
        assert.ok(near(await pixel(page, fx, fy), want), `${scheme}: compute fill ${want}`);
        await checkViewSvg(page, want, `${name}-${scheme}`);
        if (!outWidth) {
          // the host switches theme (data-pl-theme on the view's root): the canvas redraws in the other palette
          const other = scheme === 'light' ? 'dark' : 'light';
          await page.evaluate((t) => document.querySelector('.pt2e-lens').setAttribute('data-pl-theme', t), other);
          await drawn(page);
          const switched = await cssRgb(page, '--pl-compute-fill');
          assert.notDeepEqual(switched, want);
          assert.ok(near(await pixel(page, fx, fy), switched), `${scheme} → ${other}: compute fill ${switched}`);
          await page.evaluate(() => document.querySelector('.pt2e-lens').removeAttribute('data-pl-theme'));
          await drawn(page);
        }
        if (outWidth) {
          // collapsed: nothing of it over the drawing, its toggle in the toolbar
          assert.equal(await page.locator('.pl-canvas .pl-minimap-toggle').count(), 0);
          assert.equal(await page.locator('.pl-toolbar .pl-minimap-toggle').isVisible(), true);
          assert.equal(await page.locator('.pl-minimap canvas').isVisible(), false);
        } else assert.equal(await page.locator('.pl-minimap canvas').isVisible(), true);
        await shot(page, `${name}-${scheme}`);
        assert.deepEqual(errors, []);
        await page.close();
      }
    }
  });
});

describe('canvas renderer draws what SVG draws', () => {
  it('a quantized graph with an overlay: SVG and canvas side by side, open and closed (badges)', async () => {
    for (const scheme of ['light', 'dark']) {
      const { page, errors } = await open({
        colorScheme: scheme,
        doc: fixture('real_large.json'),
        name: 'canvas-real.html',
      });
      await page.evaluate(async () => {
        const gv = window.__h.panes[0];
        gv.expanded = new Set(gv.hier.groups.keys());
        await gv.redraw();
      });
      assert.equal(await page.evaluate(() => window.__h.panes[0].canvasMode), false);
      // where int8 tensors flow: the target of the first int edge, at 1:1
      await page.evaluate(() => {
        const gv = window.__h.panes[0];
        const id = gv.el.querySelector('.pl-edge.pl-int').getAttribute('data-dst');
        const b = gv.placement.boxes.get(`n:${id}`);
        gv.panZoom.t.k = 1;
        gv.panZoom.centerOn(b.x, b.y);
      });
      await shot(page, `real-svg-${scheme}`);
      // the same scene, transform and selection through the canvas
      const counts = await page.evaluate(async () => {
        const gv = window.__h.panes[0];
        const svgInt = gv.el.querySelectorAll('.pl-edge.pl-int').length;
        gv.canvasThreshold = 0;
        const t = { ...gv.panZoom.t };
        await gv.redraw();
        gv.panZoom.t = t;
        gv.panZoom.apply();
        return { svgInt };
      });
      assert.ok(counts.svgInt > 0, 'the fixture has int8 edges');
      assert.equal(await page.evaluate(() => window.__h.panes[0].canvasMode), true);
      await drawn(page);
      await shot(page, `real-canvas-${scheme}`);
      // closed groups carry their badges on the canvas too
      await settled(page, pane(page), () => page.locator('button.pl-btn', { hasText: 'Collapse all' }).click());
      await shot(page, `real-canvas-closed-${scheme}`);
      assert.deepEqual(errors, []);
      await page.close();
    }
  });
});

describe('Export SVG of a canvas-drawn real graph', () => {
  it('holds arrowheads, edge labels, chips, heat fills and the selection outline as the canvas shows them', async () => {
    const HOSTILE = '<img src=x onerror=window.__pwned=1>';
    for (const scheme of ['light', 'dark']) {
      // a real graph with its accuracy overlay (the heat mode), the backend outcome pills of its lowered twin (the
      // same nodes), a note and a hostile module name
      const doc = fixture('real_accuracy.json');
      const snap = doc.panes[0].snapshot;
      snap.backend = fixture('real_lowered.json').panes[0].snapshot.backend;
      snap.nodes.find((n) => n.id === 'relu').target = HOSTILE;
      doc.notes[0] = { add: `${HOSTILE} residual` };
      const { page, errors } = await open({ colorScheme: scheme, doc, name: 'canvas-export-real.html' });
      await page.evaluate(async () => {
        const gv = window.__h.panes[0];
        gv.canvasThreshold = 0;
        gv.expanded = new Set(gv.hier.groups.keys());
        await gv.redraw();
        await gv.select('conv2d_1');
        const b = gv.placement.boxes.get('n:conv2d_1');
        gv.panZoom.t.k = 1;
        gv.panZoom.centerOn(b.x, b.y);
      });
      assert.equal(await page.evaluate(() => window.__h.panes[0].canvasMode), true);
      await drawn(page);
      await shot(page, `export-real-view-${scheme}`);
      const text = await exportSvg(page, `real-${scheme}`);
      const got = await page.evaluate((text) => {
        const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
        const gv = window.__h.panes[0];
        const cs = getComputedStyle(gv.el.querySelector('.pl-canvas'));
        const hex = (v) => cs.getPropertyValue(v).trim().toLowerCase();
        const attr = (e, a) => e.getAttribute(a) ?? e.parentElement?.getAttribute(a) ?? null;
        const all = (sel) => [...doc.querySelectorAll(sel)].flatMap((e) => (e.tagName === 'g' ? [...e.children] : [e]));
        // the SVG's rectangle exactly where a box is (x, y of its corner)
        const at = (sel, key, want) => {
          const b = gv.placement.boxes.get(key);
          return all(sel).find(
            (r) =>
              Math.abs(Number(r.getAttribute('x')) - (b.x - b.w / 2)) < 0.05 &&
              Math.abs(Number(r.getAttribute('y')) - (b.y - b.h / 2)) < 0.05 &&
              want(r),
          );
        };
        const heated = at('.pl-box', 'n:conv2d_1', (r) => attr(r, 'fill') !== 'none');
        const sel = at('.pl-mark', 'n:conv2d_1', () => true);
        const t = gv.panZoom.t;
        const b = gv.placement.boxes.get('n:conv2d_1');
        return {
          error: doc.querySelector('parsererror')?.textContent ?? null,
          elements: [...doc.querySelectorAll('*')].map((e) => e.tagName),
          arrows: all('path.pl-arrow').map((e) => [attr(e, 'fill'), (e.getAttribute('d').match(/Z/g) ?? []).length]),
          edgeColors: [hex('--pl-edge'), hex('--pl-int')],
          edgeLabels: all('text.pl-edge-label').map((e) => [e.textContent, e.getAttribute('fill')]),
          int: hex('--pl-int'),
          chips: all('text.pl-chip').map((e) => e.textContent),
          chipFills: all('rect.pl-chip').map((e) => attr(e, 'fill')),
          heatBars: all('rect.pl-heat').length,
          heatedFill: heated ? attr(heated, 'fill') : null,
          // the canvas pixel inside conv2d_1, off its texts and heat bar
          probe: [t.x + (b.x + b.w / 2 - 5) * t.k, t.y + (b.y + 2) * t.k],
          selStroke: sel ? [attr(sel, 'stroke'), attr(sel, 'stroke-width'), attr(sel, 'stroke-dasharray')] : null,
          selected: hex('--pl-selected'),
          labels: all('text.pl-label').map((e) => e.textContent),
          callout: all('text.pl-callout').map((e) => e.textContent),
          bg: attr(doc.querySelector('rect.pl-bg'), 'fill'),
          canvasBg: hex('--pl-canvas'),
        };
      }, text);
      assert.equal(got.error, null);
      assert.ok(!got.elements.includes('img') && !got.elements.includes('script'), 'no element made of a name');
      assert.equal(await page.evaluate(() => window.__pwned ?? null), null);
      // arrowheads: closed triangles in the edge colours, one per edge end in view
      assert.ok(got.arrows.reduce((n, [, k]) => n + k, 0) >= 5, JSON.stringify(got.arrows));
      assert.ok(
        got.arrows.some(([c]) => got.edgeColors.includes(c)),
        `${JSON.stringify(got.arrows)} vs ${got.edgeColors}`,
      );
      assert.ok(
        got.edgeLabels.some(([l, c]) => /int8/.test(l) && c === got.int),
        JSON.stringify(got.edgeLabels),
      );
      assert.ok(got.chips.length >= 3 && got.chipFills.every((c) => c && c !== 'none'), JSON.stringify(got.chips));
      assert.ok(got.heatBars >= 1, 'heat bars');
      // the heated box's fill is the colour the canvas shows there
      const [px, py] = got.probe;
      const box = await page.locator('.pl-canvas').boundingBox();
      const onScreen = await pixel(page, box.x + px, box.y + py);
      const rgb = (h) => [1, 3, 5].map((i) => Number.parseInt(h.slice(i, i + 2), 16));
      assert.ok(got.heatedFill && near(onScreen, rgb(got.heatedFill), 8), `${got.heatedFill} vs canvas ${onScreen}`);
      assert.deepEqual(got.selStroke, [got.selected, '3.5', null], 'selection outline');
      assert.ok(
        got.labels.some((l) => l.startsWith('<img src=x')),
        'the hostile name is a label',
      );
      assert.ok(
        got.callout.some((l) => l.includes('<img src=x')),
        'and the note is text',
      );
      assert.equal(got.bg, got.canvasBg);
      // the file as an SVG reader shows it, next to the canvas view it came from
      const viewer = await browser.newPage({ viewport: { width: 1200, height: 600 }, colorScheme: scheme });
      await viewer.goto(`file://${join(ARTIFACTS, `canvas-export-real-${scheme}.svg`)}`);
      await viewer.screenshot({ path: join(ARTIFACTS, `canvas-export-real-file-${scheme}.png`) });
      await viewer.close();
      assert.deepEqual(errors, []);
      await page.close();
    }
  });
});

describe('canvas renderer in a compare view', () => {
  it('hovering a node on one canvas pane marks its counterparts on the other', async () => {
    const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(writePage('canvas-compare.html', []));
    await page.waitForFunction(() => window.pt2eLens);
    await page.evaluate(async (doc) => {
      const host = document.createElement('div');
      document.body.appendChild(host);
      window.__h = window.pt2eLens.render(host, doc, { height: 560 });
      await window.__h.ready;
      for (const gv of window.__h.panes) {
        gv.canvasThreshold = 0;
        gv.expanded = new Set(gv.hier.groups.keys());
        await gv.redraw();
      }
    }, fixture('real_compare.json'));
    assert.deepEqual(await page.evaluate(() => window.__h.panes.map((p) => p.canvasMode)), [true, true]);
    // a node of pane 0 that has a counterpart in pane 1 (the SVG path's hover rule: diffs kept + became)
    const target = await page.evaluate(() => {
      const [a, b] = window.__h.panes;
      for (const [key, box] of a.placement.boxes) {
        if (box.kind !== 'node') continue;
        a.opts.onHover?.(box.id);
        const hit = [...b.canvasView.marks.values()].some((m) => m.has('hover'));
        a.opts.onHover?.(null);
        if (hit) return key;
      }
      return null;
    });
    assert.ok(target, 'a node with a counterpart');
    await centerOnBox(page, target);
    const [x, y] = await page.evaluate((key) => {
      const gv = window.__h.panes[0];
      const b = gv.placement.boxes.get(key);
      const r = gv.el.querySelector('.pl-canvas').getBoundingClientRect();
      const t = gv.panZoom.t;
      return [r.left + t.x + b.x * t.k, r.top + t.y + b.y * t.k];
    }, target);
    await page.mouse.move(x, y);
    await page.waitForFunction(() => [...window.__h.panes[1].canvasView.marks.values()].some((m) => m.has('hover')));
    await page.mouse.move(5, 5);
    await page.waitForFunction(() => ![...window.__h.panes[1].canvasView.marks.values()].some((m) => m.has('hover')));
    await page.screenshot({ path: join(ARTIFACTS, 'canvas-compare.png'), fullPage: true });
    assert.deepEqual(errors, []);
    await page.close();
  });
});
