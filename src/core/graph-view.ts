// One pane: an SVG drawing of one Snapshot with module groups, zoom/pan/fit, search and details.
import { clear, fmtNums, h, s, truncate } from './dom';
import { Facts } from './facts';
import { renderDetails } from './details';
import { ancestors, buildHierarchy, groupKey, Group, Hierarchy, initialExpanded, lcaItems, nodeKey } from './groups';
import { Box, groupLabel, HEADER, HierLayout, Placement } from './hier-layout';
import { LayoutClient } from './layout-client';
import { FLOAT_EDGE, groupFill, INT_EDGE, ROLE_COLORS } from './styles';
import { Edge, GraphNode, Id, ROLES, Snapshot } from './types';

export interface GraphViewOptions {
  client: LayoutClient;
  collapseThreshold: number;
  focus?: Id[] | null;
  notes?: Record<Id, string>;
  marks?: { removed: Set<Id>; added: Set<Id> };
  onSelect?: (id: Id | null) => void;
}

let uid = 0;

/** Second line of a node: its id when the label is the short target, else what else identifies it. */
function subLabel(n: GraphNode, group?: number): string {
  if (n.role === 'observer') return `${n.observer ?? ''}${group !== undefined ? ` · group ${group}` : ''}`;
  if (n.id !== n.target) return n.id;
  return n.shape ? n.shape.join('×') : n.role;
}

export class GraphView {
  readonly el: HTMLElement;
  readonly ready: Promise<void>;
  readonly facts: Facts;
  readonly nodes: GraphNode[];
  readonly edges: Edge[];
  hier: Hierarchy | null = null;
  expanded = new Set<string>();
  placement: Placement | null = null;
  selected: Id | null = null;
  /** wall-clock ms and number of group layouts computed by the last redraw */
  lastLayout = { ms: 0, computed: 0 };
  private layout: HierLayout | null = null;
  private counter = new Set<Id>();
  private matches = new Set<Id>();
  private nodeEls = new Map<Id, SVGElement>();
  private groupEls = new Map<string, SVGElement>();
  private repOf = new Map<Id, string>();
  private svg: SVGSVGElement | null = null;
  private viewport: SVGElement | null = null;
  private details: HTMLElement;
  private status: HTMLElement;
  private results: HTMLElement;
  private t = { x: 20, y: 20, k: 1 };
  private busy: Promise<void> = Promise.resolve();
  private fitted = false;
  private markerIds = new Map<string, string>();
  private id = ++uid;
  private destroyed = false;
  private resize: ResizeObserver | null = null;
  private doc: Document;

  constructor(doc: Document, snap: Snapshot, private opts: GraphViewOptions) {
    this.doc = doc;
    this.facts = new Facts(snap);
    const focus = opts.focus ? new Set(opts.focus) : null;
    this.nodes = focus ? snap.nodes.filter((n) => focus.has(n.id)) : snap.nodes;
    const keep = new Set(this.nodes.map((n) => n.id));
    this.edges = snap.edges.filter((e) => keep.has(e.src) && keep.has(e.dst));
    this.el = h(doc, 'div', { class: 'pl-graph' });
    this.details = h(doc, 'div', { class: 'pl-details' });
    this.status = h(doc, 'span', { class: 'pl-status' });
    this.results = h(doc, 'div', { class: 'pl-results' });
    if (this.nodes.length === 0) {
      this.el.appendChild(h(doc, 'div', { class: 'pl-empty' }, snap.nodes.length === 0 ? 'empty graph' : 'no node of this graph is in focus'));
      this.ready = Promise.resolve();
      return;
    }
    this.buildChrome();
    this.hier = buildHierarchy(this.nodes, this.edges);
    this.layout = new HierLayout(this.hier, this.facts.nodes, opts.client);
    this.expanded = initialExpanded(this.hier, this.nodes.length, opts.collapseThreshold);
    this.ready = this.redraw();
  }

  private buildChrome(): void {
    const d = this.doc;
    const bar = h(d, 'div', { class: 'pl-toolbar' });
    const search = h(d, 'input', { type: 'search', placeholder: 'search node or op…', 'aria-label': 'search nodes' });
    let timer: ReturnType<typeof setTimeout> | undefined;
    search.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => this.search(search.value), 120);
    });
    search.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        const first = [...this.matches][0];
        if (first) void this.select(first, { reveal: true, notify: true });
      }
    });
    const fit = h(d, 'button', { class: 'pl-btn', type: 'button', title: 'fit the graph into view' }, 'Fit');
    fit.addEventListener('click', () => this.fit());
    const collapse = h(d, 'button', { class: 'pl-btn', type: 'button', title: 'collapse every group' }, 'Collapse all');
    collapse.addEventListener('click', () => {
      this.expanded = new Set(['']);
      this.fitted = false;
      void this.redraw();
    });
    bar.append(search, fit, collapse);
    if (this.nodes.length <= 5000) {
      const all = h(d, 'button', { class: 'pl-btn', type: 'button', title: 'open every group' }, 'Expand all');
      all.addEventListener('click', () => {
        this.expanded = new Set(this.hier!.groups.keys());
        this.fitted = false;
        void this.redraw();
      });
      bar.appendChild(all);
    }
    bar.appendChild(this.status);
    const canvas = h(d, 'div', { class: 'pl-canvas' });
    const svg = s(d, 'svg', { role: 'img', 'aria-label': 'graph' }) as SVGSVGElement;
    const defs = s(d, 'defs');
    svg.appendChild(defs);
    this.viewport = s(d, 'g', { class: 'pl-viewport' });
    svg.appendChild(this.viewport);
    canvas.appendChild(svg);
    this.svg = svg;
    this.bindPanZoom(svg);
    // drawn while detached or hidden (a collapsed output, a background tab): fit once it gets a size
    if (typeof ResizeObserver !== 'undefined') {
      this.resize = new ResizeObserver(() => {
        if (!this.fitted && this.placement && svg.getBoundingClientRect().width) this.fit();
      });
      this.resize.observe(canvas);
    }
    this.el.append(bar, this.results, canvas, this.legend(), this.details);
  }

  private legend(): HTMLElement {
    const d = this.doc;
    const lg = h(d, 'div', { class: 'pl-legend' });
    const present = new Set(this.nodes.map((n) => n.role));
    for (const r of ROLES) {
      if (!present.has(r)) continue;
      const item = h(d, 'span');
      const sw = h(d, 'span', { class: 'pl-swatch', style: `background:${ROLE_COLORS[r].fill};border-color:${ROLE_COLORS[r].stroke}` });
      item.append(sw, d.createTextNode(r));
      lg.appendChild(item);
    }
    if (this.facts.snap.qdq.length) lg.appendChild(h(d, 'span', { style: `color:${INT_EDGE};font-weight:600` }, '━ quantized (int) edge'));
    if (this.facts.snap.annotations.length) {
      lg.appendChild(h(d, 'span', undefined, '━ coloured edge/badge = quantization spec · ● annotated · ┄ shared spec'));
    }
    for (const sp of this.facts.snap.specs) {
      const item = h(d, 'span', { title: sp.kind });
      item.append(h(d, 'span', { class: 'pl-swatch', style: `background:${this.facts.specColor(sp.id)};border-color:${this.facts.specColor(sp.id)}` }));
      item.append(d.createTextNode(`${sp.id} ${sp.kind.replace('QuantizationSpec', '') || 'Quant'}${sp.dtype ? ` ${sp.dtype}` : ''}${sp.qscheme ? ` ${sp.qscheme}` : ''}`));
      lg.appendChild(item);
    }
    if (this.facts.snap.observers.length) lg.appendChild(h(d, 'span', undefined, 'observer fill = sharing group'));
    return lg;
  }

  // ---- layout + drawing -------------------------------------------------------------------------

  redraw(anchor?: { key: string; sx: number; sy: number }): Promise<void> {
    this.busy = this.busy.then(async () => {
      if (this.destroyed || !this.layout) return;
      this.status.textContent = 'laying out…';
      const t0 = typeof performance !== 'undefined' ? performance.now() : Date.now();
      this.placement = await this.layout.place(this.expanded);
      const t1 = typeof performance !== 'undefined' ? performance.now() : Date.now();
      this.lastLayout = { ms: t1 - t0, computed: this.placement.computed };
      if (this.destroyed) return;
      this.draw();
      if (anchor) {
        const b = this.placement.boxes.get(anchor.key);
        if (b) {
          this.t.x = anchor.sx - (b.x - b.w / 2) * this.t.k;
          this.t.y = anchor.sy - (b.y - b.h / 2) * this.t.k;
          this.applyTransform();
        }
      }
      if (!this.fitted) this.fit();
    });
    return this.busy;
  }

  private computeReps(): void {
    this.repOf.clear();
    const walk = (g: Group, rep: string | null): void => {
      for (const it of g.children) {
        if (it.kind === 'node') this.repOf.set(it.id, rep ?? nodeKey(it.id));
        else walk(it.group, rep ?? (this.expanded.has(it.group.key) ? null : groupKey(it.group.key)));
      }
    };
    walk(this.hier!.root, null);
  }

  private marker(color: string): string {
    let id = this.markerIds.get(color);
    if (id) return id;
    id = `pl-arrow-${this.id}-${this.markerIds.size}`;
    this.markerIds.set(color, id);
    const m = s(this.doc, 'marker', { id, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 8, markerHeight: 8, markerUnits: 'userSpaceOnUse', orient: 'auto-start-reverse' });
    m.appendChild(s(this.doc, 'path', { d: 'M0,0 L10,5 L0,10 z', fill: color }));
    this.svg!.querySelector('defs')!.appendChild(m);
    return id;
  }

  private draw(): void {
    const d = this.doc;
    const vp = this.viewport!;
    clear(vp);
    this.nodeEls.clear();
    this.groupEls.clear();
    this.computeReps();
    const P = this.placement!;
    const gGroups = s(d, 'g', { class: 'pl-groups' });
    const gEdges = s(d, 'g', { class: 'pl-edges' });
    const gLinks = s(d, 'g', { class: 'pl-links' });
    const gNodes = s(d, 'g', { class: 'pl-nodes' });
    vp.append(gGroups, gEdges, gNodes, gLinks);
    let nodeCount = 0;
    let groupCount = 0;
    for (const b of P.boxes.values()) {
      if (b.kind === 'node') {
        gNodes.appendChild(this.drawNode(b));
        nodeCount++;
      } else if (b.kind === 'collapsed') {
        gNodes.appendChild(this.drawGroup(b)); // above edges, like a node
        groupCount++;
      } else gGroups.appendChild(this.drawGroup(b));
    }
    this.drawEdges(gEdges);
    this.drawSharedLinks(gLinks);
    this.svg!.setAttribute('data-nodes', String(nodeCount));
    this.svg!.setAttribute('data-groups', String(groupCount));
    this.status.textContent = `${this.nodes.length} nodes · showing ${nodeCount} nodes, ${groupCount} closed groups`;
    this.applyClasses();
  }

  private drawNode(b: Box): SVGElement {
    const d = this.doc;
    const f = this.facts;
    const n = f.nodes.get(b.id!)!;
    const c = ROLE_COLORS[n.role] ?? ROLE_COLORS.compute;
    const g = s(d, 'g', { class: `pl-node pl-role-${n.role}`, 'data-id': n.id, 'data-role': n.role, transform: `translate(${b.x - b.w / 2},${b.y - b.h / 2})` });
    const obs = f.observerOf(n.id);
    const fill = n.role === 'observer' && obs ? groupFill(obs.group) : c.fill;
    g.appendChild(s(d, 'rect', { class: 'pl-box', width: b.w, height: b.h, rx: 6, fill, stroke: c.stroke }));
    const maxChars = Math.max(6, Math.floor((b.w - 12) / 7));
    g.appendChild(s(d, 'text', { class: 'pl-label', x: b.w / 2, y: 17, 'text-anchor': 'middle', fill: c.text }, truncate(n.target, maxChars)));
    g.appendChild(s(d, 'text', { class: 'pl-sub', x: b.w / 2, y: 31, 'text-anchor': 'middle' }, truncate(subLabel(n, obs?.group), Math.floor((b.w - 10) / 6))));
    const tip: string[] = [`${n.id}: ${n.target_full}`, `role: ${n.role}`];
    if (n.shape) tip.push(`shape: [${n.shape.join(', ')}] ${n.dtype ?? ''}`);
    if (obs) {
      tip.push(`observer ${obs.id} group ${obs.group}`, `min ${fmtNums(obs.min)} max ${fmtNums(obs.max)}`, `scale ${fmtNums(obs.scale)} zero_point ${fmtNums(obs.zero_point)}`);
    }
    const q = f.qdq.get(n.id);
    if (q) tip.push(`${q.op} ${q.dtype ?? ''}`, `scale ${fmtNums(q.scale)} zero_point ${fmtNums(q.zero_point)}`);
    const a = f.annotation.get(n.id);
    if (a) {
      const mark = s(d, 'circle', { class: 'pl-annotated-mark', cx: 6, cy: 6, r: 4, fill: a.annotated ? '#0f172a' : '#fff', stroke: '#0f172a', 'stroke-width': 1.2 });
      mark.appendChild(s(d, 'title', undefined, a.annotated ? 'annotated (_annotated = True)' : 'annotation present, _annotated = False'));
      g.appendChild(mark);
      if (a.output) {
        const badge = s(d, 'g', { class: 'pl-badge', 'data-spec': a.output, transform: `translate(${b.w - 28},${b.h - 4})` });
        badge.appendChild(s(d, 'rect', { width: 24, height: 13, rx: 3, fill: f.specColor(a.output) }));
        badge.appendChild(s(d, 'text', { x: 12, y: 10, 'text-anchor': 'middle' }, truncate(a.output, 5)));
        badge.appendChild(s(d, 'title', undefined, `output spec ${a.output}`));
        g.appendChild(badge);
      }
      tip.push(`annotation: output ${a.output ?? 'none'}; inputs ${a.inputs.map((i) => `${i.src}:${i.spec ?? 'none'}`).join(', ')}`);
    }
    const note = this.opts.notes?.[n.id];
    if (note) {
      g.appendChild(s(d, 'text', { class: 'pl-note', x: b.w + 6, y: 16 }, `✎ ${truncate(note, 48)}`));
      tip.push(`note: ${note}`);
    }
    g.appendChild(s(d, 'title', undefined, tip.join('\n')));
    g.addEventListener('click', (e) => {
      e.stopPropagation();
      void this.select(n.id, { notify: true });
    });
    this.nodeEls.set(n.id, g);
    return g;
  }

  private drawGroup(b: Box): SVGElement {
    const d = this.doc;
    const grp = b.group!;
    const collapsed = b.kind === 'collapsed';
    const g = s(d, 'g', { class: `pl-group ${collapsed ? 'pl-collapsed' : 'pl-expanded'}`, 'data-group': grp.key, transform: `translate(${b.x - b.w / 2},${b.y - b.h / 2})` });
    g.appendChild(s(d, 'rect', { class: 'pl-gbox', width: b.w, height: b.h, rx: collapsed ? 6 : 8 }));
    const label = groupLabel(grp);
    const chars = Math.max(8, Math.floor((b.w - 30) / 6.6));
    if (collapsed) {
      g.appendChild(s(d, 'text', { class: 'pl-glabel', x: 10, y: 18 }, `⊞ ${truncate(label, chars)}`));
      g.appendChild(s(d, 'text', { class: 'pl-gsub', x: 10, y: 34 }, `${grp.total} nodes — click to open`));
    } else {
      g.appendChild(s(d, 'rect', { class: 'pl-ghead', width: b.w, height: HEADER, fill: 'transparent', style: 'cursor:pointer' }));
      g.appendChild(s(d, 'text', { class: 'pl-glabel', x: 8, y: 15 }, `⊟ ${truncate(label, chars)}`));
    }
    g.appendChild(s(d, 'title', undefined, `${grp.synthetic ? `section ${grp.label}` : `${grp.path} · ${grp.cls}`} (${grp.total} nodes) — click to ${collapsed ? 'open' : 'close'}`));
    const target = collapsed ? g : g.querySelectorAll('.pl-ghead, .pl-glabel');
    const onClick = (e: Event): void => {
      e.stopPropagation();
      void this.toggle(grp.key);
    };
    if (collapsed) g.addEventListener('click', onClick);
    else (target as NodeListOf<Element>).forEach((t) => t.addEventListener('click', onClick));
    this.groupEls.set(grp.key, g);
    return g;
  }

  /** From the bottom of `a` to the top of `b`. Between groups: out of the source's group along its right
   * margin, then dagre's route in the common group (around sibling boxes), then into the target's group
   * along its left margin; smoothed through the midpoints of the bends. */
  private edgePath(a: Box, b: Box, src?: Id, dst?: Id): string {
    const sx = a.x;
    const sy = a.y + a.h / 2;
    const tx = b.x;
    const ty = b.y - b.h / 2 - 2;
    const pair = src && dst && this.hier ? lcaItems(this.hier, src, dst) : null;
    if (!pair) {
      const dy = Math.max(18, Math.abs(ty - sy) / 2);
      return `M${sx},${sy} C${sx},${sy + dy} ${tx},${ty - dy} ${tx},${ty}`;
    }
    const P = this.placement!;
    const route = P.routes.get(`${pair[0]}\u0000${pair[1]}`) ?? [];
    const pts: Array<[number, number]> = [[sx, sy]];
    const A = P.boxes.get(pair[0]);
    // detour along a margin only when something in the group lies between the node and the group's edge
    if (A && A !== a && A.y + A.h / 2 - sy > 40 && this.blocked(sx, sy, A.x, A.y + A.h / 2, a)) {
      const mx = A.x + A.w / 2 - 5;
      pts.push([mx, sy + 12], [mx, A.y + A.h / 2]);
    }
    pts.push(...route.slice(1, -1));
    const B = P.boxes.get(pair[1]);
    const entry = route.length ? route[route.length - 1] : B ? [B.x, B.y - B.h / 2] : [tx, ty];
    if (B && B !== b && ty - (B.y - B.h / 2) > HEADER + 40 && this.blocked(entry[0], entry[1], tx, ty, b)) {
      const mx = B.x - B.w / 2 + 5;
      pts.push([mx, B.y - B.h / 2], [mx, ty - 12]);
    }
    pts.push([tx, ty]);
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
  private blocked(x1: number, y1: number, x2: number, y2: number, skip: Box): boolean {
    const solid = this.solid;
    if (solid.length > 1500) return true;
    for (const r of solid) {
      if (r === skip) continue;
      const l = r.x - r.w / 2, rr = r.x + r.w / 2, tp = r.y - r.h / 2, bt = r.y + r.h / 2;
      let t0 = 0, t1 = 1;
      const dx = x2 - x1, dy = y2 - y1;
      const clip = (p: number, q: number): boolean => {
        if (p === 0) return q >= 0;
        const u = q / p;
        if (p < 0) { if (u > t1) return false; if (u > t0) t0 = u; } else { if (u < t0) return false; if (u < t1) t1 = u; }
        return true;
      };
      if (clip(-dx, x1 - l) && clip(dx, rr - x1) && clip(-dy, y1 - tp) && clip(dy, bt - y1) && t0 < t1) return true;
    }
    return false;
  }

  private solid: Box[] = [];

  private drawEdges(layer: SVGElement): void {
    this.solid = [...this.placement!.boxes.values()].filter((b) => b.kind !== 'expanded');
    const d = this.doc;
    const P = this.placement!;
    const f = this.facts;
    const agg = new Map<string, { n: number; src: Id; dst: Id }>();
    const stubs = new Map<string, number>();
    for (const e of this.edges) {
      const ra = this.repOf.get(e.src);
      const rb = this.repOf.get(e.dst);
      if (!ra || !rb || ra === rb) continue;
      if (this.hier!.stubbed.has(e.src)) {
        const k = `${e.src}\u0000${rb}`;
        const seen = stubs.get(k) ?? 0;
        stubs.set(k, seen + 1);
        if (seen === 0) layer.appendChild(this.stub(e.src, P.boxes.get(rb)!, rb.startsWith('n:') ? e.dst : null));
        continue;
      }
      if (ra.startsWith('n:') && rb.startsWith('n:')) {
        const a = P.boxes.get(ra)!;
        const b = P.boxes.get(rb)!;
        const p = s(d, 'path', { class: 'pl-edge', d: this.edgePath(a, b, e.src, e.dst), 'data-src': e.src, 'data-dst': e.dst });
        // an edge between different groups is not routed around boxes: draw it lighter
        if (this.hier!.parentOf.get(e.src) !== this.hier!.parentOf.get(e.dst)) p.setAttribute('opacity', '0.55');
        const q = f.qdq.get(e.src);
        const spec = f.edgeSpec(e.src, e.dst);
        let color = FLOAT_EDGE;
        if (q && q.kind === 'quantize') {
          p.setAttribute('class', 'pl-edge pl-int');
          color = INT_EDGE;
          layer.appendChild(s(d, 'text', { class: 'pl-edge-label', x: a.x + 4, y: a.y + a.h / 2 + 11 }, q.dtype ?? 'int'));
        } else if (spec) {
          color = f.specColor(spec);
          p.setAttribute('class', 'pl-edge pl-spec');
          p.setAttribute('style', `stroke:${color}`);
          p.setAttribute('data-spec', spec);
          p.appendChild(s(d, 'title', undefined, `input spec ${spec} (${e.src} → ${e.dst})`));
        }
        p.setAttribute('marker-end', `url(#${this.marker(color)})`);
        layer.appendChild(p);
      } else {
        const k = `${ra}\u0000${rb}`;
        const cur = agg.get(k);
        if (cur) cur.n += 1;
        else agg.set(k, { n: 1, src: e.src, dst: e.dst });
      }
    }
    for (const [k, { n: count, src, dst }] of agg) {
      const [ra, rb] = k.split('\u0000');
      const a = P.boxes.get(ra);
      const b = P.boxes.get(rb);
      if (!a || !b) continue;
      const p = s(d, 'path', { class: 'pl-edge pl-agg', d: this.edgePath(a, b, src, dst), 'marker-end': `url(#${this.marker('#64748b')})` });
      p.appendChild(s(d, 'title', undefined, `${count} edge${count > 1 ? 's' : ''}`));
      layer.appendChild(p);
    }
  }

  /** A short labelled edge into `b` from a widely shared producer (drawn instead of a long edge). */
  private stub(src: Id, b: Box, dst: Id | null): SVGElement {
    const d = this.doc;
    const x = b.x - b.w / 2 + 14;
    const y = b.y - b.h / 2;
    const g = s(d, 'g', { class: 'pl-stub', 'data-src': src, ...(dst ? { 'data-dst': dst } : {}) });
    g.appendChild(s(d, 'path', { class: 'pl-edge pl-stub-line', d: `M${x},${y - 16} L${x},${y - 2}`, 'marker-end': `url(#${this.marker(FLOAT_EDGE)})` }));
    g.appendChild(s(d, 'text', { class: 'pl-stub-label', x: x + 4, y: y - 9 }, truncate(src, 24)));
    g.appendChild(s(d, 'title', undefined, `from ${src} (shared by many nodes; drawn as a stub)`));
    g.addEventListener('click', (ev) => {
      ev.stopPropagation();
      void this.select(src, { reveal: true, notify: true });
    });
    return g;
  }

  private anchorOf(x: { edge: [Id, Id] } | { node: Id }): [number, number] | null {
    const P = this.placement!;
    if ('node' in x) {
      const r = this.repOf.get(x.node);
      const b = r && r.startsWith('n:') ? P.boxes.get(r) : undefined;
      return b ? [b.x + b.w / 2, b.y] : null;
    }
    const ra = this.repOf.get(x.edge[0]);
    const rb = this.repOf.get(x.edge[1]);
    const a = ra && ra.startsWith('n:') ? P.boxes.get(ra) : undefined;
    const b = rb && rb.startsWith('n:') ? P.boxes.get(rb) : undefined;
    return a && b ? [(a.x + b.x) / 2, (a.y + a.h / 2 + b.y - b.h / 2) / 2] : null;
  }

  private drawSharedLinks(layer: SVGElement): void {
    const d = this.doc;
    const f = this.facts;
    for (const a of f.snap.annotations) {
      const uses: Array<{ from: { edge: [Id, Id] } | { node: Id }; spec: string }> = [];
      for (const i of a.inputs) if (i.spec) uses.push({ from: { edge: [i.src, a.node] }, spec: i.spec });
      if (a.output) uses.push({ from: { node: a.node }, spec: a.output });
      for (const u of uses) {
        const sp = f.specs.get(u.spec);
        if (!sp || sp.kind !== 'SharedQuantizationSpec' || !sp.shared_with) continue;
        const p0 = this.anchorOf(u.from);
        const p1 = this.anchorOf(sp.shared_with);
        if (!p0 || !p1) continue;
        const mx = (p0[0] + p1[0]) / 2 + 40;
        const my = (p0[1] + p1[1]) / 2;
        const color = f.specColor(u.spec);
        const path = s(d, 'path', { class: 'pl-shared', d: `M${p0[0]},${p0[1]} Q${mx},${my} ${p1[0]},${p1[1]}`, style: `stroke:${color}`, 'data-spec': u.spec, 'marker-end': `url(#${this.marker(color)})` });
        path.appendChild(s(d, 'title', undefined, `${u.spec} SharedQuantizationSpec → ${'edge' in sp.shared_with ? `edge ${sp.shared_with.edge.join(' → ')}` : `node ${sp.shared_with.node}`}`));
        layer.appendChild(path);
      }
    }
  }

  // ---- selection, search, marks -------------------------------------------------------------

  private applyClasses(): void {
    const mark = (ids: Iterable<Id>, cls: string): void => {
      for (const id of ids) {
        const el = this.nodeEls.get(id);
        if (el) el.classList.add(cls);
        else {
          const r = this.repOf.get(id);
          if (r && r.startsWith('g:')) this.groupEls.get(r.slice(2))?.classList.add(cls);
        }
      }
    };
    for (const el of [...this.nodeEls.values(), ...this.groupEls.values()]) {
      el.classList.remove('pl-selected', 'pl-counterpart', 'pl-match', 'pl-removed', 'pl-added');
    }
    const m = this.opts.marks;
    if (m) {
      for (const id of m.removed) this.nodeEls.get(id)?.classList.add('pl-removed');
      for (const id of m.added) this.nodeEls.get(id)?.classList.add('pl-added');
    }
    mark(this.matches, 'pl-match');
    mark(this.counter, 'pl-counterpart');
    if (this.selected) mark([this.selected], 'pl-selected');
  }

  async select(id: Id | null, o: { reveal?: boolean; notify?: boolean } = {}): Promise<void> {
    this.selected = id && this.facts.nodes.has(id) ? id : null;
    this.counter.clear();
    renderDetails(this.doc, this.details, this.facts, this.selected, this.selected ? this.opts.notes?.[this.selected] : undefined);
    if (o.notify) this.opts.onSelect?.(this.selected);
    if (this.selected && o.reveal) await this.reveal(this.selected);
    else this.applyClasses();
  }

  /** Mark nodes that correspond to a selection made in another pane; details show the first. */
  showCounterparts(ids: Set<Id>): void {
    this.selected = null;
    this.counter = new Set([...ids].filter((i) => this.facts.nodes.has(i)));
    const first = [...this.counter][0] ?? null;
    renderDetails(this.doc, this.details, this.facts, first, first ? this.opts.notes?.[first] : undefined);
    this.applyClasses();
  }

  async reveal(id: Id): Promise<void> {
    if (!this.hier) return;
    let changed = false;
    for (const g of ancestors(this.hier, id)) {
      if (!this.expanded.has(g.key)) {
        this.expanded.add(g.key);
        changed = true;
      }
    }
    if (changed) await this.redraw();
    else this.applyClasses();
    const b = this.placement?.boxes.get(nodeKey(id));
    if (b) this.centerOn(b.x, b.y);
  }

  search(q: string): Id[] {
    const t = q.trim().toLowerCase();
    this.matches.clear();
    clear(this.results);
    if (t) {
      for (const n of this.nodes) {
        if (n.id.toLowerCase().includes(t) || n.target.toLowerCase().includes(t) || n.target_full.toLowerCase().includes(t)) this.matches.add(n.id);
      }
      // exact names first, then names starting with the query, then the rest (graph order within each)
      const rank = (id: Id): number => {
        const n = this.facts.nodes.get(id)!;
        const a = id.toLowerCase();
        const b = n.target.toLowerCase();
        return a === t || b === t ? 0 : a.startsWith(t) || b.startsWith(t) ? 1 : 2;
      };
      const ids = [...this.matches].map((id, i) => [rank(id), i, id] as const).sort((x, y) => x[0] - y[0] || x[1] - y[1]).map((x) => x[2]);
      this.matches = new Set(ids);
      this.results.appendChild(h(this.doc, 'span', { class: 'pl-status' }, `${ids.length} match${ids.length === 1 ? '' : 'es'}`));
      for (const id of ids.slice(0, 30)) {
        const b = h(this.doc, 'button', { class: 'pl-result', type: 'button' }, id);
        b.addEventListener('click', () => void this.select(id, { reveal: true, notify: true }));
        this.results.appendChild(b);
      }
    }
    this.applyClasses();
    return [...this.matches];
  }

  async toggle(key: string): Promise<void> {
    const gb = this.placement?.boxes.get(groupKey(key));
    const anchor = gb ? { key: groupKey(key), sx: this.t.x + (gb.x - gb.w / 2) * this.t.k, sy: this.t.y + (gb.y - gb.h / 2) * this.t.k } : undefined;
    if (this.expanded.has(key)) {
      this.expanded.delete(key);
      for (const k of [...this.expanded]) if (k.startsWith(key + '.') || k.startsWith(key + '#')) this.expanded.delete(k);
    } else this.expanded.add(key);
    await this.redraw(anchor);
  }

  // ---- zoom / pan ---------------------------------------------------------------------------

  private applyTransform(): void {
    this.viewport?.setAttribute('transform', `translate(${this.t.x},${this.t.y}) scale(${this.t.k})`);
  }

  private size(): [number, number] {
    const r = this.svg?.getBoundingClientRect();
    return [r && r.width ? r.width : 800, r && r.height ? r.height : 520];
  }

  fit(): void {
    if (!this.placement) return;
    const [cw, ch] = this.size();
    const W = this.placement.width + 40;
    const H = this.placement.height + 40;
    let k = Math.max(0.02, Math.min(1.3, cw / W, ch / H));
    // A tall graph would shrink to unreadable text: fit the width instead (up to a readable zoom), show the top.
    if (k < 0.75) k = Math.max(k, Math.min(0.95, cw / W));
    this.t = { k, x: (cw - this.placement.width * k) / 2, y: Math.max(10, (ch - this.placement.height * k) / 2) };
    this.fitted = this.svg?.getBoundingClientRect().width ? true : false;
    this.applyTransform();
  }

  centerOn(x: number, y: number): void {
    const [cw, ch] = this.size();
    if (this.t.k < 0.6) this.t.k = 0.9;
    this.t.x = cw / 2 - x * this.t.k;
    this.t.y = ch / 2 - y * this.t.k;
    this.applyTransform();
  }

  /** Called when a hidden pane becomes visible: fit once it has a size. */
  shown(): void {
    if (!this.fitted) this.fit();
  }

  private bindPanZoom(svg: SVGSVGElement): void {
    svg.addEventListener(
      'wheel',
      (e: WheelEvent) => {
        e.preventDefault();
        const r = svg.getBoundingClientRect();
        const px = e.clientX - r.left;
        const py = e.clientY - r.top;
        const k = Math.max(0.02, Math.min(4, this.t.k * Math.exp(-e.deltaY * 0.0015)));
        this.t.x = px - ((px - this.t.x) * k) / this.t.k;
        this.t.y = py - ((py - this.t.y) * k) / this.t.k;
        this.t.k = k;
        this.fitted = true;
        this.applyTransform();
      },
      { passive: false },
    );
    let drag: { x: number; y: number; tx: number; ty: number } | null = null;
    svg.addEventListener('pointerdown', (e: PointerEvent) => {
      if (e.button !== 0) return;
      drag = { x: e.clientX, y: e.clientY, tx: this.t.x, ty: this.t.y };
    });
    svg.addEventListener('pointermove', (e: PointerEvent) => {
      if (!drag) return;
      this.t.x = drag.tx + e.clientX - drag.x;
      this.t.y = drag.ty + e.clientY - drag.y;
      this.applyTransform();
    });
    const end = (): void => {
      drag = null;
    };
    svg.addEventListener('pointerup', end);
    svg.addEventListener('pointerleave', end);
  }

  destroy(): void {
    this.destroyed = true;
    this.resize?.disconnect();
  }
}
