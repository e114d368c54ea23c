// Which nodes and edges a pane draws. One function, memoized per snapshot, so that render()'s module
// groups built ahead in slices (groups.ts prepareHierarchy, keyed by the nodes array) are the very ones
// GraphView then asks for: a copy of the array would miss them and group a 100k-node graph again in one task.
import { nodeIndexSteps } from './node-index';
import { runSteps, runStepsInSlices } from './slicer';
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
  return runSteps(drawnSteps(snap, focus));
}

/** items between two chances to pause */
const STEP = 4096;

/** drawnGraph, pausing (yielding) every STEP nodes or edges (100k nodes: ~50 ms of id hashing in one task). */
function* drawnSteps(snap: Snapshot, focus: ReadonlySet<Id> | null): Generator<void, Drawn> {
  const nodes: GraphNode[] = [];
  for (let i = 0; i < snap.nodes.length; i++) {
    const n = snap.nodes[i];
    if (focus ? focus.has(n.id) : !isGuards(n)) nodes.push(n);
    if ((i + 1) % STEP === 0) yield;
  }
  const keep = yield* nodeIndexSteps(nodes);
  const edges: Edge[] = [];
  for (let k = 0; k < snap.edges.length; k++) {
    const e = snap.edges[k];
    if (keep.has(e.src) && keep.has(e.dst)) edges.push(e);
    if ((k + 1) % STEP === 0) yield;
  }
  const partial = snap.meta.partial as { boundary?: unknown } | undefined;
  const fixed = new Set(Array.isArray(partial?.boundary) ? (partial.boundary as Id[]) : []);
  const d = { nodes, edges, keep, fixed };
  if (!focus) unfocused.set(snap, d);
  return d;
}

/** drawnGraph(snap, null) in page tasks of ~sliceMs (`pause` ends one), for render() to prepare a big pane. */
export async function prepareDrawn(snap: Snapshot, pause: () => Promise<void>, sliceMs = 25): Promise<Drawn> {
  const hit = unfocused.get(snap);
  if (hit) return hit;
  return runStepsInSlices(drawnSteps(snap, null), pause, sliceMs);
}
