// One layered (top-down) layout of one group's children: @dagrejs/dagre for small groups (its network
// simplex gives the tidiest picture), our own linear-time layered pass above DAGRE_MAX children, where
// dagre takes seconds. Pure: runs in the worker and, when no worker can be had, in the page.
import dagre from '@dagrejs/dagre';
import { layeredLayout } from './layered-layout';

/** Groups with more children than this are laid out by `layeredLayout`, not dagre. */
export const DAGRE_MAX = 120;

export interface LayoutRequest {
  id: number;
  nodes: Array<{ id: string; w: number; h: number }>;
  edges: Array<[string, string]>;
}

export interface LayoutResult {
  id: number;
  /** Centres, relative to the top-left of the group's content area. */
  pos: Record<string, [number, number]>;
  width: number;
  height: number;
  /** per request edge, its route from source to target (same frame as pos), or [] when none */
  routes: Array<Array<[number, number]>>;
  ms: number;
  engine: 'dagre' | 'layered' | 'fallback';
  error?: string;
}

const NODESEP = 22;
const RANKSEP = 30;

function now(): number {
  return typeof performance !== 'undefined' ? performance.now() : Date.now();
}

/** Longest-path ranks, rows in input order: used only if dagre throws (e.g. a too-deep graph). */
function simpleLayout(req: LayoutRequest): Omit<LayoutResult, 'id' | 'ms' | 'engine' | 'routes'> {
  const rank = new Map<string, number>();
  const index = new Map(req.nodes.map((n, i) => [n.id, i]));
  for (const n of req.nodes) rank.set(n.id, 0);
  const fwd = req.edges.filter(([a, b]) => (index.get(a) ?? 0) < (index.get(b) ?? 0));
  fwd.sort((x, y) => (index.get(x[0]) ?? 0) - (index.get(y[0]) ?? 0));
  for (const [a, b] of fwd) rank.set(b, Math.max(rank.get(b) ?? 0, (rank.get(a) ?? 0) + 1));
  const rows = new Map<number, Array<{ id: string; w: number; h: number }>>();
  for (const n of req.nodes) {
    const r = rank.get(n.id) ?? 0;
    if (!rows.has(r)) rows.set(r, []);
    rows.get(r)!.push(n);
  }
  const pos: Record<string, [number, number]> = {};
  let y = 0;
  let width = 0;
  for (const r of [...rows.keys()].sort((a, b) => a - b)) {
    const row = rows.get(r)!;
    const rh = Math.max(...row.map((n) => n.h));
    let x = 0;
    for (const n of row) {
      pos[n.id] = [x + n.w / 2, y + rh / 2];
      x += n.w + NODESEP;
    }
    width = Math.max(width, x - NODESEP);
    y += rh + RANKSEP;
  }
  return { pos, width, height: Math.max(0, y - RANKSEP) };
}

export function layoutGraph(req: LayoutRequest): LayoutResult {
  const t0 = now();
  if (req.nodes.length === 0) return { id: req.id, pos: {}, width: 0, height: 0, routes: [], ms: 0, engine: 'dagre' };
  if (req.nodes.length > DAGRE_MAX) {
    try {
      return { id: req.id, ...layeredLayout(req.nodes, req.edges), ms: now() - t0, engine: 'layered' };
    } catch (e) {
      const r = simpleLayout(req);
      return {
        id: req.id,
        ...r,
        routes: req.edges.map(() => []),
        ms: now() - t0,
        engine: 'fallback',
        error: String(e),
      };
    }
  }
  try {
    const g = new dagre.graphlib.Graph();
    g.setGraph({ rankdir: 'TB', nodesep: NODESEP, ranksep: RANKSEP, edgesep: 8, marginx: 0, marginy: 0 });
    g.setDefaultEdgeLabel(() => ({}));
    for (const n of req.nodes) g.setNode(n.id, { width: n.w, height: n.h });
    for (const [a, b] of req.edges) if (g.hasNode(a) && g.hasNode(b) && a !== b) g.setEdge(a, b);
    dagre.layout(g);
    const pos: Record<string, [number, number]> = {};
    let minX = Infinity,
      minY = Infinity,
      maxX = -Infinity,
      maxY = -Infinity;
    for (const n of req.nodes) {
      const d = g.node(n.id) as { x: number; y: number };
      pos[n.id] = [d.x, d.y];
      minX = Math.min(minX, d.x - n.w / 2);
      maxX = Math.max(maxX, d.x + n.w / 2);
      minY = Math.min(minY, d.y - n.h / 2);
      maxY = Math.max(maxY, d.y + n.h / 2);
    }
    for (const k of Object.keys(pos)) pos[k] = [pos[k][0] - minX, pos[k][1] - minY];
    const routes = req.edges.map(([a, b]) => {
      const e = a !== b && g.hasEdge(a, b) ? (g.edge(a, b) as { points?: Array<{ x: number; y: number }> }) : null;
      return (e?.points ?? []).map((p) => [p.x - minX, p.y - minY] as [number, number]);
    });
    return { id: req.id, pos, width: maxX - minX, height: maxY - minY, routes, ms: now() - t0, engine: 'dagre' };
  } catch (e) {
    const r = simpleLayout(req);
    return { id: req.id, ...r, routes: req.edges.map(() => []), ms: now() - t0, engine: 'fallback', error: String(e) };
  }
}
