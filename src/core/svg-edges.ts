// The SVG painter of a pane's edges: the edge model's items (edges.ts) as paths, labels and stubs, each looking as
// edgeLook and edgeTitle (box-model.ts) say, the same as the canvas painter draws them.
import { edgeLook, edgeTitle } from './box-model';
import { s, truncate } from './dom';
import { type Curve, curveSegments, type EdgeItem, sharedItems } from './edges';
import type { Scene } from './scene';
import { FLOAT_EDGE } from './styles';
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
function stub(sc: Scene, it: { src: Id; dst: Id | null; x: number; y: number }, onPick: (id: Id) => void): SVGElement {
  const d = sc.doc;
  const { src, dst, x, y } = it;
  const g = s(d, 'g', { class: 'pl-stub', 'data-src': src, ...(dst ? { 'data-dst': dst } : {}) });
  g.appendChild(
    s(d, 'path', {
      class: 'pl-edge pl-stub-line',
      d: `M${x},${y - 16} L${x},${y - 2}`,
      'marker-end': `url(#${sc.marker(FLOAT_EDGE)})`,
    }),
  );
  g.appendChild(s(d, 'text', { class: 'pl-stub-label', x: x + 4, y: y - 9 }, truncate(src, 24)));
  g.appendChild(s(d, 'title', undefined, sc.t('ui.tip.stub', { src })));
  g.addEventListener('click', (ev) => {
    ev.stopPropagation();
    onPick(src);
  });
  return g;
}

/** Data edges (aggregated between closed groups; stubs for widely shared producers) into `layer`, each as its
 * edgeLook and edgeTitle (box-model.ts) say. */
export function drawEdgeItems(sc: Scene, layer: SVGElement, items: EdgeItem[], onPick: (id: Id) => void): void {
  const d = sc.doc;
  for (const it of items) {
    if (it.kind === 'stub') {
      layer.appendChild(stub(sc, it, onPick));
      continue;
    }
    const look = edgeLook(it);
    const p = s(d, 'path', {
      class: look.cls,
      d: curveD(it.curve),
      'data-src': it.kind === 'edge' ? it.src : it.ra,
      'data-dst': it.kind === 'edge' ? it.dst : it.rb,
      'data-dtype': it.kind === 'edge' ? it.dtype : undefined,
      'data-spec': it.kind === 'edge' && !it.dtype ? it.spec : undefined,
      // a spec's colour is the edge's own; int and plain edges take the stylesheet's
      style: it.kind === 'edge' && it.spec && !it.dtype ? `stroke:${look.color}` : undefined,
      opacity: look.alpha < 1 ? look.alpha : undefined,
      'marker-end': `url(#${sc.marker(look.color)})`,
    });
    const title = edgeTitle(it, sc.t);
    if (title) p.appendChild(s(d, 'title', undefined, title));
    if (look.label) layer.appendChild(s(d, 'text', { class: 'pl-edge-label', x: it.at[0], y: it.at[1] }, look.label));
    layer.appendChild(p);
  }
}

/** Dashed links from each use of a SharedQuantizationSpec to what it is shared with. */
export function drawSharedLinks(sc: Scene, layer: SVGElement): void {
  const d = sc.doc;
  for (const it of sharedItems(sc)) {
    const path = s(d, 'path', {
      class: 'pl-shared',
      d: `M${it.p0[0]},${it.p0[1]} Q${it.c[0]},${it.c[1]} ${it.p1[0]},${it.p1[1]}`,
      style: `stroke:${it.color}`,
      'data-spec': it.spec,
      'marker-end': `url(#${sc.marker(it.color)})`,
    });
    path.appendChild(s(d, 'title', undefined, it.title));
    layer.appendChild(path);
  }
}
