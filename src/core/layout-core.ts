// What every layout engine shares (request and result types, the last-resort layout) and the page's own
// engine: the linear-time layered pass for every group. The page runs it only when no worker can be had,
// so the viewer carries dagre once (inside the worker's code) — dagre in the page too cost every saved
// output ~48 kB raw / ~15 kB gzip.
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

export const NODESEP = 22;
export const RANKSEP = 30;

export function now(): number {
  return typeof performance !== 'undefined' ? performance.now() : Date.now();
}

/** Longest-path ranks, rows in input order: used only if the layout engine throws (e.g. a too-deep graph). */
export function simpleLayout(req: LayoutRequest): Omit<LayoutResult, 'id' | 'ms' | 'engine' | 'routes'> {
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

/** The layered pass, or the last-resort rows when it throws. */
export function layoutLayered(req: LayoutRequest): LayoutResult {
  const t0 = now();
  try {
    return { id: req.id, ...layeredLayout(req.nodes, req.edges), ms: now() - t0, engine: 'layered' };
  } catch (e) {
    const r = simpleLayout(req);
    return { id: req.id, ...r, routes: req.edges.map(() => []), ms: now() - t0, engine: 'fallback', error: String(e) };
  }
}
