// Compare panes move together: a pan or zoom in one pane moves the others so that the counterpart of the node
// nearest its view centre (StageDiff kept + became, as compare.ts reads them) sits at the same screen spot at
// the same scale; opening or closing a group opens or closes the group of the same module in the others.
import { counterparts } from './compare';
import type { GraphView } from './graph-view';
import { nodeKey } from './groups';
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
    this.panes[i].panZoom?.onUserMove.push(() => this.follow(i));
  }

  private others(i: number): Array<[number, GraphView]> {
    return this.panes.map((p, j) => [j, p] as [number, GraphView]).filter(([j, p]) => p && j !== i);
  }

  /** pane i was panned or zoomed by the user */
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
