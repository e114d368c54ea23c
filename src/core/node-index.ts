// Each node's position in its array, by id: one table per array, shared by what a pane draws (drawn.ts
// keeps the ids it draws) and its module groups (groups.ts indexes the same array), so a 100k-node graph
// hashes its ids once. Arrays are never changed once drawn (a snapshot is read-only).
import type { Id } from './types';

const indexes = new WeakMap<ReadonlyArray<{ id: Id }>, Map<Id, number>>();

/** id → index in `nodes` (the last one, should an id repeat). */
export function nodeIndex(nodes: ReadonlyArray<{ id: Id }>): Map<Id, number> {
  let index = indexes.get(nodes);
  if (!index || index.size > nodes.length) {
    index = new Map();
    for (let i = 0; i < nodes.length; i++) index.set(nodes[i].id, i);
    indexes.set(nodes, index);
  }
  return index;
}
