// Each node's position in its array, by id: one table per array, shared by what a pane draws (drawn.ts
// keeps the ids it draws) and its module groups (groups.ts indexes the same array), so a 100k-node graph
// hashes its ids once. Arrays are never changed once drawn (a snapshot is read-only).
import { runSteps } from './slicer';
import type { Id } from './types';

const indexes = new WeakMap<ReadonlyArray<{ id: Id }>, Map<Id, number>>();

/** id → index in `nodes` (the last one, should an id repeat). */
export function nodeIndex(nodes: ReadonlyArray<{ id: Id }>): Map<Id, number> {
  return runSteps(nodeIndexSteps(nodes));
}

/** nodes between two chances to pause */
const STEP = 4096;

/** nodeIndex, pausing (yielding) every STEP nodes; the table is shared once complete. */
export function* nodeIndexSteps(nodes: ReadonlyArray<{ id: Id }>): Generator<void, Map<Id, number>> {
  let index = indexes.get(nodes);
  if (!index || index.size > nodes.length) {
    index = new Map();
    for (let i = 0; i < nodes.length; i++) {
      index.set(nodes[i].id, i);
      if ((i + 1) % STEP === 0) yield;
    }
    indexes.set(nodes, index);
  }
  return index;
}
