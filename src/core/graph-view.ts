// One pane: a drawing of one Snapshot with module groups, search, selection and details. This file orchestrates:
// it owns the pane's state (open groups, selection, search hits), lays out (hier-layout.ts), and hands each placed
// scene to one of two renderers behind PaneView (pane-view.ts): SvgView (every element has its events, tooltip and
// styles) or, above CANVAS_THRESHOLD boxes, CanvasView with a minimap. Both paint the box model (box-model.ts).
// The toolbar is toolbar.ts, zoom and pan pan-zoom.ts.

import { badgesWidth, type Summary, summaryOf } from './badges';
import { BADGE_ROW_H, marksOf } from './box-model';
import { type NoteBox, noteBox } from './callout';
import { CANVAS_THRESHOLD, useCanvas } from './canvas-index';
import { CanvasView } from './canvas-view';
import { renderDetails } from './details';
import { clear, h } from './dom';
import { drawerAcross, placeDrawer } from './drawer-place';
import { drawnGraph } from './drawn';
import { EdgeHints } from './edge-hints';
import { type Facts, factsOf } from './facts';
import { GroupBadges } from './group-badges';
import { ancestors, buildHierarchy, groupKey, type Hierarchy, type Item, initialExpanded, nodeKey } from './groups';
import { type Heat, makeHeat } from './heat';
import { type Box, collapsedWidth, GROUP_H, HierLayout, type Placement } from './hier-layout';
import { EN, type Tr } from './i18n';
import type { LayoutClient } from './layout-client';
import { legend } from './legend';
import type { Mark } from './marks';
import { Minimap } from './minimap';
import { overviewExpanded, overviewSvg, repsOfSliced } from './overview';
import { PanZoom } from './pan-zoom';
import type { PaneHost, PaneView } from './pane-view';
import type { Scene } from './scene';
import { searchNodes, worstNode } from './search';
import { Settle } from './settle';
import { nextTask, Slicer } from './slicer';
import { SvgView } from './svg-view';
import { type Toolbar, toolbar } from './toolbar';
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
  /** the host fixed the canvas height (the side panel): a drawing taller than it is panned, never grown to */
  fixedHeight?: boolean;
}

export { isGuards } from './drawn';

export class GraphView {
  readonly el: HTMLElement;
  readonly ready: Promise<void>;
  readonly facts: Facts;
  readonly nodes: GraphNode[];
  private readonly total: number;
  readonly edges: Edge[];
  hier: Hierarchy | null = null;
  expanded = new Set<string>();
  placement: Placement | null = null;
  selected: Id | null = null;
  /** wall-clock ms and number of group layouts computed by the last redraw */
  lastLayout = { ms: 0, computed: 0 };
  /** the ready signal: `data-settled` / `data-busy` on the drawing's elements, the `pl-settled` event */
  readonly settle = new Settle(() => (this.canvasMode ? this.cv?.el : this.svg?.el) ?? null);
  private layout: HierLayout | null = null;
  private counter = new Set<Id>();
  private matches = new Set<Id>();
  private query = '';
  /** the search hit Enter last stepped to */
  private hit = -1;
  private repOf = new Map<Id, string>();
  private details: HTMLElement;
  private drawer: HTMLElement;
  private hovered = new Set<Id>();
  private summary: Map<string, Summary> | undefined;
  /** each closed group's badges, made once: the layout's sizes, the renderer switch and the painters share them */
  private badges: GroupBadges | null = null;
  private notes = new Map<Id, NoteBox>();
  private status: Toolbar | null = null;
  private results: HTMLElement;
  private busy: Promise<void> = Promise.resolve();
  private destroyed = false;
  private pz: PanZoom | null = null;
  /** the graph area (holds the SVG, or the canvas and minimap of a large scene) */
  private area: HTMLElement | null = null;
  private host: PaneHost = {
    pick: (id) => void this.select(id, { notify: true }),
    toggle: (key) => void this.toggle(key),
    hover: (id) => this.opts.onHover?.(id),
    goTo: (id) => void this.select(id, { reveal: true, notify: true }),
  };
  private svg: SvgView | null = null;
  private cv: CanvasView | null = null;
  private map: Minimap | null = null;
  /** the toolbar's place for a closed minimap's toggle */
  private mapSlot: HTMLElement | null = null;
  /** the overview picture of a canvas scene (drawOverview), with the canvas threshold it was made for */
  private overview: { threshold: number; svg: Promise<SVGSVGElement | null> } | null = null;
  /** the current scene is drawn on the canvas */
  canvasMode = false;
  /** a redraw is between laying out and painting (the view's size is held, the minimap waits for the placement) */
  private drawing = false;
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
    this.facts = factsOf(snap);
    this.heat = makeHeat(opts.overlay);
    const focus = opts.focus ? new Set(opts.focus) : null;
    // torch.export's shape-guard module is no step of the model: drawn only when a focus names it
    const drawn = drawnGraph(snap, focus);
    const keep = drawn.keep;
    this.nodes = drawn.nodes;
    this.edges = drawn.edges;
    // the graph's node count as torch counts it (len(graph.nodes), _guards_fn included): the panel's picker, the
    // CLI and pl.node_count say the same number (issue 26.4: 346 there, 345 here); a focus counts what it picked
    this.total = focus ? drawn.nodes.length : snap.nodes.length;
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
    this.results = h(doc, 'div', { class: 'pl-results' });
    if (this.nodes.length === 0) {
      this.el.appendChild(
        h(doc, 'div', { class: 'pl-empty' }, this.t(snap.nodes.length === 0 ? 'ui.empty_graph' : 'ui.no_focus')),
      );
      this.ready = Promise.resolve();
      return;
    }
    this.hier = buildHierarchy(this.nodes, this.edges, drawn.fixed);
    this.summary = this.hier.groups.size > 1 ? summaryOf(this.hier, this.facts, this.heat) : undefined;
    const badges = new GroupBadges(this.summary, this.heat, this.t);
    this.badges = badges;
    for (const [id, text] of Object.entries(opts.notes ?? {}))
      if (keep.has(id) && text) this.notes.set(id, noteBox(text));
    this.buildChrome();
    this.layout = new HierLayout(this.hier, this.facts.nodes, opts.client, {
      noteOf: (id) => this.notes.get(id) ?? null,
      collapsedSize: (g) => {
        const w = collapsedWidth(g);
        const bs = badges.of(g.key);
        if (!bs.length) return [w, GROUP_H];
        return [Math.max(w, Math.ceil((badgesWidth(bs) + 20) / 16) * 16), GROUP_H + BADGE_ROW_H];
      },
    });
    this.expanded = initialExpanded(this.hier, this.nodes.length, opts.collapseThreshold);
    this.ready = this.redraw();
  }

  private buildChrome(): void {
    const d = this.doc;
    const worst = worstNode(this.nodes, this.heat);
    const bar = toolbar(d, this.el, this.t, {
      search: (q) => this.search(q),
      // typing: the search runs after a pause, and the pane is busy until it has
      typing: () => this.settle.hold('search', true),
      query: () => this.query,
      step: (dir) => void this.step(dir),
      fit: () => this.fit(),
      collapseAll: () => this.openOnly(new Set([''])),
      // at every size: a scene past the canvas threshold is drawn on the canvas, with the minimap to move
      expandAll: () => this.openOnly(new Set(this.hier!.groups.keys())),
      worst:
        worst && this.heat
          ? { name: this.heat.overlay.name, go: () => void this.select(worst, { reveal: true, notify: true }) }
          : undefined,
      raster: () => (this.canvasMode ? (this.cv?.el ?? null) : null),
      viewSvg: () => (this.canvasMode ? (this.cv?.svgOfView() ?? null) : null),
    });
    this.status = bar;
    this.mapSlot = bar.mapSlot;
    const stage = h(d, 'div', { class: 'pl-stage' });
    const area = h(d, 'div', { class: 'pl-canvas' });
    this.svg = new SvgView(d, this.host, this.t('ui.graph_label'));
    this.settle.attach(this.svg.el);
    area.appendChild(this.svg.el);
    stage.append(area, this.drawer, bar.foot);
    this.area = area;
    this.pz = new PanZoom(area, this.svg.viewport, area, () => this.placement, this.t);
    this.pz.grow = !this.opts.fixedHeight;
    const order = new Map([...this.facts.nodes.keys()].map((id, i) => [id, i]));
    this.pz.compute = (b) => {
      let g = b.kind === 'collapsed' ? b.group : undefined;
      // a closed group counts as compute, by its first node (the group's items follow the program's order)
      while (g?.children.length) {
        const c: Item = g.children[0];
        if (c.kind === 'node') return order.get(c.id) ?? null;
        g = c.group;
      }
      return b.id !== undefined && this.facts.nodes.get(b.id)?.role === 'compute' ? (order.get(b.id) ?? null) : null;
    };
    const hints = new EdgeHints(d, area, this.pz, () => this.placement, this.t);
    // every move of the view (fit, resize, wheel, drag, centring) settles once what it started is painted
    this.pz.listeners.push(() => this.settle.touch());
    this.pz.listeners.push(() => hints.update());
    this.pz.listeners.push(() => {
      if (this.canvasMode) return; // the canvas view follows the pan-zoom itself
      this.svg?.zoom(this.pz!.t.k);
      this.placeNotes();
      // in a redraw the map draws once it has the new placement (its colours are read in a task of their own)
      if (!this.drawing && this.map?.el.style.display === '') this.map.update();
    });
    const lg = legend(this.doc, this.facts, this.nodes, {
      heat: this.heat,
      marks: this.opts.marks,
      compare: this.opts.compare,
      groups: this.summary !== undefined,
      t: this.t,
    });
    this.el.append(bar.el, this.results, stage, lg);
  }

  /** Open exactly these groups (Collapse all, Expand all) and fit the result. */
  private openOnly(keys: Set<string>): void {
    this.settle.touch();
    this.expanded = keys;
    this.pz!.fitted = false;
    void this.redraw();
  }

  // ---- layout + drawing -------------------------------------------------------------------------

  redraw(anchor?: { key: string; sx: number; sy: number }): Promise<void> {
    // one redraw at a time; a failed one (reported through its promise) does not block the next
    const end = this.settle.begin();
    this.busy = this.busy
      .catch(() => undefined)
      .then(async () => {
        if (this.destroyed || !this.layout) return;
        this.status!.say(this.t('ui.laying_out'));
        const t0 = typeof performance !== 'undefined' ? performance.now() : Date.now();
        this.placement = await this.layout.place(this.expanded);
        const t1 = typeof performance !== 'undefined' ? performance.now() : Date.now();
        this.lastLayout = { ms: t1 - t0, computed: this.placement.computed };
        if (this.destroyed) return;
        // the view's size before the new scene is in the DOM: anchoring, fitting and the minimap read it after
        this.pz!.holdSize();
        this.drawing = true;
        try {
          await this.draw();
          if (this.destroyed) return;
          if (anchor) this.pz!.anchor(anchor.key, anchor.sx, anchor.sy);
          if (!this.pz!.fitted) this.pz!.fit();
          else this.pz!.resizeToDrawing();
          this.placeNotes();
          if (!this.canvasMode) this.svg!.settle();
          if (this.placeMap()) {
            // the map reads the theme's colours (computed style): in a task of its own, not the one that put a
            // new SVG scene in the DOM (that read would style and lay out all of it there)
            await nextTask();
            if (this.destroyed) return;
            this.map!.setPlacement(this.placement!);
          }
          await this.view().paint();
        } finally {
          this.pz!.releaseSize();
          this.drawing = false;
        }
        await this.drawOverview();
      });
    this.busy.then(end, end);
    return this.busy;
  }

  /** Each note's callout on the side of its node the pane shows (note-side.ts; the canvas view asks on paint). */
  private placeNotes(): void {
    if (this.canvasMode || !this.placement) return;
    this.svg?.placeNotes(this.placement, this.pz!.shownX(this.drawerWidth()));
  }

  /** the renderer of the current scene */
  private view(): PaneView {
    return this.canvasMode ? this.cv! : this.svg!;
  }

  private async draw(): Promise<void> {
    // every node's box: a walk over all nodes, in page tasks of ~25 ms (100k nodes take tens of ms)
    const slicer = new Slicer(25);
    this.repOf = await repsOfSliced(this.hier!.root, this.expanded, slicer);
    const P = this.placement!;
    let nodeCount = 0;
    let groupCount = 0;
    // what the SVG would hold, in boxes: each badge of a closed group is a chip, text and tooltip, about a box's
    // worth (400 closed blocks of a quantized decoder are ~13k elements: a canvas scene, not SVG to lay out)
    let weight = 0;
    // the drawn boxes (not open groups), in the same pass, paced (130k boxes at 100k nodes)
    const solid: Box[] = [];
    let n = 0;
    for (const b of P.boxes.values()) {
      if ((++n & 4095) === 0) await slicer.pace();
      if (b.kind === 'expanded') continue;
      solid.push(b);
      if (b.kind === 'node') nodeCount++;
      else {
        groupCount++;
        weight += this.badges!.of(b.group!.key).length;
      }
    }
    this.canvasMode = useCanvas(nodeCount + groupCount + weight, this.canvasThreshold);
    this.showRenderer();
    const sc: Scene = {
      doc: this.doc,
      facts: this.facts,
      hier: this.hier!,
      placement: P,
      repOf: this.repOf,
      notes: this.opts.notes,
      heat: this.heat,
      summary: this.summary,
      badges: (key) => this.badges!.of(key),
      t: this.t,
      marker: (c) => this.svg!.marker(c),
      solid,
    };
    if (this.canvasMode) this.svg!.clear();
    await this.view().setScene(sc, this.edges);
    if (!this.canvasMode) this.svg!.zoom(this.pz!.t.k);
    for (const v of [this.svg, this.cv])
      if (v) {
        v.el.setAttribute('data-nodes', String(nodeCount));
        v.el.setAttribute('data-groups', String(groupCount));
      }
    const stage = this.facts.snap.stage ? `${this.facts.snap.stage} · ` : '';
    this.status!.say(stage + this.t('ui.status', { total: this.total, shown: nodeCount, groups: groupCount }));
    this.cv?.el.setAttribute('aria-label', `${this.t('ui.graph_label')}: ${this.status!.said()}`);
    this.applyClasses(false);
  }

  /** A canvas-drawn scene's static picture: its top-level groups closed (overview.ts); none for an SVG one. It is
   * the same whatever is open, so it is made once (per canvas threshold, which decides whether there is one). */
  private async drawOverview(): Promise<void> {
    this.area!.querySelector(':scope > .pl-overview')?.remove();
    if (!this.canvasMode) return;
    if (this.overview?.threshold !== this.canvasThreshold)
      this.overview = { threshold: this.canvasThreshold, svg: this.makeOverview() };
    const svg = await this.overview.svg;
    if (svg && !this.destroyed) this.area!.appendChild(svg);
  }

  private async makeOverview(): Promise<SVGSVGElement | null> {
    const ex = overviewExpanded(this.hier!);
    const P = await this.layout!.place(ex);
    const shown = [...P.boxes.values()].filter((b) => b.kind !== 'expanded').length;
    // a flat graph has no groups to close: its overview would be as large as the canvas scene
    if (this.destroyed || useCanvas(shown, this.canvasThreshold)) return null;
    const caption = this.t('ui.picture.overview', { shown, total: this.nodes.length });
    const base = { doc: this.doc, facts: this.facts, hier: this.hier!, heat: this.heat, t: this.t };
    const marker = (c: string): string => this.svg!.marker(c);
    const badges = (key: string) => this.badges!.of(key);
    return overviewSvg(
      { ...base, marker, summary: this.summary, badges, notes: this.opts.notes },
      P,
      ex,
      this.edges,
      caption,
    );
  }

  /** Show the SVG or the canvas (created on first need) for the scene about to be drawn. */
  private showRenderer(): void {
    if (this.canvasMode && !this.cv) {
      this.cv = new CanvasView(this.doc, this.area!, this.pz!, this.host, this.t('ui.graph_label'));
      this.settle.attach(this.cv.el);
      this.cv.onPending = (on) => this.settle.hold('canvas', on);
      this.cv.onFrame = () => this.map?.update();
      this.cv.onTheme = () => {
        if (this.placement) this.map?.setPlacement(this.placement);
      };
      this.area!.insertBefore(this.cv.el, this.map?.el ?? null);
    }
    this.svg!.active = !this.canvasMode;
    this.svg!.el.style.display = this.canvasMode ? 'none' : '';
    if (this.cv) {
      this.cv.active = this.canvasMode;
      this.cv.el.style.display = this.canvasMode ? '' : 'none';
    }
  }

  /** The minimap shows for a canvas scene and for an SVG one much larger than its pane at the current zoom
   * (a long chain: Fit keeps it readable, the map moves along it); true: it shows and is to draw this placement. */
  private placeMap(): boolean {
    const P = this.placement;
    if (!P) return false;
    const [cw, ch] = this.pz!.viewSize();
    const k = this.pz!.t.k;
    const big = this.canvasMode || (cw > 0 && (P.height * k > ch * 1.5 || P.width * k > cw * 1.5));
    if (big && !this.map) {
      this.map = new Minimap(this.doc, this.area!, this.pz!, this.t, this.mapSlot);
      this.area!.appendChild(this.map.el);
    }
    if (!this.map) return false;
    this.map.show(big);
    return big;
  }

  /** Highlights by box key, what both renderers paint (box-model.ts). */
  private marks(): Map<string, Set<Mark>> {
    if (!this.placement) return new Map();
    return marksOf(this.placement.boxes, this.repOf, {
      diff: this.opts.marks,
      matches: this.matches,
      counterparts: this.counter,
      hovered: this.hovered,
      selected: this.selected,
    });
  }

  // ---- selection, search, marks -------------------------------------------------------------

  /** Paint the highlights; `paint` false: a redraw under way paints them once the view is fitted. */
  private applyClasses(paint = true): void {
    const v = this.view();
    if (v) void this.settle.track(v.setMarks(this.marks(), paint));
  }

  /** The drawer shows node `id` (null: closed). */
  private showDetails(id: Id | null): void {
    const heat = id ? this.heat?.of(id)?.text : undefined;
    renderDetails(this.doc, this.details, this.facts, id, id ? this.opts.notes?.[id] : undefined, heat, this.t);
    if (id) this.drawer.removeAttribute('hidden');
    else this.drawer.setAttribute('hidden', '');
  }

  async select(id: Id | null, o: { reveal?: boolean; notify?: boolean } = {}): Promise<void> {
    const end = this.settle.begin();
    try {
      await this.selectNow(id, o);
    } finally {
      end();
    }
  }

  private async selectNow(id: Id | null, o: { reveal?: boolean; notify?: boolean }): Promise<void> {
    this.selected = id && this.hier?.parentOf.has(id) ? id : null;
    this.counter.clear();
    this.showDetails(this.selected);
    if (this.selected && o.reveal) await this.reveal(this.selected);
    else this.applyClasses();
    if (this.selected) this.pz?.keepVisible(nodeKey(this.selected), this.drawerWidth());
    this.placeDrawer(this.selected);
    // after the reveal: a compare's other panes centre their counterparts at the scale this pane ended at
    if (o.notify) this.opts.onSelect?.(this.selected);
  }

  /** px of the canvas's right the drawer covers (none when it lies across a narrow pane's canvas) */
  private drawerWidth(): number {
    if (this.drawer.hasAttribute('hidden') || drawerAcross(this.drawer)) return 0;
    return this.drawer.getBoundingClientRect().width;
  }

  /** The open drawer over the part of the canvas on show, clear of node `id` (drawer-place.ts). */
  private placeDrawer(id: Id | null): void {
    const stage = this.drawer.parentElement;
    if (!id || !this.area || !stage || this.drawer.hasAttribute('hidden')) return;
    const b = this.placement?.boxes.get(nodeKey(id));
    const t = this.pz?.t;
    const y = b && t ? this.area.getBoundingClientRect().top + t.y + b.y * t.k : 0;
    placeDrawer(
      this.drawer,
      stage,
      this.area,
      b && t ? { top: y - (b.h / 2) * t.k, bottom: y + (b.h / 2) * t.k } : null,
    );
  }

  /** Highlight nodes that correspond to the node under the pointer in another pane (empty: clear). */
  showHover(ids: Set<Id>): void {
    this.settle.touch();
    this.hovered = new Set([...ids].filter((i) => this.hier?.parentOf.has(i)));
    this.applyClasses();
  }

  /** Mark nodes that correspond to a selection made in another pane; details show the first, centred at scale `k`
   * (the selecting pane's, so the panes read alike). */
  showCounterparts(ids: Set<Id>, k?: number): void {
    this.settle.touch();
    this.selected = null;
    this.counter = new Set([...ids].filter((i) => this.hier?.parentOf.has(i)));
    const first = [...this.counter][0] ?? null;
    this.showDetails(first);
    // the counterpart is revealed and centred as the selection is in its own pane
    if (first) void this.reveal(first, k).then(() => this.placeDrawer(first));
    else this.applyClasses();
  }

  /** A stage tab was switched to: the selection made in the stage left moves here to its counterparts (`ids`,
   * from the View's diffs). The first is selected, revealed and shown in the drawer, any others are marked; with
   * none, nothing stays selected and the drawer closes (no stale node from another stage). */
  async follow(ids: Set<Id>): Promise<void> {
    this.settle.touch();
    const here = [...ids].filter((i) => this.hier?.parentOf.has(i));
    await this.select(here[0] ?? null, { reveal: true });
    if (here.length > 1) {
      this.counter = new Set(here.slice(1));
      this.applyClasses();
    }
  }

  /** Open the groups around node `id` and centre it (at scale `k` if given). */
  async reveal(id: Id, k?: number): Promise<void> {
    const end = this.settle.begin();
    try {
      await this.revealNow(id, k);
    } finally {
      end();
    }
  }

  private async revealNow(id: Id, k?: number): Promise<void> {
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
    if (b) this.pz?.centerOn(b.x, b.y, this.drawerWidth(), k);
  }

  search(q: string): Id[] {
    this.settle.touch();
    this.settle.hold('search', false);
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
    this.settle.touch();
    this.settle.hold('search', false);
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
    this.settle.touch();
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
    this.settle.touch();
    this.pz?.fit();
  }

  /** this pane's zoom/pan (render links the panes of a compare view to one scale) */
  get panZoom(): PanZoom | null {
    return this.pz;
  }

  /** Called when a hidden pane becomes visible: fit once it has a size. */
  shown(): void {
    this.settle.touch();
    if (this.pz && !this.pz.fitted) this.pz.fit();
    this.placeDrawer(this.selected); // placed while hidden it had no room to measure
  }

  /** the canvas renderer, when the scene is large enough to use it */
  get canvasView(): CanvasView | null {
    return this.canvasMode ? this.cv : null;
  }

  /** the large scene's overview map */
  get minimap(): Minimap | null {
    return this.map && this.map.el.style.display !== 'none' ? this.map : null;
  }

  destroy(): void {
    this.destroyed = true;
    this.settle.stop();
    this.cv?.destroy();
    this.svg?.destroy();
    this.pz?.destroy();
  }
}
