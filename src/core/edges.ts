// The edge model of one pane, for both painters (svg-edges.ts, canvas-draw.ts): routed data edges, group-level
// aggregates, stubs for widely shared producers and the dashed SharedQuantizationSpec links, as plain items with
// their curves, their look (edgeLook) and their texts (a stub's label and tooltip). Colours come from the JSON (spec
// ids, q/dq kinds) only. Nothing here touches the DOM; the painters only draw what an item says.
import { truncate } from './dom';
import type { Facts } from './facts';
import { isNodeKey, lcaItems } from './groups';
import { type Box, HEADER } from './hier-layout';
import type { Tr } from './i18n';
import type { Scene } from './scene';
import { AGG_EDGE, FLOAT_EDGE, INT_EDGE } from './styles';
import type { Edge, Id, Spec } from './types';

/** An edge's course in layout units: a cubic from the bottom of `a` to the top of `b`, or a smoothed polyline
 * through `pts` (flat: x0, y0, x1, y1, …; one array per edge, not one per point, for the young GC at 100k edges). */
export type Curve =
  | { kind: 'cubic'; sx: number; sy: number; tx: number; ty: number; dy: number }
  | { kind: 'quad'; pts: number[] };

/** From the bottom of `a` to the top of `b`. Between groups: out of the source's group along its right
 * margin, then dagre's route in the common group (around sibling boxes), then into the target's group
 * along its left margin; smoothed through the midpoints of the bends. */
export function edgeCurve(sc: Scene, a: Box, b: Box, src?: Id, dst?: Id): Curve {
  const sx = a.x;
  const sy = a.y + a.h / 2;
  const tx = b.x;
  const ty = b.y - b.h / 2 - 2;
  const m = src && dst && sc.hier ? lcaItems(sc.hier, src, dst) : null;
  if (!m) return cubicCurve(sx, sy, tx, ty);
  const P = sc.placement;
  // the route in its group's coordinates: each point is (ox + x, oy + y)
  const r = P.route(m.at, m.ka, m.kb);
  const route = r?.pts ?? [];
  const A = P.boxes.get(m.ka);
  const B = P.boxes.get(m.kb);
  // detour along a margin only when something in the group lies between the node and the group's edge
  const exit = !!A && A !== a && A.y + A.h / 2 - sy > 40 && blocked(sc, sx, sy, A.x, A.y + A.h / 2, a);
  // where the route enters the target's side (its last point, absolute)
  const last = route[route.length - 1];
  const dx = r ? r.ox + last[0] : B ? B.x : tx;
  const dy = r ? r.oy + last[1] : B ? B.y - B.h / 2 : ty;
  const entry = !!B && B !== b && ty - (B.y - B.h / 2) > HEADER + 40 && blocked(sc, dx, dy, tx, ty, b);
  // between adjacent ranks dagre's one bend is only a midpoint: drop it when a detour sets the course
  const mid = (exit || entry) && route.length <= 3 ? 0 : Math.max(0, route.length - 2);
  if (!exit && !entry && !mid) return cubicCurve(sx, sy, tx, ty);
  // one array of its final length (this runs for every edge of an expanded 100k-node graph)
  const pts: number[] = new Array(2 * (2 + mid + (exit ? 2 : 0) + (entry ? 2 : 0)));
  let k = 0;
  const put = (x: number, y: number): void => {
    pts[k++] = x;
    pts[k++] = y;
  };
  put(sx, sy);
  if (exit) {
    put(A.x + A.w / 2 - 5, sy + 12);
    put(A.x + A.w / 2 - 5, A.y + A.h / 2);
  }
  for (let i = 1; i <= mid; i++) put(r!.ox + route[i][0], r!.oy + route[i][1]);
  if (entry) {
    put(B.x - B.w / 2 + 5, B.y - B.h / 2);
    put(B.x - B.w / 2 + 5, ty - 12);
  }
  put(tx, ty);
  return { kind: 'quad', pts };
}

function cubicCurve(sx: number, sy: number, tx: number, ty: number): Curve {
  return { kind: 'cubic', sx, sy, tx, ty, dy: Math.max(18, Math.abs(ty - sy) / 2) };
}

/** A curve's control points in order (quadratic segments through the midpoints of the bends). */
export function curveSegments(c: Curve): { start: [number, number]; quads: Array<[number, number, number, number]> } {
  if (c.kind === 'cubic') return { start: [c.sx, c.sy], quads: [] };
  const p = c.pts;
  const n = p.length / 2;
  const quads: Array<[number, number, number, number]> = [];
  for (let i = 1; i < n - 1; i++) {
    const x = p[2 * i];
    const y = p[2 * i + 1];
    const nx = p[2 * i + 2];
    const ny = p[2 * i + 3];
    const last = i === n - 2;
    quads.push([x, y, last ? nx : (x + nx) / 2, last ? ny : (y + ny) / 2]);
  }
  return { start: [p[0], p[1]], quads };
}

/** Bounding rectangle of a curve (its control points, which contain it). */
export function curveBounds(c: Curve): { x: number; y: number; w: number; h: number } {
  const pts = c.kind === 'cubic' ? [c.sx, c.sy, c.sx, c.sy + c.dy, c.tx, c.ty - c.dy, c.tx, c.ty] : c.pts;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let i = 0; i < pts.length; i += 2) {
    x0 = Math.min(x0, pts[i]);
    y0 = Math.min(y0, pts[i + 1]);
    x1 = Math.max(x1, pts[i]);
    y1 = Math.max(y1, pts[i + 1]);
  }
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

/** Does the segment cross a drawn node or closed group other than `skip`? (slab test; always true on
 * very large views, where checking every box per edge would cost more than the detour) */
function blocked(sc: Scene, x1: number, y1: number, x2: number, y2: number, skip: Box): boolean {
  const solid = sc.solid;
  if (solid.length > 1500) return true;
  for (const r of solid) {
    if (r === skip) continue;
    const l = r.x - r.w / 2,
      rr = r.x + r.w / 2,
      tp = r.y - r.h / 2,
      bt = r.y + r.h / 2;
    let t0 = 0,
      t1 = 1;
    const dx = x2 - x1,
      dy = y2 - y1;
    const clip = (p: number, q: number): boolean => {
      if (p === 0) return q >= 0;
      const u = q / p;
      if (p < 0) {
        if (u > t1) return false;
        if (u > t0) t0 = u;
      } else {
        if (u < t0) return false;
        if (u < t1) t1 = u;
      }
      return true;
    };
    if (clip(-dx, x1 - l) && clip(dx, rr - x1) && clip(-dy, y1 - tp) && clip(dy, bt - y1) && t0 < t1) return true;
  }
  return false;
}

function anchorOf(sc: Scene, x: { edge: [Id, Id] } | { node: Id }): [number, number] | null {
  const P = sc.placement;
  if ('node' in x) {
    const r = sc.repOf.get(x.node);
    const b = r && isNodeKey(r) ? P.boxes.get(r) : undefined;
    return b ? [b.x + b.w / 2, b.y] : null;
  }
  const ra = sc.repOf.get(x.edge[0]);
  const rb = sc.repOf.get(x.edge[1]);
  const a = ra && isNodeKey(ra) ? P.boxes.get(ra) : undefined;
  const b = rb && isNodeKey(rb) ? P.boxes.get(rb) : undefined;
  return a && b ? [(a.x + b.x) / 2, (a.y + a.h / 2 + b.y - b.h / 2) / 2] : null;
}

/** dtype of the int tensor an edge carries, read from the JSON's q/dq entries: the output of a quantize
 * node, or the quantized input (arg 0) of a dequantize node — which is how a frozen int8 weight reaches
 * dequantize_per_channel after convert. null for a float edge. */
export function intDtype(f: Facts, e: Edge): string | null {
  const q = f.qdq.get(e.src);
  if (q?.kind === 'quantize') return q.dtype ?? 'int';
  const dq = f.qdq.get(e.dst);
  if (dq?.kind === 'dequantize' && e.arg === 0) return dq.dtype ?? 'int';
  return null;
}

/** What a drawn edge shows, whichever renderer paints it: its classes (the stylesheet's .pl-edge rules, whose
 * widths are these), colour, width, opacity and the int dtype written at its target (`at`). */
export interface EdgeLook {
  cls: string;
  color: string;
  width: number;
  alpha: number;
  label: string | null;
}

/** One data edge between two drawn nodes. */
export interface DataEdge {
  kind: 'edge';
  curve: Curve;
  src: Id;
  dst: Id;
  /** int dtype carried, or null */
  dtype: string | null;
  /** the input spec colouring it, or null */
  spec: string | null;
  color: string;
  /** between different groups: not routed around boxes, drawn lighter */
  faint: boolean;
  /** the target box's top-left area, where an int edge's dtype label goes */
  at: [number, number];
  look: EdgeLook;
}

/** The edges between two boxes of which one at least is a closed group, as one. */
export interface AggEdge {
  kind: 'agg';
  curve: Curve;
  /** box keys of the two ends */
  ra: string;
  rb: string;
  count: number;
  int: number;
  dtype: string | null;
  at: [number, number];
  look: EdgeLook;
}

/** A short labelled edge into a box from a widely shared producer (drawn instead of a long edge): its line ends
 * at the box's top edge near its left corner, its label (the producer, cut) beside the line. */
export interface StubEdge {
  kind: 'stub';
  src: Id;
  dst: Id | null;
  /** the line, top to bottom (x0, y0, x1, y1), the arrowhead at its end */
  line: [number, number, number, number];
  label: string;
  /** the label's baseline start */
  labelAt: [number, number];
  tip: string;
  look: EdgeLook;
}

/** One drawn edge, whatever draws it (svg-edges.ts on SVG, canvas-draw.ts on a canvas). */
export type EdgeItem = DataEdge | AggEdge | StubEdge;

type Drawn = DataEdge | AggEdge;

export function edgeLook(it: Omit<DataEdge, 'look'> | Omit<AggEdge, 'look'>): EdgeLook {
  if (it.kind === 'edge') {
    // an edge between different groups is not routed around boxes: drawn lighter
    const alpha = it.faint ? 0.55 : 1;
    if (it.dtype) return { cls: 'pl-edge pl-int', color: it.color, width: 2.6, alpha, label: it.dtype };
    if (it.spec) return { cls: 'pl-edge pl-spec', color: it.color, width: 2.2, alpha, label: null };
    return { cls: 'pl-edge', color: it.color, width: 1.3, alpha, label: null };
  }
  // edges between closed groups keep their int8 mark: one int tensor among them marks the bundle
  const int = it.int > 0;
  return {
    cls: int ? 'pl-edge pl-agg pl-int' : 'pl-edge pl-agg',
    color: int ? INT_EDGE : AGG_EDGE,
    width: int ? 2.6 : 1.6,
    alpha: 1,
    label: int ? it.dtype : null,
  };
}

/** The look of a stub's line (a plain float edge's). */
export const STUB_LOOK: EdgeLook = {
  cls: 'pl-edge pl-stub-line',
  color: FLOAT_EDGE,
  width: 1.3,
  alpha: 1,
  label: null,
};

/** An edge's tooltip: the int tensor it carries, the input spec colouring it, or what a bundle holds. */
export function edgeTitle(it: Drawn, t: Tr): string | null {
  if (it.kind === 'agg') {
    const edges = t(it.count === 1 ? 'ui.tip.agg_one' : 'ui.tip.agg_many', { n: it.count });
    return it.int ? t('ui.tip.agg_int', { edges, int: it.int, dtype: it.dtype ?? '' }) : edges;
  }
  if (it.dtype) return t('ui.tip.int_edge', { dtype: it.dtype, src: it.src, dst: it.dst });
  return it.spec ? t('ui.tip.spec_edge', { spec: it.spec, src: it.src, dst: it.dst }) : null;
}

const STEP_EDGES = 4096;

/** Data edges of the current placement (aggregated between closed groups; stubs for widely shared producers),
 * in drawing order. */
export function edgeItems(sc: Scene, edges: Edge[]): EdgeItem[] {
  const out: EdgeItem[] = [];
  for (const it of edgeItemSteps(sc, edges)) if (it) out.push(it);
  return out;
}

/** edgeItems one at a time, plus a null after every STEP_EDGES edges looked at: a frame made in slices
 * (frame.ts) can pause there even when most edges draw nothing (inside one closed group). */
export function* edgeItemSteps(sc: Scene, edges: Edge[]): Generator<EdgeItem | null> {
  const P = sc.placement;
  const f = sc.facts;
  const agg = new Map<string, { n: number; src: Id; dst: Id; int: number; dtype: string | null }>();
  const stubs = new Set<string>();
  let seen = 0;
  for (const e of edges) {
    if (++seen === STEP_EDGES) {
      seen = 0;
      yield null;
    }
    const ra = sc.repOf.get(e.src);
    const rb = sc.repOf.get(e.dst);
    if (!ra || !rb || ra === rb) continue;
    if (sc.hier.stubbed.has(e.src)) {
      const k = `${e.src}\u0000${rb}`;
      if (!stubs.has(k)) {
        stubs.add(k);
        const b = P.boxes.get(rb)!;
        const x = b.x - b.w / 2 + 14;
        const y = b.y - b.h / 2;
        yield {
          kind: 'stub',
          src: e.src,
          dst: isNodeKey(rb) ? e.dst : null,
          line: [x, y - 16, x, y - 2],
          label: truncate(e.src, 24),
          labelAt: [x + 4, y - 9],
          tip: sc.t('ui.tip.stub', { src: e.src }),
          look: STUB_LOOK,
        };
      }
      continue;
    }
    if (isNodeKey(ra) && isNodeKey(rb)) {
      const a = P.boxes.get(ra)!;
      const b = P.boxes.get(rb)!;
      const dtype = intDtype(f, e);
      const spec = dtype ? null : f.edgeSpec(e.src, e.dst);
      // the look set once the item is whole (one object per edge: 100k edges at 100k nodes)
      const it: DataEdge = {
        kind: 'edge',
        curve: edgeCurve(sc, a, b, e.src, e.dst),
        src: e.src,
        dst: e.dst,
        dtype,
        spec: spec ?? null,
        color: dtype ? INT_EDGE : spec ? f.specColor(spec) : FLOAT_EDGE,
        faint: sc.hier.parentOf.get(e.src) !== sc.hier.parentOf.get(e.dst),
        at: [b.x + 4, b.y - b.h / 2 - 6],
        look: STUB_LOOK,
      };
      it.look = edgeLook(it);
      yield it;
    } else {
      const k = `${ra}\u0000${rb}`;
      const dtype = intDtype(f, e);
      const cur = agg.get(k);
      if (cur) {
        cur.n += 1;
        if (dtype) {
          cur.int += 1;
          cur.dtype ??= dtype;
        }
      } else agg.set(k, { n: 1, src: e.src, dst: e.dst, int: dtype ? 1 : 0, dtype });
    }
  }
  for (const [k, { n: count, src, dst, int, dtype }] of agg) {
    const [ra, rb] = k.split('\u0000');
    const a = P.boxes.get(ra);
    const b = P.boxes.get(rb);
    if (!a || !b) continue;
    const it: AggEdge = {
      kind: 'agg',
      curve: edgeCurve(sc, a, b, src, dst),
      ra,
      rb,
      count,
      int,
      dtype,
      at: [b.x + 4, b.y - b.h / 2 - 6],
      look: STUB_LOOK,
    };
    it.look = edgeLook(it);
    yield it;
  }
}

/** One dashed SharedQuantizationSpec link: from a use of the spec to what it is shared with. */
export interface SharedItem {
  p0: [number, number];
  p1: [number, number];
  /** quadratic control point */
  c: [number, number];
  spec: string;
  color: string;
  title: string;
}

/** The SharedQuantizationSpec links of the current placement (both ends drawn as nodes). */
export function sharedItems(sc: Scene): SharedItem[] {
  const f = sc.facts;
  const out: SharedItem[] = [];
  for (const u of sharedUses(f)) {
    const p0 = anchorOf(sc, u.from);
    const p1 = anchorOf(sc, u.sp.shared_with!);
    if (!p0 || !p1) continue;
    const sw = u.sp.shared_with!;
    out.push({
      p0,
      p1,
      c: [(p0[0] + p1[0]) / 2 + 40, (p0[1] + p1[1]) / 2],
      spec: u.spec,
      color: f.specColor(u.spec),
      title:
        'edge' in sw
          ? sc.t('ui.tip.shared_edge', { spec: u.spec, src: sw.edge[0], dst: sw.edge[1] })
          : sc.t('ui.tip.shared_node', { spec: u.spec, node: sw.node }),
    });
  }
  return out;
}

type SharedUse = { from: { edge: [Id, Id] } | { node: Id }; spec: string; sp: Spec };
const usesOf = new WeakMap<Facts, SharedUse[]>();

/** The annotations' uses of a SharedQuantizationSpec (an input edge's or an output's), in annotation order:
 * the same for every placement, so looked for once per snapshot (a 100k-node decoder has ~100k annotations,
 * of which a few hundred uses are shared) rather than at every redraw. */
function sharedUses(f: Facts): SharedUse[] {
  let list = usesOf.get(f);
  if (list) return list;
  list = [];
  const shared = (spec: string | null): Spec | null => {
    const sp = spec ? f.specs.get(spec) : undefined;
    return sp?.kind === 'SharedQuantizationSpec' && sp.shared_with ? sp : null;
  };
  for (const a of f.snap.annotations) {
    for (const i of a.inputs) {
      const sp = shared(i.spec);
      if (sp) list.push({ from: { edge: [i.src, a.node] }, spec: i.spec!, sp });
    }
    const sp = shared(a.output);
    if (sp) list.push({ from: { node: a.node }, spec: a.output!, sp });
  }
  usesOf.set(f, list);
  return list;
}
