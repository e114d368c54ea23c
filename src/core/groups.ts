// Module hierarchy for display: groups from each node's module_stack (as given by the JSON), plus two
// display-only rules: a leaf module holding one node is drawn as that node, and a group with more than
// MAX_CHILDREN children is split into numbered sections so no single layout call gets too big.
import { nodeIndex } from './node-index';
import { PairSet } from './pair-set';
import { runSteps, runStepsInSlices } from './slicer';
import type { Edge, GraphNode, Id } from './types';

export const MAX_CHILDREN = 400;
/** A node feeding at least this many consumers spread over 3+ groups is drawn with stubs, not long edges. */
export const STUB_FANOUT = 8;

export interface Group {
  key: string;
  label: string;
  path: string;
  cls: string;
  parent: Group | null;
  depth: number;
  children: Item[];
  total: number;
  synthetic: boolean;
}

export type Item = { kind: 'node'; id: Id } | { kind: 'group'; group: Group };

export interface Hierarchy {
  root: Group;
  groups: Map<string, Group>;
  /** Direct parent group of each node. */
  parentOf: Map<Id, Group>;
  /** For each group key, its internal edges between distinct children, as item keys (deduplicated). */
  edgesAt: Map<string, Array<[string, string]>>;
  /** widely shared producers (a mask, a shared constant): their edges are left out of layout, drawn as stubs */
  stubbed: Set<Id>;
}

/** A placed box's key: `n:<node id>` for a node, `g:<group key>` for a closed or open group. Made and read only
 * here (nodeKey / groupKey / itemKey, isNodeKey / isGroupKey / groupOfKey), so no other file parses a prefix. */
export type NodeKey = `n:${string}`;
export type GroupKey = `g:${string}`;
export type BoxKey = NodeKey | GroupKey;
export const nodeKey = (id: Id): NodeKey => `n:${id}`;
export const groupKey = (key: string): GroupKey => `g:${key}`;
export const itemKey = (it: Item): BoxKey => (it.kind === 'node' ? nodeKey(it.id) : groupKey(it.group.key));
/** Whether a box key is a node's (a node drawn as itself, not inside a closed group). */
export const isNodeKey = (k: string): k is NodeKey => k.startsWith('n:');
/** Whether a box key is a group's. */
export const isGroupKey = (k: string): k is GroupKey => k.startsWith('g:');
/** The group key a group's box key is made from. */
export const groupOfKey = (k: GroupKey): string => k.slice(2);

const keysOf = new WeakMap<Group, string[]>();

/** A group's children as item keys, in order: made once per group, so a redraw's maps of 100k boxes reuse the
 * same strings instead of making each anew. */
export function childKeys(g: Group): string[] {
  let keys = keysOf.get(g);
  if (!keys) {
    keys = g.children.map(itemKey);
    keysOf.set(g, keys);
  }
  return keys;
}

function newGroup(key: string, label: string, cls: string, parent: Group | null, synthetic = false): Group {
  return {
    key,
    label,
    path: key,
    cls,
    parent,
    depth: parent ? parent.depth + 1 : 0,
    children: [],
    total: 0,
    synthetic,
  };
}

/** What grouping reads of a node and an edge (the panel groups a kernel's outline with these alone). */
export type GroupedNode = Pick<GraphNode, 'id' | 'role' | 'module_stack'>;
export type GroupedEdge = Pick<Edge, 'src' | 'dst'>;

/** Node indices and edges as index arrays: the passes below look a node up by its id once, not per use. */
interface Indexed {
  index: Map<Id, number>;
  /** each edge's src and dst as node indices (-1: not a node of `nodes`) */
  src: Int32Array;
  dst: Int32Array;
  /** the out-edges of node i (edge indices, in order): out[from[i] .. from[i + 1]) */
  from: Int32Array;
  out: Int32Array;
}

function* indexed(nodes: GroupedNode[], edges: GroupedEdge[]): Generator<void, Indexed> {
  const index = nodeIndex(nodes);
  const src = new Int32Array(edges.length);
  const dst = new Int32Array(edges.length);
  const from = new Int32Array(nodes.length + 1);
  for (let k = 0; k < edges.length; k++) {
    if ((k + 1) % STEP === 0) yield;
    const s = index.get(edges[k].src) ?? -1;
    src[k] = s;
    dst[k] = index.get(edges[k].dst) ?? -1;
    if (s >= 0) from[s + 1]++;
  }
  for (let i = 0; i < nodes.length; i++) from[i + 1] += from[i];
  const fill = from.slice(0, nodes.length);
  const out = new Int32Array(from[nodes.length]);
  for (let k = 0; k < edges.length; k++) if (src[k] >= 0) out[fill[src[k]]++] = k;
  return { index, src, dst, from, out };
}

const NO_STACK: Array<[string, string]> = [];

/** Display placement: a node without module stack (weights, observers, q/dq) sits with its consumers,
 * unless it is `fixed` (a partial graph's boundary: context, whose consumers are not all there). */
function* displayStacks(
  nodes: GroupedNode[],
  ix: Indexed,
  fixed: ReadonlySet<Id>,
): Generator<void, Array<Array<[string, string]>>> {
  // stacks[i] stays undefined until node i is placed: a consumer placed later (or no node) counts as no stack
  const stacks: Array<Array<[string, string]> | undefined> = new Array(nodes.length);
  for (let i = nodes.length - 1; i >= 0; i--) {
    if ((i + 1) % STEP === 0) yield;
    const n = nodes[i];
    let st = n.module_stack ?? NO_STACK;
    const movable = n.role === 'param' || n.role === 'observer' || n.role === 'quantize' || n.role === 'dequantize';
    if (st.length === 0 && movable && !fixed.has(n.id)) {
      let common: Array<[string, string]> | null = null;
      for (let k = ix.from[i]; k < ix.from[i + 1]; k++) {
        const u = ix.dst[ix.out[k]];
        const us2 = (u >= 0 ? stacks[u] : undefined) ?? NO_STACK;
        if (common === null) common = us2.slice();
        else {
          let c = 0;
          while (c < common.length && c < us2.length && common[c][0] === us2[c][0]) c++;
          common.length = c;
        }
        if (common.length === 0) break;
      }
      if (common) st = common;
    }
    stacks[i] = st;
  }
  return stacks as Array<Array<[string, string]>>;
}

/** The node children of each group as node indices, in the order of its node items. */
type Kids = Map<Group, number[]>;

function split(g: Group, groups: Map<string, Group>, kids: Kids): void {
  for (const it of g.children) if (it.kind === 'group') split(it.group, groups, kids);
  while (g.children.length > MAX_CHILDREN) {
    const chunks: Item[][] = [];
    for (let i = 0; i < g.children.length; i += MAX_CHILDREN) chunks.push(g.children.slice(i, i + MAX_CHILDREN));
    const level = g.depth + 1;
    const mine = kids.get(g) ?? [];
    let p = 0;
    g.children = chunks.map((chunk, ci) => {
      const key = `${g.key}#${level}.${ci}.${groups.size}`;
      const name = (it: Item): string => (it.kind === 'node' ? it.id : it.group.label);
      const span = `${name(chunk[0])} … ${name(chunk[chunk.length - 1])}`;
      const sec = newGroup(key, `§${ci + 1}/${chunks.length}: ${span}`, `${chunk.length} items`, g, true);
      sec.children = chunk;
      let n = 0;
      for (const it of chunk) if (it.kind === 'node') n++;
      kids.set(sec, mine.slice(p, p + n));
      p += n;
      groups.set(key, sec);
      return { kind: 'group' as const, group: sec };
    });
    kids.set(g, []);
  }
}

/** Parents, depths and totals from the children lists, depth first in item order (parentOf's order is the
 * nodes' drawing order), with a chance to pause every STEP items: 100k nodes, ~60k groups. */
function* fixParents(root: Group, parentOf: Map<Id, Group>, kids: Kids, parents: Group[]): Generator<void, void> {
  type Frame = { g: Group; i: number; p: number; mine: number[]; total: number };
  const frame = (g: Group): Frame => ({ g, i: 0, p: 0, mine: kids.get(g) ?? [], total: 0 });
  const stack: Frame[] = [frame(root)];
  let n = 0;
  while (stack.length) {
    const f = stack[stack.length - 1];
    if (f.i >= f.g.children.length) {
      stack.pop();
      f.g.total = f.total;
      if (stack.length) stack[stack.length - 1].total += f.total;
      continue;
    }
    if (++n % STEP === 0) yield;
    const it = f.g.children[f.i++];
    if (it.kind === 'node') {
      parentOf.set(it.id, f.g);
      parents[f.mine[f.p++]] = f.g;
      f.total += 1;
    } else {
      it.group.parent = f.g;
      it.group.depth = f.g.depth + 1;
      stack.push(frame(it.group));
    }
  }
}

/** The one module-grouping rule of pt2e-lens (the panel's group counts come from it too). */
export function buildHierarchy(
  nodes: GroupedNode[],
  edges: GroupedEdge[],
  fixed: ReadonlySet<Id> = new Set(),
): Hierarchy {
  const ready = prepared.get(nodes);
  if (ready && ready.edges === edges.length && ready.fixed === fixed.size) {
    prepared.delete(nodes);
    return ready.h;
  }
  return runSteps(hierarchySteps(nodes, edges, fixed));
}

/** Hierarchies built ahead in slices (`prepareHierarchy`), taken by the next `buildHierarchy` of the same
 * nodes array (with as many edges and fixed nodes), once. */
const prepared = new WeakMap<GroupedNode[], { edges: number; fixed: number; h: Hierarchy }>();

/** Build the hierarchy of a big graph over several page tasks of ~sliceMs each (`pause` ends one), so that
 * the `buildHierarchy` call drawing it finds it ready. Same result as `buildHierarchy`. */
export async function prepareHierarchy(
  nodes: GroupedNode[],
  edges: GroupedEdge[],
  fixed: ReadonlySet<Id>,
  pause: () => Promise<void>,
  sliceMs = 25,
): Promise<Hierarchy> {
  const h = await runStepsInSlices(hierarchySteps(nodes, edges, fixed), pause, sliceMs);
  prepared.set(nodes, { edges: edges.length, fixed: fixed.size, h });
  return h;
}

/** Loop iterations between two chances to pause. */
const STEP = 1024;

function* hierarchySteps(
  nodes: GroupedNode[],
  edges: GroupedEdge[],
  fixed: ReadonlySet<Id>,
): Generator<void, Hierarchy> {
  const ix = yield* indexed(nodes, edges);
  const stacks = yield* displayStacks(nodes, ix, fixed);
  const root = newGroup('', '', '', null);
  const byPath = new Map<string, Group>([['', root]]);
  const created: Group[] = [root];
  // the node children of each group as node indices (kept along through dissolve: `connected` reads them)
  const kids = new Map<Group, number[]>([[root, []]]);
  // consecutive nodes mostly share their module path: the groups of the previous node's stack, by depth,
  // spare a lookup by path (a path names one group, wherever it appears)
  const lastPath: string[] = [];
  const lastGroup: Group[] = [];
  let lastKids = kids.get(root) as number[];
  let lastOwner = root;
  for (let i = 0; i < nodes.length; i++) {
    if ((i + 1) % STEP === 0) yield;
    const st = stacks[i];
    let g = root;
    for (let d = 0; d < st.length; d++) {
      const path = st[d][0];
      if (lastPath[d] === path) {
        g = lastGroup[d];
        continue;
      }
      let child = byPath.get(path);
      if (!child) {
        const label = path.startsWith(`${g.path}.`) && g.path ? path.slice(g.path.length + 1) : path;
        child = newGroup(path, label, st[d][1], g);
        byPath.set(path, child);
        created.push(child);
        kids.set(child, []);
        g.children.push({ kind: 'group', group: child });
      }
      lastPath[d] = path;
      lastGroup[d] = child;
      lastPath.length = d + 1; // deeper levels belonged to another parent
      g = child;
    }
    if (lastPath.length > st.length) lastPath.length = st.length;
    g.children.push({ kind: 'node', id: nodes[i].id });
    if (g !== lastOwner) {
      lastOwner = g;
      lastKids = kids.get(g) as number[];
    }
    lastKids.push(i);
  }
  // A leaf module holding a single node is shown as that node; so are the nodes of a leaf module called
  // several times with no edge between the calls (a reused nn.ReLU), which would otherwise tie distant
  // parts of the graph into one box.
  const mark = new Int32Array(nodes.length);
  let stamp = 0;
  const connected = (ids: number[]): boolean => {
    stamp++;
    for (const a of ids) mark[a] = stamp;
    for (const a of ids) {
      for (let k = ix.from[a]; k < ix.from[a + 1]; k++) {
        const b = ix.dst[ix.out[k]];
        if (b >= 0 && b !== a && mark[b] === stamp) return true;
      }
    }
    return false;
  };
  const gone = new Set<Group>();
  // a generator (a chance to pause every 64 groups): 100k nodes hold ~60k groups, too many for one page task
  let visited = 0;
  const dissolve = function* (g: Group): Generator<void, void> {
    const out: Item[] = [];
    const was = kids.get(g) as number[];
    const mine: number[] = [];
    let p = 0;
    for (const it of g.children) {
      if (it.kind === 'group') {
        yield* dissolve(it.group);
        if (++visited % 64 === 0) yield;
        const c = it.group.children;
        const ids = kids.get(it.group) as number[];
        const leaf = ids.length === c.length; // only nodes
        if (leaf && (c.length === 1 || (c.length <= 32 && !connected(ids)))) {
          gone.add(it.group);
          for (const x of c) out.push(x);
          for (const a of ids) mine.push(a);
          continue;
        }
      } else mine.push(was[p++]);
      out.push(it);
    }
    g.children = out;
    kids.set(g, mine);
  };
  yield* dissolve(root);
  yield;
  const groups = new Map<string, Group>();
  for (const g of created) if (!gone.has(g)) groups.set(g.key, g);
  yield;
  split(root, groups, kids);
  yield;
  const parentOf = new Map<Id, Group>();
  const parents: Group[] = new Array(nodes.length);
  yield* fixParents(root, parentOf, kids, parents);
  yield;

  // A node feeding STUB_FANOUT+ distinct consumers in 3+ groups is stubbed (in order of its first edge).
  const stubbed = new Set<Id>();
  const spread = (consumers: Set<Id>): boolean =>
    consumers.size >= STUB_FANOUT && new Set([...consumers].map((d) => parentOf.get(d))).size >= 3;
  const looked = new Uint8Array(nodes.length);
  let other: Map<Id, Set<Id>> | null = null; // edges from ids that are not nodes (a kernel's partial outline)
  for (let k = 0; k < edges.length; k++) {
    if ((k + 1) % STEP === 0) yield;
    const s = ix.src[k];
    if (s < 0) {
      other ??= new Map();
      let c = other.get(edges[k].src);
      if (!c) {
        c = new Set();
        other.set(edges[k].src, c);
      }
      c.add(edges[k].dst);
      continue;
    }
    if (looked[s] || ix.from[s + 1] - ix.from[s] < STUB_FANOUT) continue;
    looked[s] = 1;
    const c = new Set<Id>();
    for (let j = ix.from[s]; j < ix.from[s + 1]; j++) c.add(edges[ix.out[j]].dst);
    if (spread(c)) stubbed.add(edges[k].src);
  }
  for (const [src, c] of other ?? []) if (spread(c)) stubbed.add(src);

  // Each edge belongs to the layout of the lowest group holding both ends, as the two children of that
  // group that hold them (deduplicated).
  const edgesAt = new Map<string, Array<[string, string]>>();
  // an item as a number (a node: its index, a group: after them) for a pair's signature
  const number = new Map<Group, number>();
  for (const g of groups.values()) number.set(g, nodes.length + number.size);
  yield;
  const seen = new PairSet(edges.length);
  const keyOf = (x: Group | number): string => (typeof x === 'number' ? nodeKey(nodes[x].id) : groupKey(x.key));
  const numberOf = (x: Group | number): number => (typeof x === 'number' ? x : (number.get(x) as number));
  for (let k = 0; k < edges.length; k++) {
    if ((k + 1) % STEP === 0) yield;
    const s = ix.src[k];
    const t = ix.dst[k];
    if (s < 0 || t < 0 || s === t || stubbed.has(edges[k].src)) continue;
    const m = meet(parents[s] as Group, parents[t] as Group);
    const a: Group | number = m.a ?? s;
    const b: Group | number = m.b ?? t;
    if (a === b) continue;
    // the two items name their lowest common group: the pair alone tells a repeat
    if (!seen.add(numberOf(a), numberOf(b))) continue;
    const ka = keyOf(a);
    const kb = keyOf(b);
    let list = edgesAt.get(m.at.key);
    if (!list) {
      list = [];
      edgesAt.set(m.at.key, list);
    }
    list.push([ka, kb]);
  }
  return { root, groups, parentOf, edgesAt, stubbed };
}

/** The lowest common group of two nodes whose groups are `ga` and `gb`, and its children that hold each node
 * (null: the node itself sits in it). A climb by depth: no chain of ancestors is built per node. */
function meet(ga: Group, gb: Group): { at: Group; a: Group | null; b: Group | null } {
  let a: Group | null = null;
  let b: Group | null = null;
  while (ga.depth > gb.depth) {
    a = ga;
    ga = ga.parent as Group;
  }
  while (gb.depth > ga.depth) {
    b = gb;
    gb = gb.parent as Group;
  }
  while (ga !== gb) {
    a = ga;
    ga = ga.parent as Group;
    b = gb;
    gb = gb.parent as Group;
  }
  return { at: ga, a, b };
}

/** The lowest common group of a and b (`at`) and its two children that hold them (item keys), or null. */
export function lcaItems(h: Hierarchy, a: Id, b: Id): { at: Group; ka: string; kb: string } | null {
  const ga = h.parentOf.get(a);
  const gb = h.parentOf.get(b);
  if (!ga || !gb || a === b) return null;
  const m = meet(ga, gb);
  const ka = m.a ? groupKey(m.a.key) : nodeKey(a);
  const kb = m.b ? groupKey(m.b.key) : nodeKey(b);
  return ka === kb ? null : { at: m.at, ka, kb };
}

/** Groups of a node from outermost (excluding root) to its direct parent. */
export function ancestors(h: Hierarchy, id: Id): Group[] {
  const out: Group[] = [];
  for (let g = h.parentOf.get(id) ?? null; g?.parent; g = g.parent) out.push(g);
  return out.reverse();
}

/** What stands for a node on screen: the node itself, or its outermost collapsed group. */
export function representative(h: Hierarchy, expanded: Set<string>, id: Id): string {
  for (const g of ancestors(h, id)) if (!expanded.has(g.key)) return groupKey(g.key);
  return nodeKey(id);
}

/** Initial expansion: everything for small graphs, else only the root (top-level groups as boxes),
 * following a lone top-level group down while it is a single chain. */
export function initialExpanded(h: Hierarchy, nodeCount: number, threshold: number): Set<string> {
  const ex = new Set<string>(['']);
  if (nodeCount <= threshold) {
    for (const k of h.groups.keys()) ex.add(k);
    return ex;
  }
  let g = h.root;
  while (g.children.length === 1 && g.children[0].kind === 'group') {
    g = g.children[0].group;
    ex.add(g.key);
  }
  return ex;
}
