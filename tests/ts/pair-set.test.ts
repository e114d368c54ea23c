// @vitest-environment node
// (no DOM here: the node environment spares this file the set-up of jsdom)
import { describe, expect, it } from 'vitest';
import { PairSet } from '../../src/core/pair-set';

describe('PairSet', () => {
  it('answers as a Set of "x,y" strings does, through several growths', () => {
    const mine = new PairSet(4);
    const ref = new Set<string>();
    let seed = 7;
    const rnd = (k: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % k;
    };
    for (let i = 0; i < 20000; i++) {
      const x = rnd(300);
      const y = rnd(i % 2 ? 300 : 200000);
      const fresh = !ref.has(`${x},${y}`);
      ref.add(`${x},${y}`);
      expect(mine.add(x, y)).toBe(fresh);
    }
    expect(mine.add(0, 0)).toBe(!ref.has('0,0'));
  });
});
