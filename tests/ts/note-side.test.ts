// @vitest-environment node
// note-side.ts: a note's callout shows at its node's left only where the view cuts it at the right and the left
// spot is free and in view (issue 26 point 4: "notes are not clipped at pane edges").
import { describe, expect, it } from 'vitest';
import { NOTE_GAP } from '../../src/core/callout';
import type { Box, Placement } from '../../src/core/hier-layout';
import { flipShift, leftFree, noteSide } from '../../src/core/note-side';

/** a node centred at (x, y), 80 × 40, with a 200 × 30 note laid out at its right (as hier-layout.ts does) */
const noted = (key: string, x: number, y: number): Box => ({
  key,
  kind: 'node',
  x,
  y,
  w: 80,
  h: 40,
  id: key,
  note: { lines: ['n'], w: 200, h: 30, x: x + 40 + NOTE_GAP, y: y - 15 },
});
const node = (key: string, x: number, y: number): Box => ({ key, kind: 'node', x, y, w: 80, h: 40, id: key });
const placement = (bs: Box[]): Placement =>
  ({ boxes: new Map(bs.map((b) => [b.key, b])), width: 1000, height: 500 }) as unknown as Placement;

describe('note side', () => {
  it('flipped, the callout sits the same gap left of its node as it sat right of it', () => {
    const b = noted('a', 500, 100);
    const x = b.note!.x + flipShift(b);
    expect(x + b.note!.w).toBe(b.x - b.w / 2 - NOTE_GAP);
  });

  it('stays at the right while the view shows it there; goes left when the view cuts it and the left is in view', () => {
    const b = noted('a', 500, 100); // node 460–540, note 554–754, flipped 206–406
    expect(noteSide(b, { x0: 0, x1: 1000 }, true)).toBe('right');
    expect(noteSide(b, { x0: 200, x1: 700 }, true)).toBe('left');
    // cut at the right, but the left spot is cut too (a narrow view): no better, stays
    expect(noteSide(b, { x0: 300, x1: 700 }, true)).toBe('right');
    // cut at the left edge: the right side is where it was laid out, nothing to gain
    expect(noteSide(b, { x0: 600, x1: 1000 }, true)).toBe('right');
    // the left spot is taken
    expect(noteSide(b, { x0: 200, x1: 700 }, false)).toBe('right');
  });

  it('the left spot is free unless a node, a closed group or another note lies there', () => {
    const a = noted('a', 500, 100);
    const b = noted('b', 500, 300);
    const c = noted('c', 500, 500);
    const P = placement([a, b, node('nb', 300, 300), c, { ...node('g', 400, 520), kind: 'collapsed' }]);
    expect([...leftFree(P)].sort()).toEqual(['a']);
    // an open group's frame is no obstacle (the note is inside it, as its node is)
    const Q = placement([a, { ...node('open', 500, 100), key: 'open', kind: 'expanded', w: 1000, h: 400 }]);
    expect([...leftFree(Q)]).toEqual(['a']);
  });
});
