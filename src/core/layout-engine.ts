// The worker's layout engine for one group's children: @dagrejs/dagre for small groups (its network
// simplex gives the tidiest picture), the linear-time layered pass (layout-core.ts) above DAGRE_MAX
// children, where dagre takes seconds. Bundled into the worker only (layout-client.ts; report.js is its own
// worker: src/report/worker-self.ts).
import { Graph, layout } from '@dagrejs/dagre';
import {
  DAGRE_MAX,
  type LayoutRequest,
  type LayoutResult,
  layoutLayered,
  NODESEP,
  now,
  RANKSEP,
  simpleLayout,
} from './layout-core';

export { DAGRE_MAX, type LayoutRequest, type LayoutResult } from './layout-core';

export function layoutGraph(req: LayoutRequest): LayoutResult {
  const t0 = now();
  if (req.nodes.length === 0) return { id: req.id, pos: {}, width: 0, height: 0, routes: [], ms: 0, engine: 'dagre' };
  if (req.nodes.length > DAGRE_MAX) return layoutLayered(req);
  try {
    const g = new Graph();
    g.setGraph({ rankdir: 'TB', nodesep: NODESEP, ranksep: RANKSEP, edgesep: 8, marginx: 0, marginy: 0 });
    g.setDefaultEdgeLabel(() => ({}));
    for (const n of req.nodes) g.setNode(n.id, { width: n.w, height: n.h });
    for (const [a, b] of req.edges) if (g.hasNode(a) && g.hasNode(b) && a !== b) g.setEdge(a, b);
    layout(g);
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
