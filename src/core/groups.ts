// Module hierarchy for display: groups from each node's module_stack (as given by the JSON), plus two
// display-only rules: a leaf module holding one node is drawn as that node, and a group with more than
// MAX_CHILDREN children is split into numbered sections so no single layout call gets too big.
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

export const itemKey = (it: Item): string => (it.kind === 'node' ? `n:${it.id}` : `g:${it.group.key}`);
export const nodeKey = (id: Id): string => `n:${id}`;
export const groupKey = (key: string): string => `g:${key}`;

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

/** Node ids as indices 0..n-1 (the first node of an id), then any other id an edge names; edges as two index
 * arrays and each index's consumers as one flat list (CSR): 100k-node graphs make no Map or array per node. */
interface Indexed {
  n: number;
  /** index of each node's id (its first node's, when ids repeat) */
  first: Int32Array;
  src: Int32Array;
  dst: Int32Array;
  /** consumers of index i: usersOf[usersAt[i] .. usersAt[i + 1]) in edge order */
  usersAt: Int32Array;
  usersOf: Int32Array;
  ids: Id[];
  index: Map<Id, number>;
}

function* indexed(nodes: GroupedNode[], edges: GroupedEdge[]): Generator<void, Indexed> {
  const index = new Map<Id, number>();
  const ids: Id[] = [];
  const first = new Int32Array(nodes.length);
  for (let i = 0; i < nodes.length; i++) {
    if (i % STEP === 0) yield;
    let k = index.get(nodes[i].id);
    if (k === undefined) {
      k = ids.length;
      index.set(nodes[i].id, k);
      ids.push(nodes[i].id);
    }
    first[i] = k;
  }
  const of = (id: Id): number => {
    let k = index.get(id);
    if (k === undefined) {
      k = ids.length;
      index.set(id, k);
      ids.push(id);
    }
    return k;
  };
  const src = new Int32Array(edges.length);
  const dst = new Int32Array(edges.length);
  for (let j = 0; j < edges.length; j++) {
    if (j % STEP === 0) yield;
    src[j] = of(edges[j].src);
    dst[j] = of(edges[j].dst);
  }
  const usersAt = new Int32Array(ids.length + 1);
  for (let j = 0; j < edges.length; j++) usersAt[src[j] + 1]++;
  for (let i = 0; i < ids.length; i++) usersAt[i + 1] += usersAt[i];
  const fill = usersAt.slice(0, ids.length);
  const usersOf = new Int32Array(edges.length);
  for (let j = 0; j < edges.length; j++) usersOf[fill[src[j]]++] = dst[j];
  return { n: nodes.length, first, src, dst, usersAt, usersOf, ids, index };
}

type Stack = ReadonlyArray<readonly [string, string]>;
const NO_STACK: Stack = [];

/** Display placement: a node without module stack (weights, observers, q/dq) sits with its consumers,
 * unless it is `fixed` (a partial graph's boundary: context, whose consumers are not all there).
 * Indexed by id index (an id no node has keeps no stack). */
function* displayStacks(nodes: GroupedNode[], ix: Indexed, fixed: ReadonlySet<Id>): Generator<void, Stack[]> {
  const stacks: Stack[] = new Array(ix.ids.length).fill(NO_STACK);
  for (let i = nodes.length - 1; i >= 0; i--) {
    if (i % STEP === 0) yield;
    const n = nodes[i];
    let st: Stack = n.module_stack ?? NO_STACK;
    const movable = n.role === 'param' || n.role === 'observer' || n.role === 'quantize' || n.role === 'dequantize';
    const k = ix.first[i];
    if (st.length === 0 && movable && !fixed.has(n.id)) {
      let common: Array<readonly [string, string]> | null = null;
      for (let u = ix.usersAt[k]; u < ix.usersAt[k + 1]; u++) {
        const us2 = stacks[ix.usersOf[u]];
        if (common === null) common = us2.slice();
        else {
          let m = 0;
          while (m < common.length && m < us2.length && common[m][0] === us2[m][0]) m++;
          common.length = m;
        }
        if (common.length === 0) break;
      }
      if (common) st = common;
    }
    stacks[k] = st;
  }
  return stacks;
}

function split(g: Group, groups: Map<string, Group>): void {
  for (const it of g.children) if (it.kind === 'group') split(it.group, groups);
  while (g.children.length > MAX_CHILDREN) {
    const chunks: Item[][] = [];
    for (let i = 0; i < g.children.length; i += MAX_CHILDREN) chunks.push(g.children.slice(i, i + MAX_CHILDREN));
    const level = g.depth + 1;
    g.children = chunks.map((chunk, ci) => {
      const key = `${g.key}#${level}.${ci}.${groups.size}`;
      const name = (it: Item): string => (it.kind === 'node' ? it.id : it.group.label);
      const span = `${name(chunk[0])} … ${name(chunk[chunk.length - 1])}`;
      const sec = newGroup(key, `§${ci + 1}/${chunks.length}: ${span}`, `${chunk.length} items`, g, true);
      sec.children = chunk;
      groups.set(key, sec);
      return { kind: 'group' as const, group: sec };
    });
  }
}

function fixParents(g: Group, parentOf: Map<Id, Group>): number {
  let total = 0;
  for (const it of g.children) {
    if (it.kind === 'node') {
      parentOf.set(it.id, g);
      total += 1;
    } else {
      it.group.parent = g;
      it.group.depth = g.depth + 1;
      total += fixParents(it.group, parentOf);
    }
  }
  g.total = total;
  return total;
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
  const steps = hierarchySteps(nodes, edges, fixed);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
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
): Promise<void> {
  const steps = hierarchySteps(nodes, edges, fixed);
  let t0 = performance.now();
  for (;;) {
    const r = steps.next();
    if (r.done) {
      prepared.set(nodes, { edges: edges.length, fixed: fixed.size, h: r.value });
      return;
    }
    if (performance.now() - t0 > sliceMs) {
      await pause();
      t0 = performance.now();
    }
  }
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
  const groups = new Map<string, Group>([['', root]]);
  let last: Stack | null = null;
  let lastGroup = root;
  for (let i = 0; i < nodes.length; i++) {
    if (i % STEP === 0) yield;
    const st = stacks[ix.first[i]];
    // runs of nodes in one module: the walk from the root ends where the previous node's did
    let g = root;
    if (last !== null && samePaths(st, last)) g = lastGroup;
    else
      for (const [path, cls] of st) {
        let child = groups.get(path);
        if (!child) {
          const label = path.startsWith(`${g.path}.`) && g.path ? path.slice(g.path.length + 1) : path;
          child = newGroup(path, label, cls, g);
          groups.set(path, child);
          g.children.push({ kind: 'group', group: child });
        }
        g = child;
      }
    last = st;
    lastGroup = g;
    g.children.push({ kind: 'node', id: nodes[i].id });
  }
  // A leaf module holding a single node is shown as that node; so are the nodes of a leaf module called
  // several times with no edge between the calls (a reused nn.ReLU), which would otherwise tie distant
  // parts of the graph into one box.
  const connected = (ids: Id[]): boolean => {
    const set = new Set(ids);
    for (const a of ids) {
      const k = ix.index.get(a)!;
      for (let u = ix.usersAt[k]; u < ix.usersAt[k + 1]; u++) {
        const b = ix.ids[ix.usersOf[u]];
        if (a !== b && set.has(b)) return true;
      }
    }
    return false;
  };
  // a generator (a pause after each group): 100k nodes hold ~10k groups, too many for one page task
  const dissolve = function* (g: Group): Generator<void, void> {
    const out: Item[] = [];
    for (const it of g.children) {
      if (it.kind === 'group') {
        yield* dissolve(it.group);
        yield;
        const c = it.group.children;
        const leaf = c.every((x) => x.kind === 'node');
        if (leaf && (c.length === 1 || (c.length <= 32 && !connected(c.map((x) => (x as { id: Id }).id))))) {
          groups.delete(it.group.key);
          out.push(...c);
          continue;
        }
      }
      out.push(it);
    }
    g.children = out;
  };
  yield* dissolve(root);
  yield;
  split(root, groups);
  const parentOf = new Map<Id, Group>();
  fixParents(root, parentOf);
  yield;
  const stubbed = yield* stubbedSources(ix, parentOf);
  const edgesAt = yield* edgesByGroup(ix, parentOf, stubbed);
  return { root, groups, parentOf, edgesAt, stubbed };
}

function samePaths(a: Stack, b: Stack): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let m = 0; m < a.length; m++) if (a[m][0] !== b[m][0]) return false;
  return true;
}

/** Producers feeding at least STUB_FANOUT distinct consumers in 3+ groups, in order of their first edge. */
function* stubbedSources(ix: Indexed, parentOf: Map<Id, Group>): Generator<void, Set<Id>> {
  const stubbed = new Set<Id>();
  const seen = new Uint8Array(ix.ids.length);
  for (let j = 0; j < ix.src.length; j++) {
    if (j % STEP === 0) yield;
    const k = ix.src[j];
    if (seen[k]) continue;
    seen[k] = 1;
    if (ix.usersAt[k + 1] - ix.usersAt[k] < STUB_FANOUT) continue; // fewer edges than that: fewer consumers
    const consumers = new Set<number>();
    for (let u = ix.usersAt[k]; u < ix.usersAt[k + 1]; u++) consumers.add(ix.usersOf[u]);
    if (consumers.size < STUB_FANOUT) continue;
    const parents = new Set([...consumers].map((d) => parentOf.get(ix.ids[d])));
    if (parents.size >= 3) stubbed.add(ix.ids[k]);
  }
  return stubbed;
}

/** A group's ancestry from the root down, with each level's item key and a number naming the item. */
interface Chain {
  groups: Group[];
  keys: string[];
  codes: number[];
}

/** Each edge belongs to the layout of the lowest group holding both ends: per group key, its edges between
 * two distinct children (item keys), once each, in edge order. */
function* edgesByGroup(
  ix: Indexed,
  parentOf: Map<Id, Group>,
  stubbed: Set<Id>,
): Generator<void, Map<string, Array<[string, string]>>> {
  const parent: Array<Group | undefined> = new Array(ix.ids.length);
  for (let k = 0; k < ix.ids.length; k++) {
    if (k % STEP === 0) yield;
    parent[k] = parentOf.get(ix.ids[k]);
  }
  const isStub = new Uint8Array(ix.ids.length);
  for (const id of stubbed) isStub[ix.index.get(id)!] = 1;
  // items are numbered: id indices first, then the groups (by first use)
  const chains = new Map<Group, Chain>();
  const chainOf = (g: Group): Chain => {
    let c = chains.get(g);
    if (!c) {
      const up = g.parent ? chainOf(g.parent) : { groups: [], keys: [], codes: [] };
      c = {
        groups: [...up.groups, g],
        keys: [...up.keys, groupKey(g.key)],
        codes: [...up.codes, ix.ids.length + chains.size],
      };
      chains.set(g, c);
    }
    return c;
  };
  const nodeKeys: string[] = new Array(ix.ids.length);
  const keyOfNode = (k: number): string => {
    let s = nodeKeys[k];
    if (s === undefined) {
      s = nodeKey(ix.ids[k]);
      nodeKeys[k] = s;
    }
    return s;
  };
  const edgesAt = new Map<string, Array<[string, string]>>();
  // the pairs already listed, per first item: (a, b) determine their group (a's parent), so no key holds it
  const listed = new Map<number, number[] | Set<number>>();
  for (let j = 0; j < ix.src.length; j++) {
    if (j % STEP === 0) yield;
    const s = ix.src[j];
    const d = ix.dst[j];
    const ps = parent[s];
    const pd = parent[d];
    if (!ps || !pd || s === d || isStub[s]) continue;
    const a = chainOf(ps);
    const b = chainOf(pd);
    let m = 0;
    while (m < a.groups.length && m < b.groups.length && a.groups[m] === b.groups[m]) m++;
    const lca = a.groups[m - 1];
    const ca = m < a.groups.length ? a.codes[m] : s;
    const cb = m < b.groups.length ? b.codes[m] : d;
    if (ca === cb) continue;
    let done = listed.get(ca);
    if (done === undefined) {
      done = [];
      listed.set(ca, done);
    }
    if (Array.isArray(done) ? done.includes(cb) : done.has(cb)) continue;
    if (Array.isArray(done) && done.length >= 16) listed.set(ca, new Set([...done, cb]));
    else if (Array.isArray(done)) done.push(cb);
    else done.add(cb);
    let list = edgesAt.get(lca.key);
    if (!list) {
      list = [];
      edgesAt.set(lca.key, list);
    }
    list.push([m < a.groups.length ? a.keys[m] : keyOfNode(s), m < b.groups.length ? b.keys[m] : keyOfNode(d)]);
  }
  return edgesAt;
}

const chainCache = new WeakMap<Hierarchy, Map<Id, Group[]>>();

/** The two children of the lowest common group of a and b that hold them (item keys), or null. */
export function lcaItems(h: Hierarchy, a: Id, b: Id): [string, string] | null {
  let cache = chainCache.get(h);
  if (!cache) {
    cache = new Map();
    chainCache.set(h, cache);
  }
  const chainOf = (id: Id): Group[] | null => {
    let c = cache!.get(id);
    if (!c) {
      if (!h.parentOf.has(id)) return null;
      c = [];
      for (let g: Group | null = h.parentOf.get(id)!; g; g = g.parent) c.push(g);
      c.reverse();
      cache!.set(id, c);
    }
    return c;
  };
  const ca = chainOf(a);
  const cb = chainOf(b);
  if (!ca || !cb || a === b) return null;
  let k = 0;
  while (k < ca.length && k < cb.length && ca[k] === cb[k]) k++;
  const ka = k < ca.length ? groupKey(ca[k].key) : nodeKey(a);
  const kb = k < cb.length ? groupKey(cb[k].key) : nodeKey(b);
  return ka === kb ? null : [ka, kb];
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
