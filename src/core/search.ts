// The search box's query: words match a node's name or op; `key:value` terms filter by what the JSON says —
// role, module, sharing group, dtype, annotating quantizer — and `<name><op><number>` by the pane's overlay
// (`sqnr<30`). Every term must hold. Pure: reads the snapshot's facts, derives nothing.
import type { Facts } from './facts';
import type { Heat } from './heat';
import type { GraphNode, Id } from './types';

export type Filter =
  | { key: 'role' | 'module' | 'group' | 'dtype' | 'quantizer'; value: string }
  | { key: 'overlay'; name: string; op: '<' | '<=' | '>' | '>='; value: number };

export interface Query {
  words: string[];
  filters: Filter[];
}

const KEYS = new Set(['role', 'module', 'group', 'dtype', 'quantizer']);
const MEASURE = /^([a-z][\w-]*)(<=|>=|<|>)(-?\d+(?:\.\d+)?)$/;

export function parseQuery(q: string): Query {
  const out: Query = { words: [], filters: [] };
  for (const tok of q.trim().toLowerCase().split(/\s+/)) {
    if (!tok) continue;
    const m = MEASURE.exec(tok);
    if (m) {
      out.filters.push({ key: 'overlay', name: m[1], op: m[2] as '<', value: Number(m[3]) });
      continue;
    }
    const i = tok.indexOf(':');
    const key = i > 0 ? tok.slice(0, i) : '';
    if (KEYS.has(key) && i < tok.length - 1) out.filters.push({ key: key as 'role', value: tok.slice(i + 1) });
    else out.words.push(tok);
  }
  return out;
}

function groupsOf(n: GraphNode, f: Facts): number[] {
  const own = f.observerOf(n.id);
  return [...(own ? [own] : []), ...(f.observedBy.get(n.id) ?? [])].map((o) => o.group);
}

function holds(flt: Filter, n: GraphNode, f: Facts, heat: Heat | null): boolean {
  switch (flt.key) {
    case 'role':
      return n.role.startsWith(flt.value);
    case 'module':
      return n.module_stack.some(([p]) => p.toLowerCase() === flt.value || p.toLowerCase().startsWith(`${flt.value}.`));
    case 'group':
      return groupsOf(n, f).some((g) => String(g) === flt.value);
    case 'dtype': {
      const q = f.qdq.get(n.id);
      return [n.dtype, q?.dtype].some((d) => d?.toLowerCase().includes(flt.value));
    }
    case 'quantizer':
      return f.annotation.get(n.id)?.quantizer?.toLowerCase().includes(flt.value) ?? false;
    case 'overlay': {
      if (!heat || heat.overlay.name.toLowerCase() !== flt.name) return false;
      const v = heat.value(n.id);
      if (v === null) return false;
      return flt.op === '<'
        ? v < flt.value
        : flt.op === '<='
          ? v <= flt.value
          : flt.op === '>'
            ? v > flt.value
            : v >= flt.value;
    }
  }
}

/** Node ids matching the query: exact names first, then names starting with a word, then the rest (graph order
 * within each). An empty query matches nothing. */
export function searchNodes(nodes: GraphNode[], f: Facts, heat: Heat | null, query: string): Id[] {
  const q = parseQuery(query);
  if (!q.words.length && !q.filters.length) return [];
  const hits: Array<[number, number, Id]> = [];
  nodes.forEach((n, i) => {
    const names = [n.id.toLowerCase(), n.target.toLowerCase(), n.target_full.toLowerCase()];
    if (!q.words.every((w) => names.some((x) => x.includes(w)))) return;
    if (!q.filters.every((flt) => holds(flt, n, f, heat))) return;
    const w = q.words[0];
    const rank = !w
      ? 2
      : names[0] === w || names[1] === w
        ? 0
        : names[0].startsWith(w) || names[1].startsWith(w)
          ? 1
          : 2;
    hits.push([rank, i, n.id]);
  });
  return hits.sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[2]);
}

/** The shown node with the worst overlay value (lowest when higher is better), or null. */
export function worstNode(nodes: GraphNode[], heat: Heat | null): Id | null {
  if (!heat) return null;
  const sign = heat.overlay.higher_is_better ? 1 : -1;
  let best: Id | null = null;
  let worst = Infinity;
  for (const n of nodes) {
    const v = heat.value(n.id);
    if (v === null || sign * v >= worst) continue;
    worst = sign * v;
    best = n.id;
  }
  return best;
}
