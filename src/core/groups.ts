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

/** Display placement: a node without module stack (weights, observers, q/dq) sits with its consumers,
 * unless it is `fixed` (a partial graph's boundary: context, whose consumers are not all there). */
function* displayStacks(
  nodes: GroupedNode[],
  edges: GroupedEdge[],
  fixed: ReadonlySet<Id>,
): Generator<void, { stacks: Map<Id, Array<[string, string]>>; users: Map<Id, Id[]> }> {
  const users = new Map<Id, Id[]>();
  let step = 0;
  for (const e of edges) {
    if (++step % STEP === 0) yield;
    let u = users.get(e.src);
    if (!u) {
      u = [];
      users.set(e.src, u);
    }
    u.push(e.dst);
  }
  const stacks = new Map<Id, Array<[string, string]>>();
  for (let i = nodes.length - 1; i >= 0; i--) {
    if (++step % STEP === 0) yield;
    const n = nodes[i];
    let st = n.module_stack ?? [];
    const movable = n.role === 'param' || n.role === 'observer' || n.role === 'quantize' || n.role === 'dequantize';
    if (st.length === 0 && movable && !fixed.has(n.id)) {
      const us = users.get(n.id) ?? [];
      let common: Array<[string, string]> | null = null;
      for (const u of us) {
        const us2 = stacks.get(u) ?? [];
        if (common === null) common = us2.slice();
        else {
          let k = 0;
          while (k < common.length && k < us2.length && common[k][0] === us2[k][0]) k++;
          common.length = k;
        }
        if (common.length === 0) break;
      }
      if (common) st = common;
    }
    stacks.set(n.id, st);
  }
  return { stacks, users };
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
  const { stacks, users } = yield* displayStacks(nodes, edges, fixed);
  const root = newGroup('', '', '', null);
  const groups = new Map<string, Group>([['', root]]);
  let step = 0;
  for (const n of nodes) {
    if (++step % STEP === 0) yield;
    let g = root;
    for (const [path, cls] of stacks.get(n.id) ?? []) {
      let child = groups.get(path);
      if (!child) {
        const label = path.startsWith(`${g.path}.`) && g.path ? path.slice(g.path.length + 1) : path;
        child = newGroup(path, label, cls, g);
        groups.set(path, child);
        g.children.push({ kind: 'group', group: child });
      }
      g = child;
    }
    g.children.push({ kind: 'node', id: n.id });
  }
  // A leaf module holding a single node is shown as that node; so are the nodes of a leaf module called
  // several times with no edge between the calls (a reused nn.ReLU), which would otherwise tie distant
  // parts of the graph into one box.
  const connected = (ids: Id[]): boolean => {
    const set = new Set(ids);
    for (const a of ids) for (const b of users.get(a) ?? []) if (a !== b && set.has(b)) return true;
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

  // Each edge belongs to the layout of the lowest group holding both ends.
  const edgesAt = new Map<string, Array<[string, string]>>();
  const seen = new Set<string>();
  const chain = (id: Id): Group[] => {
    const c: Group[] = [];
    for (let g: Group | null = parentOf.get(id) ?? null; g; g = g.parent) c.push(g);
    return c.reverse();
  };
  const chains = new Map<Id, Group[]>();
  const chainOf = (id: Id): Group[] => {
    let c = chains.get(id);
    if (!c) {
      c = chain(id);
      chains.set(id, c);
    }
    return c;
  };
  const consumers = new Map<Id, Set<Id>>();
  for (const e of edges) {
    if (++step % STEP === 0) yield;
    let c = consumers.get(e.src);
    if (!c) {
      c = new Set();
      consumers.set(e.src, c);
    }
    c.add(e.dst);
  }
  const stubbed = new Set<Id>();
  for (const [src, c] of consumers) {
    if (c.size < STUB_FANOUT) continue;
    const parents = new Set([...c].map((d) => parentOf.get(d)));
    if (parents.size >= 3) stubbed.add(src);
  }
  for (const e of edges) {
    if (++step % STEP === 0) yield;
    if (!parentOf.has(e.src) || !parentOf.has(e.dst) || e.src === e.dst || stubbed.has(e.src)) continue;
    const a = chainOf(e.src);
    const b = chainOf(e.dst);
    let k = 0;
    while (k < a.length && k < b.length && a[k] === b[k]) k++;
    const lca = a[k - 1];
    const ka = k < a.length ? groupKey(a[k].key) : nodeKey(e.src);
    const kb = k < b.length ? groupKey(b[k].key) : nodeKey(e.dst);
    if (ka === kb) continue;
    const sig = `${lca.key}\u0000${ka}\u0000${kb}`;
    if (seen.has(sig)) continue;
    seen.add(sig);
    let list = edgesAt.get(lca.key);
    if (!list) {
      list = [];
      edgesAt.set(lca.key, list);
    }
    list.push([ka, kb]);
  }
  return { root, groups, parentOf, edgesAt, stubbed };
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
