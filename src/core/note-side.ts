// Which side of its node a note's callout shows on (issue 26 point 4: "notes are not clipped at pane edges"). The
// layout gives a note room at its node's right (hier-layout.ts), so a fitted drawing shows it whole; a drawing wider
// than its pane is panned at a readable scale, and there a note at the pane's right edge was cut. Then the callout
// moves to the node's left when that spot is in view and covers no other box. Pure: both painters (nodes.ts via
// svg-view.ts, canvas-draw.ts) ask it, in layout units.
import { NOTE_GAP } from './callout';
import type { Box } from './hier-layout';

/** A placed box as the sides are worked out from: a placement's (hier-layout.ts) or a frame's (frame.ts). */
type Placed = Pick<Box, 'key' | 'kind' | 'x' | 'y' | 'w' | 'h' | 'note'>;

/** A placement or a frame: its boxes (a map's values, an array's). */
interface Boxes {
  boxes: { values(): Iterable<Placed> };
}

export type Side = 'right' | 'left';

/** The visible x range of the drawing, layout units. */
export interface Span {
  x0: number;
  x1: number;
}

/** How far a flipped callout's body moves from its laid-out place (negative: to the left). */
export function flipShift(b: Placed): number {
  return b.note ? -(b.w + 2 * NOTE_GAP + b.note.w) : 0;
}

/** boxes (nodes, closed groups) whose rectangles overlap (x, y, w, h), other than `self` */
function overlaps(P: Boxes, self: Placed, x: number, y: number, w: number, h: number): boolean {
  for (const o of P.boxes.values()) {
    if (o === self || o.kind === 'expanded') continue;
    const rs = [{ x: o.x - o.w / 2, y: o.y - o.h / 2, w: o.w, h: o.h }];
    if (o.note) rs.push({ x: o.note.x, y: o.note.y, w: o.note.w, h: o.note.h });
    for (const r of rs) if (r.x < x + w && x < r.x + r.w && r.y < y + h && y < r.y + r.h) return true;
  }
  return false;
}

const freeMemo = new WeakMap<Boxes, Set<string>>();

/** Keys of the nodes whose note may show at their left: that spot overlaps no node, closed group or other note.
 * Once per placement or frame (a walk over the boxes for each note: notes are few). */
export function leftFree(P: Boxes): Set<string> {
  let free = freeMemo.get(P);
  if (free) return free;
  free = new Set();
  for (const b of P.boxes.values()) {
    if (!b.note) continue;
    const x = b.note.x + flipShift(b);
    if (!overlaps(P, b, x, b.note.y, b.note.w, b.note.h)) free.add(b.key);
  }
  freeMemo.set(P, free);
  return free;
}

/** The side node `b`'s callout shows on in view `v`: its laid-out right unless the view cuts it there and the left
 * spot is free (`free`) and wholly in view. */
export function noteSide(b: Placed, v: Span, free: boolean): Side {
  const n = b.note;
  if (!n || !free) return 'right';
  if (n.x >= v.x0 && n.x + n.w <= v.x1) return 'right';
  const x = n.x + flipShift(b);
  return x >= v.x0 && x + n.w <= v.x1 ? 'left' : 'right';
}
