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
/** items a bucket build handles between two chances to pause */
const BUILD_STEP = 4096;

/** A uniform grid of buckets over a known area (the layout's): each item is listed in every cell its rectangle
 * touches; items reaching outside the area are kept in its border cells. Adding only records the rectangle (in a
 * typed array: no object per item for the garbage collector to trace); the buckets are built, all at once and
 * flat (one list of item numbers, cell by cell), by the first query after an add. */
export class GridIndex<T> {
  private vals: T[] = [];
  /** per item: x0, y0, x1, y1 */
  private box = new Float64Array(256);
  /** cell k's items are list[start[k]] … list[start[k + 1] - 1], in insertion order; null until built */
  private start: Int32Array | null = null;
  private list = new Int32Array(0);
  /** items spanning many cells (an open model's frame): checked on every query instead */
  private big: number[] = [];
  /** how many items the built buckets hold */
  private built = 0;
  private stamp: Int32Array = new Int32Array(64);
  private queries = 0;
  private cols = 1;
  private rows = 1;
  /** a cell's side: set when the buckets are built */
  cell: number;

  constructor(
    private area: Rect,
    /** the smallest cell */
    private minCell = 256,
  ) {
    this.cell = minCell;
  }

  /** The grid for `n` items: about two cells an item, at most ~2^20 — a sparse layout (a tall model's few
   * thousand boxes) is not a million empty buckets to clear and sum on every new frame. */
  private gridFor(n: number): void {
    const cells = Math.min(1 << 20, Math.max(256, 2 * n));
    this.cell = Math.max(this.minCell, Math.sqrt((this.area.w * this.area.h) / cells));
    this.cols = Math.max(1, Math.ceil(this.area.w / this.cell) + 1);
    this.rows = Math.max(1, Math.ceil(this.area.h / this.cell) + 1);
  }

  private cx(x: number): number {
    return Math.min(this.cols - 1, Math.max(0, Math.floor((x - this.area.x) / this.cell)));
  }

  private cy(y: number): number {
    return Math.min(this.rows - 1, Math.max(0, Math.floor((y - this.area.y) / this.cell)));
  }

  add(r: Rect, v: T): void {
    this.addBox(r.x, r.y, r.w, r.h, v);
  }

  /** add() without a rectangle object */
  addBox(x: number, y: number, w: number, h: number, v: T): void {
    const i = this.vals.length;
    if (4 * i + 4 > this.box.length) {
      const b = new Float64Array(this.box.length * 2);
      b.set(this.box);
      this.box = b;
    }
    const o = 4 * i;
    this.box[o] = x;
    this.box[o + 1] = y;
    this.box[o + 2] = x + w;
    this.box[o + 3] = y + h;
    this.vals.push(v);
  }

  get size(): number {
    return this.vals.length;
  }

  /** the value added as item `i` (item numbers: ids()) */
  value(i: number): T {
    return this.vals[i];
  }

  private build(): void {
    for (const _ of this.buildSteps());
  }

  /** Build the buckets now, pausing (yielding) every BUILD_STEP items: a caller with a time budget (a canvas
   * scene of 100k boxes) spreads it over page tasks; a query after it finds them built. Counting pass, then a
   * filling pass: every bucket a slice of one Int32Array. */
  *buildSteps(): Generator<void, void> {
    if (this.start && this.built === this.vals.length) return;
    const n = this.vals.length;
    this.gridFor(n);
    const cols = this.cols;
    const cells = cols * this.rows;
    const b = this.box;
    const span = new Int32Array(4 * n);
    const start = new Int32Array(cells + 1);
    this.big = [];
    let total = 0;
    for (let i = 0; i < n; i++) {
      const o = 4 * i;
      const x0 = this.cx(b[o]);
      const x1 = this.cx(b[o + 2]);
      const y0 = this.cy(b[o + 1]);
      const y1 = this.cy(b[o + 3]);
      span[o] = x0;
      span[o + 1] = x1;
      span[o + 2] = y0;
      span[o + 3] = y1;
      if ((x1 - x0 + 1) * (y1 - y0 + 1) > BIG_CELLS) {
        this.big.push(i);
        span[o] = -1;
        continue;
      }
      for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) start[y * cols + x + 1]++;
      total += (x1 - x0 + 1) * (y1 - y0 + 1);
      if ((i + 1) % BUILD_STEP === 0) yield;
    }
    for (let k = 0; k < cells; k++) start[k + 1] += start[k];
    yield;
    const fill = start.slice(0, cells);
    const list = new Int32Array(total);
    for (let i = 0; i < n; i++) {
      const o = 4 * i;
      if (span[o] < 0) continue;
      for (let y = span[o + 2]; y <= span[o + 3]; y++)
        for (let x = span[o]; x <= span[o + 1]; x++) list[fill[y * cols + x]++] = i;
      if ((i + 1) % BUILD_STEP === 0) yield;
    }
    this.start = start;
    this.list = list;
    this.built = n;
  }

  private meets(i: number, q: Rect): boolean {
    const b = this.box;
    const o = 4 * i;
    return b[o] <= q.x + q.w && q.x <= b[o + 2] && b[o + 1] <= q.y + q.h && q.y <= b[o + 3];
  }

  /** Item numbers (insertion order) whose rectangle intersects `q`, each once, ascending. */
  ids(q: Rect): Int32Array {
    if (!this.start || this.built !== this.vals.length) this.build();
    const start = this.start!;
    const list = this.list;
    const x0 = this.cx(q.x);
    const x1 = this.cx(q.x + q.w);
    const y0 = this.cy(q.y);
    const y1 = this.cy(q.y + q.h);
    if (this.stamp.length < this.vals.length) {
      const s = new Int32Array(Math.max(this.vals.length, this.stamp.length * 2));
      s.set(this.stamp);
      this.stamp = s;
    }
    const stamp = this.stamp;
    const mark = ++this.queries;
    const hit: number[] = [];
    for (const i of this.big) if (this.meets(i, q)) hit.push(i);
    for (let y = y0; y <= y1; y++)
      for (let x = x0; x <= x1; x++) {
        const k = y * this.cols + x;
        for (let p = start[k], e = start[k + 1]; p < e; p++) {
          const i = list[p];
          if (stamp[i] === mark) continue;
          stamp[i] = mark;
          if (this.meets(i, q)) hit.push(i);
        }
      }
    return Int32Array.from(hit).sort();
  }

  /** Items whose rectangle intersects `q`, each once, in insertion order (= drawing order). */
  query(q: Rect): T[] {
    const ids = this.ids(q);
    const out: T[] = new Array(ids.length);
    for (let j = 0; j < ids.length; j++) out[j] = this.vals[ids[j]];
    return out;
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

/** A hit-test index holds the boxes themselves, in layout order (a group before what it holds): an item's
 * number is its depth. What a box means under the pointer (hitOf) is made for the few boxes at a point. */
export type HitIndex = GridIndex<PlacedBox>;

/** Add one box to a hit-test index (in layout order). */
export function addHit(idx: HitIndex, b: PlacedBox): void {
  idx.addBox(b.x - b.w / 2, b.y - b.h / 2, b.w, b.h, b);
}

function hitOf(b: PlacedBox): Hit {
  return b.kind === 'node'
    ? { kind: 'node', key: b.key, id: b.id! }
    : { kind: b.kind === 'expanded' ? 'header' : 'collapsed', key: b.key, group: b.group!.key };
}

/** The hit-test index of a placement (boxes in layout order). */
export function hitIndex(boxes: Iterable<PlacedBox>, area: Rect): HitIndex {
  const idx = new GridIndex<PlacedBox>(area);
  for (const b of boxes) addHit(idx, b);
  return idx;
}

/** What is at layout point (x, y); `header` is the height of an open group's clickable title band. */
export function hitTest(idx: HitIndex, x: number, y: number, header: number): Hit | null {
  const ids = idx.ids({ x, y, w: 0, h: 0 });
  const candidates: HitEntry[] = [];
  for (let j = ids.length - 1; j >= 0; j--) {
    const b = idx.value(ids[j]);
    candidates.push({ hit: hitOf(b), r: boxRect(b), depth: ids[j] + 1 });
  }
  return pick(candidates, x, y, header);
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
