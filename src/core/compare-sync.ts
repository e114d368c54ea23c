// Compare panes move together: a pan or zoom in one pane moves the others by the same screen move (a drag 40 px
// right moves them 40 px right; a zoom scales them about the same screen point, to the same scale), so what lines
// up stays lined up and nothing jumps as the node nearest a centre changes; alignView puts the counterpart
// (StageDiff kept + became, as compare.ts reads them) of a pane's centre node at the same screen spot, for a pane
// whose view does not match yet; opening or closing a group opens or closes the group of the same module in the
// others.
import { counterparts } from './compare';
import type { GraphView } from './graph-view';
import { nodeKey } from './groups';
import type { View } from './pan-zoom';
import type { Id, StageDiff } from './types';

/** The node box nearest layout point (x, y) of a pane, or null. */
function nearestNode(gv: GraphView, x: number, y: number): Id | null {
  let best: Id | null = null;
  let d = Infinity;
  for (const b of gv.placement?.boxes.values() ?? []) {
    if (b.kind !== 'node' || !b.id) continue;
    const e = (b.x - x) ** 2 + (b.y - y) ** 2;
    if (e < d) {
      d = e;
      best = b.id;
    }
  }
  return best;
}

/** Move pane `to` to show what pane `from` shows: its anchor node's counterpart at the same screen point. */
export function alignView(from: GraphView, to: GraphView, anchorIn: (id: Id) => Id[]): void {
  const a = from.panZoom;
  const b = to.panZoom;
  if (!a || !b || !from.placement || !to.placement) return;
  const [cw, ch] = a.viewSize();
  const { k, x, y } = a.t;
  const id = nearestNode(from, (cw / 2 - x) / k, (ch / 2 - y) / k);
  const src = id ? from.placement.boxes.get(nodeKey(id)) : undefined;
  const dst = id
    ? anchorIn(id)
        .map((c) => to.placement!.boxes.get(nodeKey(c)))
        .find((bx) => bx !== undefined)
    : undefined;
  b.t = src && dst ? { k, x: x + (src.x - dst.x) * k, y: y + (src.y - dst.y) * k } : { ...a.t };
  b.fitted = true;
  b.userMoved = true;
  b.apply();
}

export class CompareSync {
  private busy = false;
  constructor(
    private panes: GraphView[],
    private diffs: StageDiff[],
  ) {}

  /** Call once per pane after it exists. */
  add(i: number): void {
    this.panes[i].panZoom?.onUserMove.push((before) => this.moved(i, before));
  }

  private others(i: number): Array<[number, GraphView]> {
    return this.panes.map((p, j) => [j, p] as [number, GraphView]).filter(([j, p]) => p && j !== i);
  }

  /** pane i was panned or zoomed by the user from view `before`: the others make the same screen move */
  moved(i: number, before: View): void {
    if (this.busy) return;
    const now = this.panes[i].panZoom?.t;
    if (!now) return;
    const r = now.k / before.k;
    // the screen point the move keeps fixed (a zoom's pointer); a pan (r = 1) fixes none, it shifts
    const fixed = (b0: number, b1: number): number => (Math.abs(r - 1) < 1e-9 ? 0 : (b1 - r * b0) / (1 - r));
    const [px, py] = [fixed(before.x, now.x), fixed(before.y, now.y)];
    for (const [, p] of this.others(i)) {
      const z = p.panZoom;
      if (!z) continue;
      if (Math.abs(r - 1) < 1e-9) z.t = { k: z.t.k, x: z.t.x + now.x - before.x, y: z.t.y + now.y - before.y };
      else {
        const rz = now.k / z.t.k; // to the same scale as pane i, about the same screen point
        z.t = { k: now.k, x: px - (px - z.t.x) * rz, y: py - (py - z.t.y) * rz };
      }
      z.fitted = true;
      z.userMoved = true;
      z.apply();
    }
  }

  /** pane i was moved: the others show its centre node's counterpart at the same screen spot and scale */
  follow(i: number): void {
    if (this.busy) return;
    this.busy = true;
    try {
      const n = this.panes.length;
      for (const [j, p] of this.others(i))
        alignView(this.panes[i], p, (id) => [...counterparts(this.diffs, n, i, id)[j]]);
    } finally {
      this.busy = false;
    }
  }

  /** pane i opened (open) or closed a group: the same module follows in the others, then the views align */
  async toggled(i: number, key: string, open: boolean): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      await Promise.all(this.others(i).map(([, p]) => p.setOpen(key, open)));
    } finally {
      this.busy = false;
    }
    if (this.panes[i].panZoom?.userMoved) this.follow(i);
  }
}
