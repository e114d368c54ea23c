// One pane: a drawing of one Snapshot with module groups, search, selection and details. Small scenes are SVG
// (nodes.ts / edges.ts: every element has its events, tooltip and styles); scenes with more boxes than
// CANVAS_THRESHOLD are drawn on a canvas (canvas-view.ts) with a minimap. Zoom and pan in pan-zoom.ts, layout
// in hier-layout.ts.

import { badgesOf, badgesWidth, type Summary, summarize } from './badges';
import { type NoteBox, noteBox } from './callout';
import type { Mark } from './canvas-draw';
import { bucket, CANVAS_THRESHOLD, type Hit, useCanvas } from './canvas-index';
import { CanvasView } from './canvas-view';
import { renderDetails } from './details';
import { clear, h, s } from './dom';
import { drawnGraph } from './drawn';
import { drawEdges, drawSharedLinks } from './edges';
import { exportButtons } from './export-image';
import { Facts } from './facts';
import { ancestors, buildHierarchy, groupKey, type Hierarchy, initialExpanded, nodeKey } from './groups';
import { type Heat, makeHeat } from './heat';
import { collapsedWidth, GROUP_H, HierLayout, type Placement } from './hier-layout';
import { EN, type Tr } from './i18n';
import type { LayoutClient } from './layout-client';
import { legend } from './legend';
import { Minimap } from './minimap';
import { BADGE_ROW_H, drawGroup, drawNode } from './nodes';
import { overviewExpanded, overviewSvg, repsOf } from './overview';
import { PanZoom } from './pan-zoom';
import type { Scene } from './scene';
import { searchNodes, worstNode } from './search';
import type { Edge, GraphNode, Id, Overlay, Snapshot } from './types';

export interface GraphViewOptions {
  client: LayoutClient;
  /** the UI's words in the view's locale (default English) */
  t?: Tr;
  collapseThreshold: number;
  focus?: Id[] | null;
  notes?: Record<Id, string>;
  marks?: { removed: Set<Id>; added: Set<Id> };
  overlay?: Overlay | null;
  /** other panes show counterparts of this one (legend lists the mark) */
  compare?: boolean;
  onSelect?: (id: Id | null) => void;
  /** pointer over a node (null: left it), to highlight its counterparts in other panes */
  onHover?: (id: Id | null) => void;
  /** the user opened or closed a group (compare panes follow) */
  onToggle?: (key: string, open: boolean) => void;
}

let uid = 0;

export { isGuards } from './drawn';

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
  private query = '';
  /** the search hit Enter last stepped to */
  private hit = -1;
  private nodeEls = new Map<Id, SVGElement>();
  private groupEls = new Map<string, SVGElement>();
  private repOf = new Map<Id, string>();
  private svg: SVGSVGElement | null = null;
  private viewport: SVGElement | null = null;
  private details: HTMLElement;
  private drawer: HTMLElement;
  private hovered = new Set<Id>();
  private summary: Map<string, Summary> | undefined;
  private notes = new Map<Id, NoteBox>();
  private status: HTMLElement;
  private results: HTMLElement;
  private busy: Promise<void> = Promise.resolve();
  private markerIds = new Map<string, string>();
  private id = ++uid;
  private destroyed = false;
  private pz: PanZoom | null = null;
  /** the graph area (holds the SVG, or the canvas and minimap of a large scene) */
  private area: HTMLElement | null = null;
  private cv: CanvasView | null = null;
  private map: Minimap | null = null;
  /** the current scene is drawn on the canvas */
  canvasMode = false;
  /** drawn boxes above which the canvas draws (a test or an embedder may move it) */
  canvasThreshold = CANVAS_THRESHOLD;
  private doc: Document;
  private heat: Heat | null;
  private t: Tr;

  constructor(
    doc: Document,
    snap: Snapshot,
    private opts: GraphViewOptions,
  ) {
    this.doc = doc;
    this.t = opts.t ?? EN;
    this.facts = new Facts(snap);
    this.heat = makeHeat(opts.overlay);
    const focus = opts.focus ? new Set(opts.focus) : null;
    // torch.export's shape-guard module is no step of the model: drawn only when a focus names it
    const drawn = drawnGraph(snap, focus);
    const keep = drawn.keep;
    this.nodes = drawn.nodes;
    this.edges = drawn.edges;
    this.el = h(doc, 'div', { class: 'pl-graph' });
    this.details = h(doc, 'div', { class: 'pl-details' });
    this.drawer = h(doc, 'aside', { class: 'pl-drawer', hidden: '', 'aria-label': this.t('ui.details') });
    const close = h(
      doc,
      'button',
      { class: 'pl-btn pl-drawer-close', type: 'button', title: this.t('ui.close_details') },
      '×',
    );
    close.addEventListener('click', () => void this.select(null, { notify: true }));
    this.drawer.append(close, this.details);
    this.status = h(doc, 'span', { class: 'pl-status' });
    this.results = h(doc, 'div', { class: 'pl-results' });
    if (this.nodes.length === 0) {
      this.el.appendChild(
        h(doc, 'div', { class: 'pl-empty' }, this.t(snap.nodes.length === 0 ? 'ui.empty_graph' : 'ui.no_focus')),
      );
      this.ready = Promise.resolve();
      return;
    }
    this.hier = buildHierarchy(this.nodes, this.edges, drawn.fixed);
    this.summary = this.hier.groups.size > 1 ? summarize(this.hier, this.facts, this.heat) : undefined;
    for (const [id, text] of Object.entries(opts.notes ?? {}))
      if (keep.has(id) && text) this.notes.set(id, noteBox(text));
    this.buildChrome();
    this.layout = new HierLayout(this.hier, this.facts.nodes, opts.client, {
      noteOf: (id) => this.notes.get(id) ?? null,
      collapsedSize: (g) => {
        const w = collapsedWidth(g);
        const sm = this.summary?.get(g.key);
        const bs = sm ? badgesOf(sm, this.heat, this.t) : [];
        if (!bs.length) return [w, GROUP_H];
        return [Math.max(w, Math.ceil((badgesWidth(bs) + 20) / 16) * 16), GROUP_H + BADGE_ROW_H];
      },
    });
    this.expanded = initialExpanded(this.hier, this.nodes.length, opts.collapseThreshold);
    this.ready = this.redraw();
  }

  private buildChrome(): void {
    const d = this.doc;
    const bar = h(d, 'div', { class: 'pl-toolbar' });
    const search = h(d, 'input', {
      type: 'search',
      placeholder: this.t('ui.search'),
      'aria-label': this.t('ui.search_label'),
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    search.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => this.search(search.value), 120);
    });
    search.title = this.t('ui.views.search_title');
    search.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter') return;
      clearTimeout(timer);
      if (search.value !== this.query) this.search(search.value);
      void this.step(e.shiftKey ? -1 : 1);
    });
    const fit = h(d, 'button', { class: 'pl-btn', type: 'button', title: this.t('ui.fit_title') }, this.t('ui.fit'));
    fit.addEventListener('click', () => this.fit());
    const collapse = h(
      d,
      'button',
      { class: 'pl-btn', type: 'button', title: this.t('ui.collapse_all_title') },
      this.t('ui.collapse_all'),
    );
    collapse.addEventListener('click', () => {
      this.expanded = new Set(['']);
      this.pz!.fitted = false;
      void this.redraw();
    });
    bar.append(search, fit, collapse);
    const worst = worstNode(this.nodes, this.heat);
    if (worst && this.heat) {
      const name = this.heat.overlay.name;
      const b = h(
        d,
        'button',
        { class: 'pl-btn pl-worst', type: 'button', title: this.t('ui.views.worst_title', { name }) },
        this.t('ui.views.worst', { name }),
      );
      b.addEventListener('click', () => void this.select(worst, { reveal: true, notify: true }));
      bar.appendChild(b);
    }
    if (this.nodes.length <= 5000) {
      const all = h(
        d,
        'button',
        { class: 'pl-btn', type: 'button', title: this.t('ui.expand_all_title') },
        this.t('ui.expand_all'),
      );
      all.addEventListener('click', () => {
        this.expanded = new Set(this.hier!.groups.keys());
        this.pz!.fitted = false;
        void this.redraw();
      });
      bar.appendChild(all);
    }
    bar.appendChild(exportButtons(d, this.el, () => (this.canvasMode ? (this.cv?.el ?? null) : null), this.t));
    bar.appendChild(this.status);
    const stage = h(d, 'div', { class: 'pl-stage' });
    const canvas = h(d, 'div', { class: 'pl-canvas' });
    const svg = s(d, 'svg', { role: 'img', 'aria-label': this.t('ui.graph_label') }) as SVGSVGElement;
    const defs = s(d, 'defs');
    svg.appendChild(defs);
    this.viewport = s(d, 'g', { class: 'pl-viewport' });
    svg.appendChild(this.viewport);
    canvas.appendChild(svg);
    stage.append(canvas, this.drawer);
    this.svg = svg;
    this.area = canvas;
    this.pz = new PanZoom(canvas, this.viewport, canvas, () => this.placement, this.t);
    const lg = legend(this.doc, this.facts, this.nodes, {
      heat: this.heat,
      marks: this.opts.marks,
      compare: this.opts.compare,
      groups: this.summary !== undefined,
      t: this.t,
    });
    this.el.append(bar, this.results, stage, lg);
  }

  // ---- layout + drawing -------------------------------------------------------------------------

  redraw(anchor?: { key: string; sx: number; sy: number }): Promise<void> {
    // one redraw at a time; a failed one (reported through its promise) does not block the next
    this.busy = this.busy
      .catch(() => undefined)
      .then(async () => {
        if (this.destroyed || !this.layout) return;
        this.status.textContent = this.t('ui.laying_out');
        const t0 = typeof performance !== 'undefined' ? performance.now() : Date.now();
        this.placement = await this.layout.place(this.expanded);
        const t1 = typeof performance !== 'undefined' ? performance.now() : Date.now();
        this.lastLayout = { ms: t1 - t0, computed: this.placement.computed };
        if (this.destroyed) return;
        await this.draw();
        if (this.destroyed) return;
        if (anchor) this.pz!.anchor(anchor.key, anchor.sx, anchor.sy);
        if (!this.pz!.fitted) this.pz!.fit();
        if (this.canvasMode) {
          this.map?.setPlacement(this.placement!);
          await this.cv!.paint();
        }
        await this.drawOverview();
      });
    return this.busy;
  }

  private computeReps(): void {
    this.repOf = repsOf(this.hier!.root, this.expanded);
  }

  private marker(color: string): string {
    let id = this.markerIds.get(color);
    if (id) return id;
    id = `pl-arrow-${this.id}-${this.markerIds.size}`;
    this.markerIds.set(color, id);
    const m = s(this.doc, 'marker', {
      id,
      viewBox: '0 0 10 10',
      refX: 9,
      refY: 5,
      markerWidth: 8,
      markerHeight: 8,
      markerUnits: 'userSpaceOnUse',
      orient: 'auto-start-reverse',
    });
    m.appendChild(s(this.doc, 'path', { d: 'M0,0 L10,5 L0,10 z', style: `fill:${color}` }));
    this.svg!.querySelector('defs')!.appendChild(m);
    return id;
  }

  private async draw(): Promise<void> {
    const d = this.doc;
    const vp = this.viewport!;
    clear(vp);
    this.nodeEls.clear();
    this.groupEls.clear();
    this.computeReps();
    const P = this.placement!;
    let nodeCount = 0;
    let groupCount = 0;
    for (const b of P.boxes.values()) {
      if (b.kind === 'node') nodeCount++;
      else if (b.kind === 'collapsed') groupCount++;
    }
    this.canvasMode = useCanvas(nodeCount + groupCount, this.canvasThreshold);
    this.showRenderer();
    const sc: Scene = {
      doc: d,
      facts: this.facts,
      hier: this.hier!,
      placement: P,
      repOf: this.repOf,
      notes: this.opts.notes,
      heat: this.heat,
      summary: this.summary,
      t: this.t,
      marker: (c) => this.marker(c),
      solid: [...P.boxes.values()].filter((b) => b.kind !== 'expanded'),
    };
    const gGroups = s(d, 'g', { class: 'pl-groups' });
    const gEdges = s(d, 'g', { class: 'pl-edges' });
    const gLinks = s(d, 'g', { class: 'pl-links' });
    const gNodes = s(d, 'g', { class: 'pl-nodes' });
    vp.append(gGroups, gEdges, gNodes, gLinks);
    const pick = (id: Id): void => void this.select(id, { notify: true });
    const toggle = (key: string): void => void this.toggle(key);
    if (this.canvasMode) await this.cv!.setScene(sc, this.edges);
    else {
      for (const b of P.boxes.values()) {
        if (b.kind === 'node') {
          const el = drawNode(sc, b, pick);
          const id = b.id!;
          el.addEventListener('mouseenter', () => this.opts.onHover?.(id));
          el.addEventListener('mouseleave', () => this.opts.onHover?.(null));
          this.nodeEls.set(id, el);
          gNodes.appendChild(el);
        } else {
          const el = drawGroup(sc, b, toggle);
          this.groupEls.set(b.group!.key, el);
          // a closed group sits above the edges, like a node; an open one is a frame below them
          (b.kind === 'collapsed' ? gNodes : gGroups).appendChild(el);
        }
      }
      drawEdges(sc, gEdges, this.edges, (id) => void this.select(id, { reveal: true, notify: true }));
      drawSharedLinks(sc, gLinks);
    }
    for (const el of [this.svg!, this.cv?.el])
      if (el) {
        el.setAttribute('data-nodes', String(nodeCount));
        el.setAttribute('data-groups', String(groupCount));
      }
    const stage = this.facts.snap.stage ? `${this.facts.snap.stage} · ` : '';
    this.status.textContent =
      stage + this.t('ui.status', { total: this.nodes.length, shown: nodeCount, groups: groupCount });
    this.cv?.el.setAttribute('aria-label', `${this.t('ui.graph_label')}: ${this.status.textContent}`);
    this.applyClasses(false);
  }

  /** A canvas-drawn scene's static picture: its top-level groups closed (overview.ts); none for an SVG one. */
  private async drawOverview(): Promise<void> {
    this.area!.querySelector(':scope > .pl-overview')?.remove();
    if (!this.canvasMode) return;
    const ex = overviewExpanded(this.hier!);
    const P = await this.layout!.place(ex);
    const shown = [...P.boxes.values()].filter((b) => b.kind !== 'expanded').length;
    // a flat graph has no groups to close: its overview would be as large as the canvas scene
    if (this.destroyed || useCanvas(shown, this.canvasThreshold)) return;
    const caption = this.t('ui.picture.overview', { shown, total: this.nodes.length });
    const base = { doc: this.doc, facts: this.facts, hier: this.hier!, heat: this.heat, t: this.t };
    const marker = (c: string): string => this.marker(c);
    const svg = overviewSvg(
      { ...base, marker, summary: this.summary, notes: this.opts.notes },
      P,
      ex,
      this.edges,
      caption,
    );
    this.area!.appendChild(svg);
  }

  /** Show the SVG or the canvas (created on first need) for the scene about to be drawn. */
  private showRenderer(): void {
    if (this.canvasMode && !this.cv) {
      this.cv = new CanvasView(
        this.doc,
        this.area!,
        this.pz!,
        {
          pick: (id) => void this.select(id, { notify: true }),
          toggle: (key) => void this.toggle(key),
          hover: (id) => this.opts.onHover?.(id),
          tip: (hit) => this.tipOf(hit),
        },
        this.t('ui.graph_label'),
      );
      this.map = new Minimap(this.doc, this.area!, this.pz!, this.t);
      this.cv.onFrame = () => this.map?.update();
      this.cv.onTheme = () => {
        if (this.placement) this.map?.setPlacement(this.placement);
      };
      this.area!.append(this.cv.el, this.map.el);
    }
    this.svg!.style.display = this.canvasMode ? 'none' : '';
    if (this.cv) {
      this.cv.active = this.canvasMode;
      this.cv.el.style.display = this.canvasMode ? '' : 'none';
    }
    if (this.map) this.map.el.style.display = this.canvasMode ? '' : 'none';
  }

  /** Tooltip of a canvas target (the SVG path's <title> text, shortened). */
  private tipOf(hit: Hit): string {
    if (hit.kind === 'node') {
      const n = this.facts.nodes.get(hit.id);
      if (!n) return hit.id;
      const tip = [`${n.id}: ${n.target_full}`, this.t('ui.tip.role', { role: this.t(`ui.role.${n.role}`) })];
      if (n.shape) tip.push(this.t('ui.tip.shape', { shape: `[${n.shape.join(', ')}] ${n.dtype ?? ''}` }));
      const heat = this.heat?.of(n.id);
      if (heat) tip.push(heat.text);
      const note = this.opts.notes?.[n.id];
      if (note) tip.push(this.t('ui.tip.note', { note }));
      return tip.join('\n');
    }
    const g = this.hier?.groups.get(hit.group);
    if (!g) return hit.group;
    return this.t(hit.kind === 'collapsed' ? 'ui.group.tip_open' : 'ui.group.tip_close', {
      what: g.synthetic ? this.t('ui.group.section', { label: g.label }) : `${g.path} · ${g.cls}`,
      n: g.total,
    });
  }

  /** Highlights by box key for the canvas: what applyClasses sets as classes on SVG elements. */
  private canvasMarks(): Map<string, Set<Mark>> {
    const out = new Map<string, Set<Mark>>();
    const boxes = this.placement?.boxes;
    if (!boxes) return out;
    const add = (key: string, m: Mark): void => {
      bucket(out, key, () => new Set<Mark>()).add(m);
    };
    const mark = (ids: Iterable<Id>, m: Mark): void => {
      for (const id of ids) {
        if (boxes.has(nodeKey(id))) add(nodeKey(id), m);
        else {
          const r = this.repOf.get(id);
          if (r?.startsWith('g:')) add(r, m);
        }
      }
    };
    const mk = this.opts.marks;
    if (mk) {
      for (const id of mk.removed) if (boxes.has(nodeKey(id))) add(nodeKey(id), 'removed');
      for (const id of mk.added) if (boxes.has(nodeKey(id))) add(nodeKey(id), 'added');
    }
    mark(this.matches, 'match');
    mark(this.counter, 'counterpart');
    mark(this.hovered, 'hover');
    if (this.selected) mark([this.selected], 'selected');
    return out;
  }

  // ---- selection, search, marks -------------------------------------------------------------

  private applyClasses(paint = true): void {
    if (this.canvasMode) {
      const marks = this.canvasMarks();
      // the redraw that placed the scene paints it once the view is fitted
      if (paint) void this.cv!.setMarks(marks);
      else this.cv!.marks = marks;
      return;
    }
    const mark = (ids: Iterable<Id>, cls: string): void => {
      for (const id of ids) {
        const el = this.nodeEls.get(id);
        if (el) el.classList.add(cls);
        else {
          const r = this.repOf.get(id);
          if (r?.startsWith('g:')) this.groupEls.get(r.slice(2))?.classList.add(cls);
        }
      }
    };
    for (const el of [...this.nodeEls.values(), ...this.groupEls.values()]) {
      el.classList.remove('pl-selected', 'pl-counterpart', 'pl-match', 'pl-removed', 'pl-added', 'pl-hover');
    }
    const m = this.opts.marks;
    if (m) {
      for (const id of m.removed) this.nodeEls.get(id)?.classList.add('pl-removed');
      for (const id of m.added) this.nodeEls.get(id)?.classList.add('pl-added');
    }
    mark(this.matches, 'pl-match');
    mark(this.counter, 'pl-counterpart');
    mark(this.hovered, 'pl-hover');
    if (this.selected) mark([this.selected], 'pl-selected');
  }

  private heatRow(id: Id | null): string | undefined {
    return id ? this.heat?.of(id)?.text : undefined;
  }

  async select(id: Id | null, o: { reveal?: boolean; notify?: boolean } = {}): Promise<void> {
    this.selected = id && this.hier?.parentOf.has(id) ? id : null;
    this.counter.clear();
    renderDetails(
      this.doc,
      this.details,
      this.facts,
      this.selected,
      this.selected ? this.opts.notes?.[this.selected] : undefined,
      this.heatRow(this.selected),
      this.t,
    );
    this.openDrawer(this.selected !== null);
    if (o.notify) this.opts.onSelect?.(this.selected);
    if (this.selected && o.reveal) await this.reveal(this.selected);
    else this.applyClasses();
    if (this.selected) this.pz?.keepVisible(nodeKey(this.selected), this.drawerWidth());
  }

  private openDrawer(open: boolean): void {
    if (open) this.drawer.removeAttribute('hidden');
    else this.drawer.setAttribute('hidden', '');
  }

  /** px of the canvas the drawer covers (none when it is docked below the canvas in a narrow pane) */
  private drawerWidth(): number {
    if (this.drawer.hasAttribute('hidden')) return 0;
    const win = this.doc.defaultView;
    if (win && win.getComputedStyle(this.drawer).position !== 'absolute') return 0;
    return this.drawer.getBoundingClientRect().width;
  }

  /** Highlight nodes that correspond to the node under the pointer in another pane (empty: clear). */
  showHover(ids: Set<Id>): void {
    this.hovered = new Set([...ids].filter((i) => this.hier?.parentOf.has(i)));
    this.applyClasses();
  }

  /** Mark nodes that correspond to a selection made in another pane; details show the first. */
  showCounterparts(ids: Set<Id>): void {
    this.selected = null;
    this.counter = new Set([...ids].filter((i) => this.hier?.parentOf.has(i)));
    const first = [...this.counter][0] ?? null;
    renderDetails(
      this.doc,
      this.details,
      this.facts,
      first,
      first ? this.opts.notes?.[first] : undefined,
      this.heatRow(first),
      this.t,
    );
    this.openDrawer(first !== null);
    // the counterpart is revealed and centred as the selection is in its own pane
    if (first) void this.reveal(first);
    else this.applyClasses();
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
    if (b) this.pz?.centerOn(b.x, b.y, this.drawerWidth());
  }

  search(q: string): Id[] {
    this.query = q;
    this.hit = -1;
    const ids = searchNodes(this.nodes, this.facts, this.heat, q);
    this.matches = new Set(ids);
    clear(this.results);
    if (q.trim()) {
      this.results.appendChild(
        h(
          this.doc,
          'span',
          { class: 'pl-status' },
          this.t(ids.length === 1 ? 'ui.match_one' : 'ui.match_many', { n: ids.length }),
        ),
      );
      for (const id of ids.slice(0, 30)) {
        const b = h(this.doc, 'button', { class: 'pl-result', type: 'button' }, id);
        b.addEventListener('click', () => void this.select(id, { reveal: true, notify: true }));
        this.results.appendChild(b);
      }
    }
    this.applyClasses();
    return ids;
  }

  /** Enter in the search box: select and centre the next hit (Shift+Enter: the previous one). */
  async step(dir: 1 | -1): Promise<void> {
    const ids = [...this.matches];
    if (!ids.length) return;
    this.hit = (this.hit + dir + ids.length) % ids.length;
    for (const [i, b] of [...this.results.querySelectorAll('.pl-result')].entries())
      b.setAttribute('aria-current', String(i === this.hit));
    this.results.setAttribute('data-hit', String(this.hit));
    const st = this.results.querySelector('.pl-status');
    if (st) st.textContent = this.t('ui.views.hit', { i: this.hit + 1, n: ids.length });
    await this.select(ids[this.hit], { reveal: true, notify: true });
  }

  async toggle(key: string): Promise<void> {
    const open = !this.expanded.has(key);
    await this.setOpen(key, open);
    this.opts.onToggle?.(key, open);
  }

  /** Open or close group `key` (closing closes what is inside); nothing when this pane has no such group. */
  async setOpen(key: string, open: boolean): Promise<void> {
    if (!this.hier?.groups.has(key) || this.expanded.has(key) === open) return;
    const anchor = this.pz?.screenOf(groupKey(key));
    if (!open) {
      this.expanded.delete(key);
      for (const k of [...this.expanded])
        if (k.startsWith(`${key}.`) || k.startsWith(`${key}#`)) this.expanded.delete(k);
    } else this.expanded.add(key);
    await this.redraw(anchor ? { key: groupKey(key), ...anchor } : undefined);
  }

  fit(): void {
    this.pz?.fit();
  }

  /** this pane's zoom/pan (render links the panes of a compare view to one scale) */
  get panZoom(): PanZoom | null {
    return this.pz;
  }

  /** Called when a hidden pane becomes visible: fit once it has a size. */
  shown(): void {
    if (this.pz && !this.pz.fitted) this.pz.fit();
  }

  /** the canvas renderer, when the scene is large enough to use it */
  get canvasView(): CanvasView | null {
    return this.canvasMode ? this.cv : null;
  }

  /** the large scene's overview map */
  get minimap(): Minimap | null {
    return this.canvasMode ? this.map : null;
  }

  destroy(): void {
    this.destroyed = true;
    this.cv?.destroy();
    this.pz?.destroy();
  }
}
