// Which nodes and edges a pane draws. One function, memoized per snapshot, so that render()'s module
// groups built ahead in slices (groups.ts prepareHierarchy, keyed by the nodes array) are the very ones
// GraphView then asks for: a copy of the array would miss them and group a 100k-node graph again in one task.
import { nodeIndex } from './node-index';
import type { Edge, GraphNode, Id, Snapshot } from './types';

export interface Drawn {
  nodes: GraphNode[];
  edges: Edge[];
  /** ids of `nodes` (→ their index) */
  keep: ReadonlyMap<Id, number>;
  /** a partial snapshot's boundary nodes (the neighbours the kernel sent along with a group: docs/protocol.md) */
  fixed: Set<Id>;
}

/** `_guards_fn`: the call_module torch.export adds to check input shapes (display rule: hidden unless focused). */
export function isGuards(n: GraphNode): boolean {
  return n.op === 'call_module' && n.target === '_guards_fn';
}

const unfocused = new WeakMap<Snapshot, Drawn>();

/** The focused nodes when a focus is given, else every node but `_guards_fn`; the edges between them. */
export function drawnGraph(snap: Snapshot, focus: ReadonlySet<Id> | null): Drawn {
  if (!focus) {
    const hit = unfocused.get(snap);
    if (hit) return hit;
  }
  const nodes = focus ? snap.nodes.filter((n) => focus.has(n.id)) : snap.nodes.filter((n) => !isGuards(n));
  const keep = nodeIndex(nodes);
  const edges = snap.edges.filter((e) => keep.has(e.src) && keep.has(e.dst));
  const partial = snap.meta.partial as { boundary?: unknown } | undefined;
  const fixed = new Set(Array.isArray(partial?.boundary) ? (partial.boundary as Id[]) : []);
  const d = { nodes, edges, keep, fixed };
  if (!focus) unfocused.set(snap, d);
  return d;
}
