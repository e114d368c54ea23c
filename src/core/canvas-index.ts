// Pure geometry of the canvas renderer (no DOM, tested in vitest): a uniform grid over layout space for
// viewport culling and hit-testing, the level of detail for a zoom scale, and which renderer a scene gets.
import type { Box } from './hier-layout';

/** Axis-aligned rectangle in layout units (min corner + size). */
export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Scenes with more drawn boxes (nodes + closed groups) than this are drawn on a canvas; smaller ones in SVG,
 * where every element carries its own events, tooltip and styles. ~1.5k boxes are ~12k SVG elements, about
 * where a pan frame of SVG passes 33 ms in software-rendered Chromium (docs/bench.md). */
export const CANVAS_THRESHOLD = 1500;

export function useCanvas(drawnBoxes: number, threshold = CANVAS_THRESHOLD): boolean {
  return drawnBoxes > threshold;
}

/** An item touching more cells than this is kept in a short list instead of the grid. */
const BIG_CELLS = 64;

/** A uniform grid of buckets over a known area (the layout's): each item is listed in every cell its rectangle
 * touches; items reaching outside the area are kept in its border cells. */
export class GridIndex<T> {
  private cells: Array<number[] | undefined>;
  /** items spanning many cells (an open model's frame): checked on every query instead */
  private big: number[] = [];
  private items: Array<{ r: Rect; v: T }> = [];
  private stamp: Int32Array = new Int32Array(64);
  private queries = 0;
  private cols: number;
  private rows: number;
  readonly cell: number;

  constructor(
    private area: Rect,
    cell = 256,
  ) {
    // at most ~2^20 cells, whatever the layout's size
    this.cell = Math.max(cell, Math.sqrt((area.w * area.h) / (1 << 20)));
    this.cols = Math.max(1, Math.ceil(area.w / this.cell) + 1);
    this.rows = Math.max(1, Math.ceil(area.h / this.cell) + 1);
    this.cells = new Array(this.cols * this.rows);
  }

  private cx(x: number): number {
    return Math.min(this.cols - 1, Math.max(0, Math.floor((x - this.area.x) / this.cell)));
  }

  private cy(y: number): number {
    return Math.min(this.rows - 1, Math.max(0, Math.floor((y - this.area.y) / this.cell)));
  }

  add(r: Rect, v: T): void {
    const i = this.items.length;
    this.items.push({ r, v });
    const x0 = this.cx(r.x);
    const x1 = this.cx(r.x + r.w);
    const y0 = this.cy(r.y);
    const y1 = this.cy(r.y + r.h);
    if ((x1 - x0 + 1) * (y1 - y0 + 1) > BIG_CELLS) {
      this.big.push(i);
      return;
    }
    for (let y = y0; y <= y1; y++)
      for (let x = x0; x <= x1; x++) {
        const k = y * this.cols + x;
        const b = this.cells[k];
        if (b) b.push(i);
        else this.cells[k] = [i];
      }
  }

  get size(): number {
    return this.items.length;
  }

  /** Items whose rectangle intersects `q`, each once, in insertion order (= drawing order). */
  query(q: Rect): T[] {
    const x0 = this.cx(q.x);
    const x1 = this.cx(q.x + q.w);
    const y0 = this.cy(q.y);
    const y1 = this.cy(q.y + q.h);
    if (this.stamp.length < this.items.length) {
      const s = new Int32Array(Math.max(this.items.length, this.stamp.length * 2));
      s.set(this.stamp);
      this.stamp = s;
    }
    const mark = ++this.queries;
    const hit: number[] = [];
    for (const i of this.big) if (intersects(this.items[i].r, q)) hit.push(i);
    for (let y = y0; y <= y1; y++)
      for (let x = x0; x <= x1; x++) {
        const b = this.cells[y * this.cols + x];
        if (!b) continue;
        for (const i of b) {
          if (this.stamp[i] === mark) continue;
          this.stamp[i] = mark;
          if (intersects(this.items[i].r, q)) hit.push(i);
        }
      }
    hit.sort((a, b) => a - b);
    return hit.map((i) => this.items[i].v);
  }

  /** Items whose rectangle contains the point, last-added (topmost) first. */
  at(x: number, y: number): T[] {
    return this.query({ x, y, w: 0, h: 0 }).reverse();
  }
}

export function intersects(a: Rect, b: Rect): boolean {
  return a.x <= b.x + b.w && b.x <= a.x + a.w && a.y <= b.y + b.h && b.y <= a.y + a.h;
}

/** The layout-space rectangle a cw×ch px view shows under screen = k·layout + (tx, ty), grown by `margin` px. */
export function viewRect(t: { x: number; y: number; k: number }, cw: number, ch: number, margin = 0): Rect {
  return {
    x: (-t.x - margin) / t.k,
    y: (-t.y - margin) / t.k,
    w: (cw + 2 * margin) / t.k,
    h: (ch + 2 * margin) / t.k,
  };
}

/** What to draw at zoom scale k (screen px per layout unit), as Model Explorer does: text only where it reads. */
export interface Detail {
  /** node and group titles (12 px in layout units) */
  labels: boolean;
  /** second lines, badges, edge labels (9–10 px) */
  small: boolean;
  /** box outlines and arrowheads */
  strokes: boolean;
  /** edges at all (below this they are sub-pixel hairlines that only cost time) */
  edges: boolean;
}

/** smallest on-screen size (px) at which text is drawn */
export const MIN_TEXT_PX = 7;

export function detailAt(k: number): Detail {
  return {
    labels: 12 * k >= MIN_TEXT_PX,
    small: 10 * k >= MIN_TEXT_PX,
    strokes: k >= 0.2,
    edges: k >= 0.04,
  };
}

/** Hit-test entries: what a point over the drawing means. */
export type Hit =
  | { kind: 'node'; key: string; id: string }
  | { kind: 'collapsed'; key: string; group: string }
  | { kind: 'header'; key: string; group: string };

/** The most specific target under a point: a node or closed group over the header of an open group,
 * the innermost header over an outer one; the body of an open group is no target. */
export function pick(
  candidates: Array<{ hit: Hit; r: Rect; depth: number }>,
  x: number,
  y: number,
  header: number,
): Hit | null {
  let best: { hit: Hit; rank: number } | null = null;
  for (const c of candidates) {
    const { r, hit } = c;
    if (x < r.x || x > r.x + r.w || y < r.y || y > r.y + r.h) continue;
    if (hit.kind === 'header' && y > r.y + header) continue;
    const rank = hit.kind === 'header' ? c.depth : 1e6 + c.depth;
    if (!best || rank > best.rank) best = { hit, rank };
  }
  return best?.hit ?? null;
}

/** A box as the layout gives it (centre + size): hier-layout's Box, of which hit-testing needs the group's key only. */
export type PlacedBox = Omit<Box, 'group' | 'note'> & { group?: { key: string } };

export type HitEntry = { hit: Hit; r: Rect; depth: number };

export const boxRect = (b: PlacedBox): Rect => ({ x: b.x - b.w / 2, y: b.y - b.h / 2, w: b.w, h: b.h });

/** Add one box to a hit-test index; `depth` grows in layout order (a group before what it holds). */
export function addHit(idx: GridIndex<HitEntry>, b: PlacedBox, depth: number): void {
  const r = boxRect(b);
  const hit: Hit =
    b.kind === 'node'
      ? { kind: 'node', key: b.key, id: b.id! }
      : { kind: b.kind === 'expanded' ? 'header' : 'collapsed', key: b.key, group: b.group!.key };
  idx.add(r, { hit, r, depth });
}

/** The hit-test index of a placement (boxes in layout order). */
export function hitIndex(boxes: Iterable<PlacedBox>, area: Rect): GridIndex<HitEntry> {
  const idx = new GridIndex<HitEntry>(area);
  let depth = 0;
  for (const b of boxes) addHit(idx, b, ++depth);
  return idx;
}

/** What is at layout point (x, y); `header` is the height of an open group's clickable title band. */
export function hitTest(idx: GridIndex<HitEntry>, x: number, y: number, header: number): Hit | null {
  return pick(idx.at(x, y), x, y, header);
}

/** The value under `k`, made and stored on first use (batches by style). */
export function bucket<K, V>(m: Map<K, V>, k: K, make: () => V): V {
  let v = m.get(k);
  if (v === undefined) {
    v = make();
    m.set(k, v);
  }
  return v;
}
