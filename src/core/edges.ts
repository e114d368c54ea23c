// Edges of one pane: routed data edges, group-level aggregates, stubs for widely shared producers and
// the dashed SharedQuantizationSpec links. Colours come from the JSON (spec ids, q/dq kinds) only.
import { s, truncate } from './dom';
import type { Facts } from './facts';
import { lcaItems } from './groups';
import { type Box, HEADER } from './hier-layout';
import type { Scene } from './scene';
import { AGG_EDGE, FLOAT_EDGE, INT_EDGE } from './styles';
import type { Edge, Id } from './types';

/** From the bottom of `a` to the top of `b`. Between groups: out of the source's group along its right
 * margin, then dagre's route in the common group (around sibling boxes), then into the target's group
 * along its left margin; smoothed through the midpoints of the bends. */
function edgePath(sc: Scene, a: Box, b: Box, src?: Id, dst?: Id): string {
  const sx = a.x;
  const sy = a.y + a.h / 2;
  const tx = b.x;
  const ty = b.y - b.h / 2 - 2;
  const pair = src && dst && sc.hier ? lcaItems(sc.hier, src, dst) : null;
  if (!pair) {
    const dy = Math.max(18, Math.abs(ty - sy) / 2);
    return `M${sx},${sy} C${sx},${sy + dy} ${tx},${ty - dy} ${tx},${ty}`;
  }
  const P = sc.placement;
  const route = P.routes.get(`${pair[0]}\u0000${pair[1]}`) ?? [];
  const A = P.boxes.get(pair[0]);
  const B = P.boxes.get(pair[1]);
  // detour along a margin only when something in the group lies between the node and the group's edge
  const exit: Array<[number, number]> = [];
  if (A && A !== a && A.y + A.h / 2 - sy > 40 && blocked(sc, sx, sy, A.x, A.y + A.h / 2, a)) {
    const mx = A.x + A.w / 2 - 5;
    exit.push([mx, sy + 12], [mx, A.y + A.h / 2]);
  }
  const entry: Array<[number, number]> = [];
  const door = route.length ? route[route.length - 1] : B ? [B.x, B.y - B.h / 2] : [tx, ty];
  if (B && B !== b && ty - (B.y - B.h / 2) > HEADER + 40 && blocked(sc, door[0], door[1], tx, ty, b)) {
    const mx = B.x - B.w / 2 + 5;
    entry.push([mx, B.y - B.h / 2], [mx, ty - 12]);
  }
  // between adjacent ranks dagre's one bend is only a midpoint: drop it when a detour sets the course
  let mid = route.slice(1, -1);
  if ((exit.length || entry.length) && mid.length <= 1) mid = [];
  const pts: Array<[number, number]> = [[sx, sy], ...exit, ...mid, ...entry, [tx, ty]];
  if (pts.length === 2) {
    const dy = Math.max(18, Math.abs(ty - sy) / 2);
    return `M${sx},${sy} C${sx},${sy + dy} ${tx},${ty - dy} ${tx},${ty}`;
  }
  let d = `M${sx},${sy}`;
  for (let i = 1; i < pts.length - 1; i++) {
    const [x, y] = pts[i];
    const [nx, ny] = pts[i + 1];
    const last = i === pts.length - 2;
    d += ` Q${x},${y} ${last ? nx : (x + nx) / 2},${last ? ny : (y + ny) / 2}`;
  }
  return d;
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

/** A short labelled edge into `b` from a widely shared producer (drawn instead of a long edge). */
function stub(sc: Scene, src: Id, b: Box, dst: Id | null, onPick: (id: Id) => void): SVGElement {
  const d = sc.doc;
  const x = b.x - b.w / 2 + 14;
  const y = b.y - b.h / 2;
  const g = s(d, 'g', { class: 'pl-stub', 'data-src': src, ...(dst ? { 'data-dst': dst } : {}) });
  g.appendChild(
    s(d, 'path', {
      class: 'pl-edge pl-stub-line',
      d: `M${x},${y - 16} L${x},${y - 2}`,
      'marker-end': `url(#${sc.marker(FLOAT_EDGE)})`,
    }),
  );
  g.appendChild(s(d, 'text', { class: 'pl-stub-label', x: x + 4, y: y - 9 }, truncate(src, 24)));
  g.appendChild(s(d, 'title', undefined, `from ${src} (shared by many nodes; drawn as a stub)`));
  g.addEventListener('click', (ev) => {
    ev.stopPropagation();
    onPick(src);
  });
  return g;
}

function anchorOf(sc: Scene, x: { edge: [Id, Id] } | { node: Id }): [number, number] | null {
  const P = sc.placement;
  if ('node' in x) {
    const r = sc.repOf.get(x.node);
    const b = r?.startsWith('n:') ? P.boxes.get(r) : undefined;
    return b ? [b.x + b.w / 2, b.y] : null;
  }
  const ra = sc.repOf.get(x.edge[0]);
  const rb = sc.repOf.get(x.edge[1]);
  const a = ra?.startsWith('n:') ? P.boxes.get(ra) : undefined;
  const b = rb?.startsWith('n:') ? P.boxes.get(rb) : undefined;
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

/** Data edges (aggregated between closed groups; stubs for widely shared producers) into `layer`. */
export function drawEdges(sc: Scene, layer: SVGElement, edges: Edge[], onPick: (id: Id) => void): void {
  const d = sc.doc;
  const P = sc.placement;
  const f = sc.facts;
  const agg = new Map<string, { n: number; src: Id; dst: Id; int: number; dtype: string | null }>();
  const stubs = new Map<string, number>();
  for (const e of edges) {
    const ra = sc.repOf.get(e.src);
    const rb = sc.repOf.get(e.dst);
    if (!ra || !rb || ra === rb) continue;
    if (sc.hier.stubbed.has(e.src)) {
      const k = `${e.src}\u0000${rb}`;
      const seen = stubs.get(k) ?? 0;
      stubs.set(k, seen + 1);
      if (seen === 0) layer.appendChild(stub(sc, e.src, P.boxes.get(rb)!, rb.startsWith('n:') ? e.dst : null, onPick));
      continue;
    }
    if (ra.startsWith('n:') && rb.startsWith('n:')) {
      const a = P.boxes.get(ra)!;
      const b = P.boxes.get(rb)!;
      const p = s(d, 'path', {
        class: 'pl-edge',
        d: edgePath(sc, a, b, e.src, e.dst),
        'data-src': e.src,
        'data-dst': e.dst,
      });
      // an edge between different groups is not routed around boxes: draw it lighter
      if (sc.hier.parentOf.get(e.src) !== sc.hier.parentOf.get(e.dst)) p.setAttribute('opacity', '0.55');
      const dtype = intDtype(f, e);
      const spec = f.edgeSpec(e.src, e.dst);
      let color = FLOAT_EDGE;
      if (dtype) {
        p.setAttribute('class', 'pl-edge pl-int');
        p.setAttribute('data-dtype', dtype);
        color = INT_EDGE;
        p.appendChild(s(d, 'title', undefined, `${dtype} tensor (${e.src} → ${e.dst})`));
        layer.appendChild(s(d, 'text', { class: 'pl-edge-label', x: b.x + 4, y: b.y - b.h / 2 - 6 }, dtype));
      } else if (spec) {
        color = f.specColor(spec);
        p.setAttribute('class', 'pl-edge pl-spec');
        p.setAttribute('style', `stroke:${color}`);
        p.setAttribute('data-spec', spec);
        p.appendChild(s(d, 'title', undefined, `input spec ${spec} (${e.src} → ${e.dst})`));
      }
      p.setAttribute('marker-end', `url(#${sc.marker(color)})`);
      layer.appendChild(p);
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
    // edges between closed groups keep their int8 mark: one int tensor among them marks the bundle
    const p = s(d, 'path', {
      class: int ? 'pl-edge pl-agg pl-int' : 'pl-edge pl-agg',
      d: edgePath(sc, a, b, src, dst),
      'data-src': ra,
      'data-dst': rb,
      'marker-end': `url(#${sc.marker(int ? INT_EDGE : AGG_EDGE)})`,
    });
    p.appendChild(
      s(
        d,
        'title',
        undefined,
        `${count} edge${count > 1 ? 's' : ''}${int ? `, ${int} carrying ${dtype} tensors` : ''}`,
      ),
    );
    layer.appendChild(p);
    if (int && dtype)
      layer.appendChild(s(d, 'text', { class: 'pl-edge-label', x: b.x + 4, y: b.y - b.h / 2 - 6 }, dtype));
  }
}

/** Dashed links from each use of a SharedQuantizationSpec to what it is shared with. */
export function drawSharedLinks(sc: Scene, layer: SVGElement): void {
  const d = sc.doc;
  const f = sc.facts;
  for (const a of f.snap.annotations) {
    const uses: Array<{ from: { edge: [Id, Id] } | { node: Id }; spec: string }> = [];
    for (const i of a.inputs) if (i.spec) uses.push({ from: { edge: [i.src, a.node] }, spec: i.spec });
    if (a.output) uses.push({ from: { node: a.node }, spec: a.output });
    for (const u of uses) {
      const sp = f.specs.get(u.spec);
      if (sp?.kind !== 'SharedQuantizationSpec' || !sp.shared_with) continue;
      const p0 = anchorOf(sc, u.from);
      const p1 = anchorOf(sc, sp.shared_with);
      if (!p0 || !p1) continue;
      const mx = (p0[0] + p1[0]) / 2 + 40;
      const my = (p0[1] + p1[1]) / 2;
      const color = f.specColor(u.spec);
      const path = s(d, 'path', {
        class: 'pl-shared',
        d: `M${p0[0]},${p0[1]} Q${mx},${my} ${p1[0]},${p1[1]}`,
        style: `stroke:${color}`,
        'data-spec': u.spec,
        'marker-end': `url(#${sc.marker(color)})`,
      });
      path.appendChild(
        s(
          d,
          'title',
          undefined,
          `${u.spec} SharedQuantizationSpec → ${'edge' in sp.shared_with ? `edge ${sp.shared_with.edge.join(' → ')}` : `node ${sp.shared_with.node}`}`,
        ),
      );
      layer.appendChild(path);
    }
  }
}
