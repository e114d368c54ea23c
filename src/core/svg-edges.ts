// The SVG painter of a pane's edges: a frame's edge items (edges.ts) as paths, labels and stubs, each as its look
// and texts say, the same as the canvas painter draws them.
import { s } from './dom';
import { type Curve, curveSegments, type EdgeItem, type SharedItem, type StubEdge } from './edges';
import type { SvgPaint } from './nodes';
import type { Id } from './types';

/** SVG path data of a curve. */
function curveD(c: Curve): string {
  if (c.kind === 'cubic') return `M${c.sx},${c.sy} C${c.sx},${c.sy + c.dy} ${c.tx},${c.ty - c.dy} ${c.tx},${c.ty}`;
  const { start, quads } = curveSegments(c);
  let d = `M${start[0]},${start[1]}`;
  for (const [x, y, ex, ey] of quads) d += ` Q${x},${y} ${ex},${ey}`;
  return d;
}

/** A short labelled edge from a widely shared producer (drawn instead of a long edge). */
function stub(p: SvgPaint, it: StubEdge, onPick: (id: Id) => void): SVGElement {
  const d = p.doc;
  const [x0, y0, x1, y1] = it.line;
  const g = s(d, 'g', { class: 'pl-stub', 'data-src': it.src, ...(it.dst ? { 'data-dst': it.dst } : {}) });
  g.appendChild(
    s(d, 'path', {
      class: 'pl-edge pl-stub-line',
      d: `M${x0},${y0} L${x1},${y1}`,
      'marker-end': `url(#${p.marker(it.look.color)})`,
    }),
  );
  g.appendChild(s(d, 'text', { class: 'pl-stub-label', x: it.labelAt[0], y: it.labelAt[1] }, it.label));
  g.appendChild(s(d, 'title', undefined, it.tip));
  g.addEventListener('click', (ev) => {
    ev.stopPropagation();
    onPick(it.src);
  });
  return g;
}

/** Data edges (aggregated between closed groups; stubs for widely shared producers) into `layer`, each as its
 * look and tooltip say. */
export function drawEdgeItems(p: SvgPaint, layer: SVGElement, items: EdgeItem[], onPick: (id: Id) => void): void {
  const d = p.doc;
  for (const it of items) {
    if (it.kind === 'stub') {
      layer.appendChild(stub(p, it, onPick));
      continue;
    }
    const look = it.look;
    const path = s(d, 'path', {
      class: look.cls,
      d: curveD(it.curve),
      'data-src': it.kind === 'edge' ? it.src : it.ra,
      'data-dst': it.kind === 'edge' ? it.dst : it.rb,
      'data-dtype': it.kind === 'edge' ? it.dtype : undefined,
      'data-spec': it.kind === 'edge' && !it.dtype ? it.spec : undefined,
      // a spec's colour is the edge's own; int and plain edges take the stylesheet's
      style: it.kind === 'edge' && it.spec && !it.dtype ? `stroke:${look.color}` : undefined,
      opacity: look.alpha < 1 ? look.alpha : undefined,
      'marker-end': `url(#${p.marker(look.color)})`,
    });
    const title = p.texts.edge(it);
    if (title) path.appendChild(s(d, 'title', undefined, title));
    if (look.label) layer.appendChild(s(d, 'text', { class: 'pl-edge-label', x: it.at[0], y: it.at[1] }, look.label));
    layer.appendChild(path);
  }
}

/** Dashed links from each use of a SharedQuantizationSpec to what it is shared with. */
export function drawSharedLinks(p: SvgPaint, layer: SVGElement, links: SharedItem[]): void {
  const d = p.doc;
  for (const it of links) {
    const path = s(d, 'path', {
      class: 'pl-shared',
      d: `M${it.p0[0]},${it.p0[1]} Q${it.c[0]},${it.c[1]} ${it.p1[0]},${it.p1[1]}`,
      style: `stroke:${it.color}`,
      'data-spec': it.spec,
      'marker-end': `url(#${p.marker(it.color)})`,
    });
    path.appendChild(s(d, 'title', undefined, it.title));
    layer.appendChild(path);
  }
}
