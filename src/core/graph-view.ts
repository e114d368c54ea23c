// One pane: a drawing of one Snapshot with module groups, search, selection and details. This file keeps the
// pane's state (open groups, selection, search hits) and wiring: its model (pane-model.ts: hierarchy, layout, the
// Frame of each placement) is asked for a frame, which one of two renderers behind PaneView (pane-view.ts) paints
// (pane-renderers.ts): SvgView (every element has its events, tooltip and styles) or, above CANVAS_THRESHOLD
// boxes, CanvasView with a minimap. The toolbar is toolbar.ts, zoom and pan pan-zoom.ts, the drawer pane-drawer.ts.

import { marksOf } from './box-model';
import { CANVAS_THRESHOLD } from './canvas-index';
import type { CanvasView } from './canvas-view';
import { h } from './dom';
import { EdgeHints } from './edge-hints';
import type { Facts } from './facts';
import { ancestors, groupKey, type Hierarchy, initialExpanded, nodeKey } from './groups';
import type { Placement } from './hier-layout';
import { EN, type Tr } from './i18n';
import type { LayoutClient } from './layout-client';
import { legend } from './legend';
import type { Mark } from './marks';
import type { Minimap } from './minimap';
import { overviewSvg } from './overview';
import { PanZoom } from './pan-zoom';
import { PaneDrawer } from './pane-drawer';
import { PaneModel } from './pane-model';
import { Renderers } from './pane-renderers';
import { SearchResults } from './pane-results';
import type { PaneHost } from './pane-view';
import { searchNodes, worstNode } from './search';
import { Settle } from './settle';
import { nextTask } from './slicer';
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
  /** what the pane draws and how it is laid out (no DOM) */
  readonly model: PaneModel;
  expanded = new Set<string>();
  placement: Placement | null = null;
  selected: Id | null = null;
  /** wall-clock ms and number of group layouts computed by the last redraw */
  lastLayout = { ms: 0, computed: 0 };
  /** the ready signal: `data-settled` / `data-busy` on the drawing's elements, the `pl-settled` event */
  readonly settle = new Settle(() => this.r?.drawing ?? null);
  private counter = new Set<Id>();
  private matches = new Set<Id>();
  private hovered = new Set<Id>();
  private query = '';
  /** the search hit Enter last stepped to */
  private hit = -1;
  private repOf = new Map<Id, string>();
  private drawer: PaneDrawer;
  private results: SearchResults;
  private status: Toolbar | null = null;
  private busy: Promise<void> = Promise.resolve();
  private destroyed = false;
  private pz: PanZoom | null = null;
  /** the graph area (holds the SVG, or the canvas and minimap of a large frame) */
  private area: HTMLElement | null = null;
  private host: PaneHost = {
    pick: (id) => void this.select(id, { notify: true }),
    toggle: (key) => void this.toggle(key),
    hover: (id) => this.opts.onHover?.(id),
    goTo: (id) => void this.select(id, { reveal: true, notify: true }),
  };
  /** the SVG and the canvas, the minimap and the overview picture (null: an empty graph draws nothing) */
  private r: Renderers | null = null;
  /** a redraw is between laying out and painting (the view's size is held, the minimap waits for the placement) */
  private drawing = false;
  private t: Tr;

  constructor(
    private doc: Document,
    snap: Snapshot,
    private opts: GraphViewOptions,
  ) {
    this.t = opts.t ?? EN;
    const m = new PaneModel(snap, { ...opts, t: this.t });
    this.model = m;
    this.el = h(doc, 'div', { class: 'pl-graph' });
    this.drawer = new PaneDrawer(doc, this.t, () => void this.select(null, { notify: true }));
    this.results = new SearchResults(doc, this.t);
    if (!m.hier) {
      const empty = this.t(snap.nodes.length === 0 ? 'ui.empty_graph' : 'ui.no_focus');
      this.el.appendChild(h(doc, 'div', { class: 'pl-empty' }, empty));
      this.ready = Promise.resolve();
      return;
    }
    this.buildChrome();
    this.expanded = initialExpanded(m.hier, m.nodes.length, opts.collapseThreshold);
    this.ready = this.redraw();
  }

  get facts(): Facts {
    return this.model.facts;
  }

  get nodes(): GraphNode[] {
    return this.model.nodes;
  }

  get edges(): Edge[] {
    return this.model.edges;
  }

  get hier(): Hierarchy | null {
    return this.model.hier;
  }

  /** the current frame is drawn on the canvas */
  get canvasMode(): boolean {
    return this.r?.canvasMode ?? false;
  }

  /** drawn boxes above which the canvas draws (a test or an embedder may move it) */
  get canvasThreshold(): number {
    return this.r?.threshold ?? CANVAS_THRESHOLD;
  }

  set canvasThreshold(n: number) {
    if (this.r) this.r.threshold = n;
  }

  private buildChrome(): void {
    const d = this.doc;
    const { heat, nodes } = this.model;
    const worst = worstNode(nodes, heat);
    const bar = toolbar(d, this.el, this.t, {
      search: (q) => this.search(q),
      // typing: the search runs after a pause, and the pane is busy until it has
      typing: () => this.settle.hold('search', true),
      query: () => this.query,
      step: (dir) => void this.step(dir),
      fit: () => this.fit(),
      collapseAll: () => this.openOnly(new Set([''])),
      // at every size: a frame past the canvas threshold is drawn on the canvas, with the minimap to move
      expandAll: () => this.openOnly(new Set(this.hier!.groups.keys())),
      worst:
        worst && heat
          ? { name: heat.overlay.name, go: () => void this.select(worst, { reveal: true, notify: true }) }
          : undefined,
      raster: () => this.canvasView?.el ?? null,
      viewSvg: () => this.canvasView?.svgOfView() ?? null,
    });
    this.status = bar;
    const stage = h(d, 'div', { class: 'pl-stage' });
    const area = h(d, 'div', { class: 'pl-canvas' });
    const r = new Renderers(d, area, this.host, this.t, this.settle, bar.mapSlot, () => this.placement);
    this.r = r;
    stage.append(area, this.drawer.el, bar.foot);
    this.area = area;
    const pz = new PanZoom(area, r.svg.viewport, area, () => this.placement, this.t);
    this.pz = pz;
    r.pz = pz;
    pz.grow = !this.opts.fixedHeight;
    pz.compute = this.model.computeRank;
    const hints = new EdgeHints(d, area, pz, () => this.placement, this.t);
    // every move of the view (fit, resize, wheel, drag, centring) settles once what it started is painted
    pz.listeners.push(() => this.settle.touch());
    pz.listeners.push(() => hints.update());
    pz.listeners.push(() => {
      if (r.canvasMode) return; // the canvas view follows the pan-zoom itself
      r.svg.zoom(pz.t.k);
      this.placeNotes();
      // in a redraw the map draws once it has the new placement (its colours are read in a task of their own)
      if (!this.drawing && r.map?.el.style.display === '') r.map.update();
    });
    const { marks, compare } = this.opts;
    const groups = this.model.summary !== undefined;
    const lg = legend(d, this.facts, nodes, { heat, marks, compare, groups, t: this.t });
    this.el.append(bar.el, this.results.el, stage, lg);
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
        const r = this.r;
        if (this.destroyed || !r) return;
        this.status!.say(this.t('ui.laying_out'));
        const t0 = performance.now();
        this.placement = await this.model.place(this.expanded);
        this.lastLayout = { ms: performance.now() - t0, computed: this.placement.computed };
        if (this.destroyed) return;
        // the view's size before the new frame is in the DOM: anchoring, fitting and the minimap read it after
        this.pz!.holdSize();
        this.drawing = true;
        try {
          await this.draw(this.placement);
          if (this.destroyed) return;
          if (anchor) this.pz!.anchor(anchor.key, anchor.sx, anchor.sy);
          if (!this.pz!.fitted) this.pz!.fit();
          else this.pz!.resizeToDrawing();
          this.placeNotes();
          if (!r.canvasMode) r.svg.settle();
          if (r.placeMap()) {
            // the map reads the theme's colours (computed style): in a task of its own, not the one that put a
            // new SVG frame in the DOM (that read would style and lay out all of it there)
            await nextTask();
            if (this.destroyed) return;
            r.map!.setPlacement(this.placement!);
          }
          await r.view.paint();
        } finally {
          this.pz!.releaseSize();
          this.drawing = false;
        }
        await r.drawOverview(
          (most) => this.makeOverview(most),
          () => !this.destroyed,
        );
      });
    this.busy.then(end, end);
    return this.busy;
  }

  /** Each note's callout on the side of its node the pane shows (note-side.ts; the canvas view asks on paint). */
  private placeNotes(): void {
    if (this.canvasMode || !this.placement) return;
    this.r?.svg.placeNotes(this.pz!.shownX(this.drawer.width()));
  }

  /** The frame of placement `P` (pane-model.ts), painted on SVG or, past the threshold, indexed on the canvas. */
  private async draw(P: Placement): Promise<void> {
    const r = this.r!;
    const pf = await this.model.frame(P, this.expanded);
    if (this.destroyed) return;
    this.repOf = pf.repOf;
    r.choose(pf.nodes + pf.groups + pf.weight);
    await r.view.setScene(pf.frame, pf.texts);
    if (!r.canvasMode) r.svg.zoom(this.pz!.t.k);
    for (const v of [r.svg, r.cv])
      if (v) {
        v.el.setAttribute('data-nodes', String(pf.nodes));
        v.el.setAttribute('data-groups', String(pf.groups));
      }
    const stage = this.facts.snap.stage ? `${this.facts.snap.stage} · ` : '';
    const { total } = this.model;
    this.status!.say(stage + this.t('ui.status', { total, shown: pf.nodes, groups: pf.groups }));
    r.cv?.el.setAttribute('aria-label', `${this.t('ui.graph_label')}: ${this.status!.said()}`);
    this.applyClasses(false);
  }

  /** A canvas frame's static picture: its top-level groups closed (overview.ts); none when that shows more than
   * `most` boxes (a flat graph has no groups to close: it would be as large as the canvas frame). */
  private async makeOverview(most: number): Promise<SVGSVGElement | null> {
    const pf = await this.model.overview(most);
    if (!pf || this.destroyed || !this.r) return null;
    const shown = pf.nodes + pf.groups;
    const caption = this.t('ui.picture.overview', { shown, total: this.nodes.length });
    const svg = this.r.svg;
    return overviewSvg({ doc: this.doc, marker: (c) => svg.marker(c) }, pf.frame, pf.texts, caption);
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
    const v = this.r?.view;
    if (v) void this.settle.track(v.setMarks(this.marks(), paint));
  }

  /** The drawer shows node `id` (null: closed). */
  private showDetails(id: Id | null): void {
    const heat = id ? this.model.heat?.of(id)?.text : undefined;
    this.drawer.show(this.facts, id, id ? this.opts.notes?.[id] : undefined, heat);
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
    if (this.selected) this.pz?.keepVisible(nodeKey(this.selected), this.drawer.width());
    this.placeDrawer(this.selected);
    // after the reveal: a compare's other panes centre their counterparts at the scale this pane ended at
    if (o.notify) this.opts.onSelect?.(this.selected);
  }

  /** The open drawer over the part of the canvas on show, clear of node `id` (drawer-place.ts). */
  private placeDrawer(id: Id | null): void {
    if (!id || !this.area || !this.drawer.open) return;
    const b = this.placement?.boxes.get(nodeKey(id));
    const t = this.pz?.t;
    const y = b && t ? this.area.getBoundingClientRect().top + t.y + b.y * t.k : 0;
    this.drawer.place(this.area, b && t ? { top: y - (b.h / 2) * t.k, bottom: y + (b.h / 2) * t.k } : null);
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
    if (b) this.pz?.centerOn(b.x, b.y, this.drawer.width(), k);
  }

  search(q: string): Id[] {
    this.settle.touch();
    this.settle.hold('search', false);
    this.query = q;
    this.hit = -1;
    const ids = searchNodes(this.nodes, this.facts, this.model.heat, q);
    this.matches = new Set(ids);
    this.results.show(q, ids, (id) => void this.select(id, { reveal: true, notify: true }));
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
    this.results.step(this.hit, ids.length);
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

  /** the canvas renderer, when the frame is large enough to use it */
  get canvasView(): CanvasView | null {
    return this.r?.canvasMode ? this.r.cv : null;
  }

  /** the large frame's overview map */
  get minimap(): Minimap | null {
    const map = this.r?.map;
    return map && map.el.style.display !== 'none' ? map : null;
  }

  destroy(): void {
    this.destroyed = true;
    this.settle.stop();
    this.r?.destroy();
    this.pz?.destroy();
  }
}
