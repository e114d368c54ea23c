// The canvas renderer's pure parts (jsdom has no canvas): the grid index against a brute-force scan, culling to
// the view, the level of detail per zoom, hit-testing on a real hierarchical layout, the renderer switch.
import { describe, expect, it } from 'vitest';
import {
  boxRect,
  CANVAS_THRESHOLD,
  detailAt,
  GridIndex,
  hitIndex,
  hitTest,
  intersects,
  MIN_TEXT_PX,
  type Rect,
  useCanvas,
  viewRect,
} from '../../src/core/canvas-index';
import { groupKey, nodeKey } from '../../src/core/groups';
import { HEADER } from '../../src/core/hier-layout';
import { markCss, markStroke } from '../../src/core/marks';
import { mapFit } from '../../src/core/minimap';
import { synthView } from '../ts/fixtures/synth.mjs';
import { mount } from './helpers';

/** deterministic pseudo-random numbers (LCG) */
function rng(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1664525 + 1013904223) % 4294967296;
    return s / 4294967296;
  };
}

describe('canvas: grid index and culling', () => {
  it('query returns exactly the rectangles a brute-force scan finds, in insertion order', () => {
    const r = rng(7);
    const rects: Rect[] = [];
    const idx = new GridIndex<number>({ x: 0, y: 0, w: 18000, h: 7000 }, 100);
    for (let i = 0; i < 3000; i++) {
      // every 50th is a large frame (kept off the grid), like an open model's box
      const big = i % 50 === 0 ? 20 : 1;
      const rc = { x: r() * 20000 - 500, y: r() * 8000, w: 5 + r() * 400 * big, h: 5 + r() * 300 * big };
      rects.push(rc);
      idx.add(rc, i);
    }
    for (let q = 0; q < 60; q++) {
      const w = q % 10 === 0 ? 40000 : 10 + r() * 2000; // some queries wider than the grid
      const query = { x: r() * 20000 - 1000, y: r() * 8000 - 500, w, h: 10 + r() * 1500 };
      const want = rects.map((rc, i) => [rc, i] as const).filter(([rc]) => intersects(rc, query));
      expect(idx.query(query)).toEqual(want.map(([, i]) => i));
    }
  });

  it('buckets built lazily stay exact when items are added between queries (outside the area, huge, empty)', () => {
    const r = rng(11);
    const rects: Rect[] = [];
    const idx = new GridIndex<number>({ x: 0, y: 0, w: 5000, h: 3000 }, 64);
    for (let round = 0; round < 6; round++) {
      for (let i = 0; i < 700; i++) {
        const k = rects.length;
        // some reach far outside the area, some span most of it, some are points
        const rc =
          k % 97 === 0
            ? { x: -3000, y: -2000, w: 11000, h: 7000 }
            : k % 13 === 0
              ? { x: r() * 5000, y: r() * 3000, w: 0, h: 0 }
              : { x: r() * 9000 - 2000, y: r() * 6000 - 1500, w: r() * 300, h: r() * 200 };
        rects.push(rc);
        if (k % 2) idx.add(rc, k);
        else idx.addBox(rc.x, rc.y, rc.w, rc.h, k);
      }
      expect(idx.size).toBe(rects.length);
      // odd rounds: built ahead in steps (as a canvas scene does), even ones: by the first query
      if (round % 2) expect([...idx.buildSteps()].length).toBeGreaterThan(0);
      for (let q = 0; q < 25; q++) {
        const query = { x: r() * 7000 - 1000, y: r() * 4000 - 500, w: r() * (q % 5 ? 900 : 9000), h: r() * 700 };
        const want = rects.flatMap((rc, i) => (intersects(rc, query) ? [i] : []));
        expect(idx.query(query)).toEqual(want);
        expect([...idx.ids(query)].map((i) => idx.value(i))).toEqual(want);
        const px = r() * 5000;
        const py = r() * 3000;
        const at = rects.flatMap((rc, i) => (intersects(rc, { x: px, y: py, w: 0, h: 0 }) ? [i] : []));
        expect(idx.at(px, py)).toEqual(at.reverse());
      }
    }
  });

  it('a sparse layout (a tall model) gets a grid sized by its items, not a cell per 256 units, and stays exact', () => {
    // 1,000 boxes down a 100k-unit column (the old grid: cells of 256 units up to 2^20 of them, whatever the count)
    const area = { x: 0, y: 0, w: 3000, h: 100_000 };
    const idx = new GridIndex<number>(area);
    const rects: Rect[] = [];
    for (let i = 0; i < 1000; i++) {
      const rc = { x: 1000 + (i % 3) * 300, y: i * 100, w: 160, h: 40 };
      rects.push(rc);
      idx.add(rc, i);
    }
    const q = { x: 900, y: 40_000, w: 700, h: 900 };
    expect(idx.query(q)).toEqual(rects.flatMap((rc, i) => (intersects(rc, q) ? [i] : [])));
    const cells = (Math.ceil(area.w / idx.cell) + 1) * (Math.ceil(area.h / idx.cell) + 1);
    expect(cells).toBeLessThanOrEqual(4 * 1000);
    // many items in the same area: cells no larger than the smallest asked for
    const dense = new GridIndex<number>(area, 64);
    for (let i = 0; i < 200_000; i++) dense.addBox((i * 7) % 3000, (i * 13) % 100_000, 10, 10, i);
    dense.query({ x: 0, y: 0, w: 1, h: 1 });
    expect(dense.cell).toBeGreaterThanOrEqual(64);
    expect(dense.cell).toBeLessThan(256);
  });

  it('at() lists what contains a point, topmost (last added) first', () => {
    const idx = new GridIndex<string>({ x: 0, y: 0, w: 1000, h: 1000 }, 64);
    idx.add({ x: 0, y: 0, w: 500, h: 500 }, 'outer');
    idx.add({ x: 100, y: 100, w: 50, h: 50 }, 'inner');
    expect(idx.at(120, 120)).toEqual(['inner', 'outer']);
    expect(idx.at(10, 10)).toEqual(['outer']);
    expect(idx.at(600, 10)).toEqual([]);
  });

  it('viewRect is the layout rectangle a view shows: its corners map back to the screen corners', () => {
    const t = { x: -340, y: 125, k: 0.37 };
    const v = viewRect(t, 800, 500);
    expect(t.k * v.x + t.x).toBeCloseTo(0);
    expect(t.k * (v.x + v.w) + t.x).toBeCloseTo(800);
    expect(t.k * v.y + t.y).toBeCloseTo(0);
    expect(t.k * (v.y + v.h) + t.y).toBeCloseTo(500);
    const m = viewRect(t, 800, 500, 10);
    expect(t.k * m.x + t.x).toBeCloseTo(-10);
  });
});

describe('canvas: level of detail and the renderer switch', () => {
  it('draws text only where it is at least MIN_TEXT_PX on screen, and everything at 1:1', () => {
    for (const k of [0.01, 0.05, 0.2, 0.4, 0.58, 0.6, 0.75, 1, 2]) {
      const d = detailAt(k);
      expect(d.labels).toBe(12 * k >= MIN_TEXT_PX);
      if (d.small) expect(d.labels).toBe(true);
    }
    expect(detailAt(1)).toEqual({ labels: true, small: true, strokes: true, edges: true });
    expect(detailAt(0.01)).toEqual({ labels: false, small: false, strokes: false, edges: false });
  });

  it('uses the canvas above the threshold only', () => {
    expect(useCanvas(CANVAS_THRESHOLD)).toBe(false);
    expect(useCanvas(CANVAS_THRESHOLD + 1)).toBe(true);
  });

  it('a highlight takes the SVG stylesheet precedence: selected over hover over match over marks', () => {
    expect(markStroke(new Set())).toBeNull();
    expect(markStroke(new Set(['match', 'selected']))?.color).toBe('var(--pl-selected)');
    expect(markStroke(new Set(['match', 'selected']))?.dash).toEqual([]);
    expect(markStroke(new Set(['removed']))?.dash).toEqual([5, 3]);
    expect(markStroke(new Set(['removed', 'match']))?.color).toBe('var(--pl-match)');
    // issue 26.4: a removed node selected (or hovered, or a search hit) stays dashed — the course's 虛線
    for (const m of ['selected', 'hover', 'match', 'added'] as const)
      expect(markStroke(new Set(['removed', m]))?.dash).toEqual(markStroke(new Set(['removed']))?.dash);
    expect(markStroke(new Set(['removed', 'selected']))?.color).toBe('var(--pl-selected)');
    // and an added node shown as a counterpart or hovered stays solid: dashes would say "removed"
    for (const m of ['counterpart', 'hover', 'selected'] as const)
      expect(markStroke(new Set(['added', m]))?.dash).toEqual([]);
    expect(markStroke(new Set(['counterpart']))?.dash).toEqual([6, 3]);
    expect(markCss()).toMatch(
      /\.pl-node\.pl-added:is\([^)]*\.pl-counterpart[^)]*\) rect\.pl-box\{stroke-dasharray:none\}/,
    );
    expect(markCss()).toMatch(
      /\.pl-node\.pl-removed:is\([^)]*\.pl-selected[^)]*\) rect\.pl-box\{stroke-dasharray:5 3\}$/,
    );
  });

  it('the minimap fits the whole layout inside the map', () => {
    for (const [W, H] of [
      [20000, 800],
      [300, 90000],
      [168, 112],
    ]) {
      const { s, ox, oy } = mapFit(W, H, 168, 112);
      expect(ox).toBeGreaterThanOrEqual(0);
      expect(oy).toBeGreaterThanOrEqual(0);
      expect(ox + W * s).toBeLessThanOrEqual(168 + 1e-9);
      expect(oy + H * s).toBeLessThanOrEqual(112 + 1e-9);
    }
  });
});

describe('canvas: a large synthetic graph (expanded)', () => {
  it('is drawn on the canvas, and a hit-test at each box finds that box', async () => {
    const { el, handle } = await mount(synthView(2000));
    const gv = handle.panes.find((p) => p)!;
    // collapsed at first: few boxes, SVG
    expect(gv.canvasMode).toBe(false);
    expect(el.querySelectorAll('.pl-node, .pl-group').length).toBeGreaterThan(0);
    gv.expanded = new Set(gv.hier!.groups.keys());
    await gv.redraw();
    const P = gv.placement!;
    const solid = [...P.boxes.values()].filter((b) => b.kind !== 'expanded');
    expect(solid.length).toBeGreaterThan(CANVAS_THRESHOLD);
    expect(gv.canvasMode).toBe(true);
    // the SVG is emptied and hidden (the static picture's overview is its own hidden SVG); the canvas says what it shows
    expect(el.querySelectorAll('.pl-canvas > svg:not(.pl-overview) .pl-node').length).toBe(0);
    const cv = el.querySelector('canvas.pl-raster')!;
    expect(cv.getAttribute('data-nodes')).toBe(String(solid.filter((b) => b.kind === 'node').length));
    expect(cv.getAttribute('aria-label')).toMatch(/2002/);
    expect(el.querySelector('.pl-minimap')).not.toBeNull();

    const idx = hitIndex(P.boxes.values(), { x: 0, y: 0, w: P.width, h: P.height });
    for (const b of solid) {
      const hit = hitTest(idx, b.x, b.y, HEADER);
      expect(hit?.key).toBe(b.key);
    }
    // an open group's title band toggles that group (the innermost one), its body is no target
    for (const g of [...P.boxes.values()].filter((b) => b.kind === 'expanded').slice(0, 200)) {
      const r = boxRect(g);
      const hit = hitTest(idx, r.x + 3, r.y + 3, HEADER);
      expect(hit).toEqual({ kind: 'header', key: g.key, group: g.group!.key });
    }
    const root = [...P.boxes.values()].find((b) => b.kind === 'expanded' && b.key === groupKey('layers'))!;
    expect(hitTest(idx, boxRect(root).x + 2, boxRect(root).y + boxRect(root).h - 2, HEADER)).toBeNull();
    expect(hitTest(idx, -1000, -1000, HEADER)).toBeNull();
    // the same ids the facts know
    const one = hitTest(idx, P.boxes.get(nodeKey('conv_3'))!.x, P.boxes.get(nodeKey('conv_3'))!.y, HEADER);
    expect(one).toEqual({ kind: 'node', key: nodeKey('conv_3'), id: 'conv_3' });
    expect(gv.facts.nodes.get('conv_3')?.target).toBe('conv2d');

    // collapsing again returns to SVG
    gv.expanded = new Set(['']);
    await gv.redraw();
    expect(gv.canvasMode).toBe(false);
    expect(gv.canvasView).toBeNull();
    expect((cv as HTMLElement).style.display).toBe('none');
    expect(el.querySelectorAll('.pl-group').length).toBeGreaterThan(0);
    handle.destroy();
  }, 60000);
});
