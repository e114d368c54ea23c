// @vitest-environment node
// box-cover.ts against a brute-force scan: whether a rectangle strictly overlaps any box, for boxes scattered, in
// rows that touch, and for rectangles inside, outside, huge, thin, and sharing an edge with a box exactly.
import { describe, expect, it } from 'vitest';
import { BoxCover, type Rect } from '../../src/core/box-cover';

function rng(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1664525 + 1013904223) % 4294967296;
    return s / 4294967296;
  };
}

const brute = (boxes: Rect[], r: Rect): boolean =>
  r.w > 0 && r.h > 0 && boxes.some((o) => r.x < o.x + o.w && o.x < r.x + r.w && r.y < o.y + o.h && o.y < r.y + r.h);

describe('which rectangles meet a set of boxes', () => {
  it('answers as a scan of every box, for scattered boxes and rectangles of every size', () => {
    const r = rng(5);
    const boxes: Rect[] = Array.from({ length: 3000 }, () => ({
      x: r() * 50_000,
      y: r() * 20_000,
      w: 72 + r() * 170,
      h: 40,
    }));
    const cover = new BoxCover(boxes);
    let met = 0;
    for (let q = 0; q < 3000; q++) {
      const size = [5, 300, 3000, 80_000][q % 4];
      const rect = { x: r() * 60_000 - 5000, y: r() * 25_000 - 2500, w: r() * size, h: r() * size * 0.4 };
      const want = brute(boxes, rect);
      expect(cover.meets(rect)).toBe(want);
      if (want) met++;
    }
    // both answers are common: the test sees each
    expect(met).toBeGreaterThan(300);
    expect(met).toBeLessThan(2700);
  });

  it('a rectangle sharing only an edge with a box does not meet it; overlapping by any amount does', () => {
    // a layout's rows: boxes on a 16-unit lattice, edge to edge
    const boxes: Rect[] = [];
    for (let i = 0; i < 40; i++)
      for (let j = 0; j < 25; j++) if ((i + j) % 3) boxes.push({ x: i * 96, y: j * 64, w: 96, h: 40 });
    const cover = new BoxCover(boxes);
    const r = rng(9);
    for (let q = 0; q < 4000; q++) {
      // corners on the same lattice as the boxes' edges, so many rectangles touch a box exactly
      const x = Math.floor(r() * 280) * 16 - 320;
      const y = Math.floor(r() * 120) * 8 - 160;
      const rect = { x, y, w: Math.floor(r() * 40) * 8, h: Math.floor(r() * 20) * 4 };
      expect(cover.meets(rect)).toBe(brute(boxes, rect));
    }
    expect(cover.meets({ x: 96, y: 40, w: 96, h: 24 })).toBe(false); // the gap under a box, edge to edge
    expect(new BoxCover([]).meets({ x: 0, y: 0, w: 10, h: 10 })).toBe(false);
  });
});
