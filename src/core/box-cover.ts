// Whether a rectangle meets any of a fixed set of boxes (zoom-labels.ts asks it of every group title against every
// node: 30k titles over 100k nodes when a whole expanded graph is fitted). The boxes mark the cells of a grid they
// overlap (about two cells a box); a rectangle meets a box when a cell wholly inside it is marked (one lookup in a
// summed-area table) or a box listed in one of its border cells overlaps it. Overlap is strict, as zoom-labels.ts
// tests it: boxes that only touch do not meet. The boxes have a positive size (nodes).

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export class BoxCover {
  private x0 = 0;
  private y0 = 0;
  private cell = 1;
  private cols = 0;
  private rows = 0;
  /** sum[(j) * (cols + 1) + i]: marked cells left of column i and above row j */
  private sum = new Int32Array(1);
  /** cell k's boxes: list[start[k]] … list[start[k + 1] - 1] */
  private start = new Int32Array(1);
  private list = new Int32Array(0);

  constructor(private boxes: readonly Rect[]) {
    const n = boxes.length;
    if (!n) return;
    let x1 = Number.NEGATIVE_INFINITY;
    let y1 = Number.NEGATIVE_INFINITY;
    this.x0 = Number.POSITIVE_INFINITY;
    this.y0 = Number.POSITIVE_INFINITY;
    for (const b of boxes) {
      this.x0 = Math.min(this.x0, b.x);
      this.y0 = Math.min(this.y0, b.y);
      x1 = Math.max(x1, b.x + b.w);
      y1 = Math.max(y1, b.y + b.h);
    }
    const w = Math.max(x1 - this.x0, 1);
    const h = Math.max(y1 - this.y0, 1);
    this.cell = Math.max(Math.sqrt((w * h) / (2 * n)), 1e-9);
    this.cols = Math.ceil(w / this.cell) + 1;
    this.rows = Math.ceil(h / this.cell) + 1;
    const cells = this.cols * this.rows;
    // a box [x, x + w) marks the cells its half-open extent overlaps: columns i0..i1, rows j0..j1
    const span = new Int32Array(4 * n);
    const count = new Int32Array(cells + 1);
    for (let b = 0; b < n; b++) {
      const { x, y, w: bw, h: bh } = boxes[b];
      const i0 = this.col(x);
      const j0 = this.row(y);
      const i1 = Math.max(i0, Math.ceil((x + bw - this.x0) / this.cell) - 1);
      const j1 = Math.max(j0, Math.ceil((y + bh - this.y0) / this.cell) - 1);
      span[4 * b] = i0;
      span[4 * b + 1] = i1;
      span[4 * b + 2] = j0;
      span[4 * b + 3] = j1;
      for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) count[j * this.cols + i + 1]++;
    }
    const sum = new Int32Array((this.cols + 1) * (this.rows + 1));
    const c = this.cols + 1;
    for (let j = 0; j < this.rows; j++)
      for (let i = 0; i < this.cols; i++) {
        const k = (j + 1) * c + i + 1;
        sum[k] = (count[j * this.cols + i + 1] > 0 ? 1 : 0) + sum[k - 1] + sum[k - c] - sum[k - c - 1];
      }
    for (let k = 0; k < cells; k++) count[k + 1] += count[k];
    const fill = count.slice(0, cells);
    const list = new Int32Array(count[cells]);
    for (let b = 0; b < n; b++) {
      const o = 4 * b;
      for (let j = span[o + 2]; j <= span[o + 3]; j++)
        for (let i = span[o]; i <= span[o + 1]; i++) list[fill[j * this.cols + i]++] = b;
    }
    this.sum = sum;
    this.start = count;
    this.list = list;
  }

  private col(x: number): number {
    return Math.floor((x - this.x0) / this.cell);
  }

  private row(y: number): number {
    return Math.floor((y - this.y0) / this.cell);
  }

  /** marked cells in columns i0..i1, rows j0..j1 (within the grid) */
  private marked(i0: number, i1: number, j0: number, j1: number): number {
    if (i0 > i1 || j0 > j1) return 0;
    const s = this.sum;
    const c = this.cols + 1;
    return s[(j1 + 1) * c + i1 + 1] - s[j0 * c + i1 + 1] - s[(j1 + 1) * c + i0] + s[j0 * c + i0];
  }

  /** Whether `r` overlaps any box (strictly: sharing an edge is not overlapping). */
  meets(r: Rect): boolean {
    if (!this.boxes.length || r.w <= 0 || r.h <= 0) return false;
    // the cells wholly inside r (none outside the grid holds a box): a box marked in one overlaps r
    const a0 = Math.max(0, Math.ceil((r.x - this.x0) / this.cell));
    const a1 = Math.min(this.cols - 1, Math.floor((r.x + r.w - this.x0) / this.cell) - 1);
    const b0 = Math.max(0, Math.ceil((r.y - this.y0) / this.cell));
    const b1 = Math.min(this.rows - 1, Math.floor((r.y + r.h - this.y0) / this.cell) - 1);
    const inner = a0 <= a1 && b0 <= b1;
    if (inner && this.marked(a0, a1, b0, b1) > 0) return true;
    // the other cells r overlaps: each box listed there tested (the inner ones hold none)
    const i0 = Math.max(0, this.col(r.x));
    const i1 = Math.min(this.cols - 1, this.col(r.x + r.w));
    const j0 = Math.max(0, this.row(r.y));
    const j1 = Math.min(this.rows - 1, this.row(r.y + r.h));
    // rows whose overlapped cells hold no box are skipped whole (a thin strip through an empty column of a layout)
    for (let j = j0; j <= j1; j++) {
      if (this.marked(i0, i1, j, j) === 0) continue;
      for (let i = i0; i <= i1; i++) {
        if (inner && j >= b0 && j <= b1 && i === a0) {
          i = a1;
          continue;
        }
        const k = j * this.cols + i;
        for (let p = this.start[k]; p < this.start[k + 1]; p++) {
          const o = this.boxes[this.list[p]];
          if (r.x < o.x + o.w && o.x < r.x + r.w && r.y < o.y + o.h && o.y < r.y + r.h) return true;
        }
      }
    }
    return false;
  }
}
