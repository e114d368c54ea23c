// Pure geometry of the canvas renderer (no DOM, tested in vitest): a uniform grid over layout space for
// viewport culling and hit-testing, the level of detail for a zoom scale, and which renderer a scene gets.

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

/** A uniform grid of buckets: each item is listed in every cell its rectangle touches. */
export class GridIndex<T> {
  private cells = new Map<number, number[]>();
  private items: Array<{ r: Rect; v: T }> = [];
  constructor(readonly cell = 256) {}

  private key(cx: number, cy: number): number {
    // cells of a layout up to ~2^20 cells wide: cy * 2^21 + cx stays an exact integer
    return (cy + 1048576) * 2097152 + (cx + 1048576);
  }

  add(r: Rect, v: T): void {
    const i = this.items.length;
    this.items.push({ r, v });
    const c = this.cell;
    const x0 = Math.floor(r.x / c);
    const x1 = Math.floor((r.x + r.w) / c);
    const y0 = Math.floor(r.y / c);
    const y1 = Math.floor((r.y + r.h) / c);
    for (let cy = y0; cy <= y1; cy++)
      for (let cx = x0; cx <= x1; cx++) {
        const k = this.key(cx, cy);
        const b = this.cells.get(k);
        if (b) b.push(i);
        else this.cells.set(k, [i]);
      }
  }

  get size(): number {
    return this.items.length;
  }

  /** Items whose rectangle intersects `q`, each once, in insertion order (= drawing order). */
  query(q: Rect): T[] {
    const c = this.cell;
    const x0 = Math.floor(q.x / c);
    const x1 = Math.floor((q.x + q.w) / c);
    const y0 = Math.floor(q.y / c);
    const y1 = Math.floor((q.y + q.h) / c);
    const hit: number[] = [];
    const seen = new Set<number>();
    // a query wider than the grid walks the items instead of the (mostly empty) cells
    if ((x1 - x0 + 1) * (y1 - y0 + 1) > this.cells.size) {
      for (let i = 0; i < this.items.length; i++) if (intersects(this.items[i].r, q)) hit.push(i);
      return hit.map((i) => this.items[i].v);
    }
    for (let cy = y0; cy <= y1; cy++)
      for (let cx = x0; cx <= x1; cx++) {
        const b = this.cells.get(this.key(cx, cy));
        if (!b) continue;
        for (const i of b) {
          if (seen.has(i)) continue;
          seen.add(i);
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

/** A box as the layout gives it (centre + size); structurally hier-layout's Box. */
export interface PlacedBox {
  key: string;
  kind: 'node' | 'collapsed' | 'expanded';
  x: number;
  y: number;
  w: number;
  h: number;
  id?: string;
  group?: { key: string };
}

export type HitEntry = { hit: Hit; r: Rect; depth: number };

export const boxRect = (b: PlacedBox): Rect => ({ x: b.x - b.w / 2, y: b.y - b.h / 2, w: b.w, h: b.h });

/** The hit-test index of a placement (boxes in layout order: a group before what it holds). */
export function hitIndex(boxes: Iterable<PlacedBox>): GridIndex<HitEntry> {
  const idx = new GridIndex<HitEntry>();
  let depth = 0;
  for (const b of boxes) {
    const r = boxRect(b);
    depth++;
    const hit: Hit =
      b.kind === 'node'
        ? { kind: 'node', key: b.key, id: b.id! }
        : { kind: b.kind === 'expanded' ? 'header' : 'collapsed', key: b.key, group: b.group!.key };
    idx.add(r, { hit, r, depth });
  }
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
