// @vitest-environment node
// (no DOM here: the node environment spares this file the set-up of jsdom)
// The side panel fetches one stage at a time (no StageDiff between them): a selection follows to another stage's
// node of the same name, else by `from_node` (sameNodeIn). Checked against the kernel's own stage alignment, the
// diffs of real Views (counterparts: name and target first, then provenance), on every node of every stage pair.
import { describe, expect, it } from 'vitest';
import { counterparts, sameNodeIn } from '../../src/core/compare';
import type { View } from '../../src/core/types';
import { fixture } from './helpers';

describe('sameNodeIn', () => {
  for (const name of ['run.json', 'real_run.json']) {
    it(`agrees with the diffs of ${name} for every node and stage pair`, () => {
      const view = fixture(name) as View;
      const n = view.panes.length;
      let followed = 0;
      let cleared = 0;
      for (let a = 0; a < n; a++)
        for (let b = 0; b < n; b++) {
          if (a === b) continue;
          const there = view.panes[b].snapshot.nodes;
          for (const node of view.panes[a].snapshot.nodes) {
            const mine = sameNodeIn(node, there);
            const theirs = [...counterparts(view.diffs, n, a, node.id)[b]];
            if (mine.length) {
              followed++;
              // where the diffs know a counterpart, ours is one of them
              if (theirs.length) expect(theirs).toContain(mine[0]);
            } else {
              cleared++;
              expect(theirs, `${node.id}: ${view.panes[a].label} → ${view.panes[b].label}`).toEqual([]);
            }
          }
        }
      expect(followed).toBeGreaterThan(0);
      expect(cleared).toBeGreaterThan(0);
    });
  }

  it('same name first, then the nodes made from it, then the node it was made from', () => {
    const node = (id: string, provenance: string[] = []) => ({ id, provenance }) as never;
    expect(sameNodeIn(node('linear'), [node('linear'), node('addmm', ['linear'])])).toEqual(['linear']);
    expect(sameNodeIn(node('linear'), [node('permute', ['linear']), node('addmm', ['linear'])])).toEqual([
      'permute',
      'addmm',
    ]);
    expect(sameNodeIn(node('addmm', ['linear']), [node('linear'), node('relu')])).toEqual(['linear']);
    expect(sameNodeIn(node('quantize_per_tensor_default'), [node('linear')])).toEqual([]);
  });
});
