// Zoom, pan, fit and centring of one pane's view (the SVG viewport's transform, or what a canvas draws at). Fit never shrinks text below a readable size
// (past that the graph is panned, not shrunk); the view re-fits when its container changes size until the
// user moves it; the wheel zooms only with Ctrl/⌘ or after a click into the graph (as map widgets do),
// otherwise it scrolls the page. Panes of one compare view share their scale (ScaleLink), and stack one per row
// when side by side they would cut their drawings at the edges but stacked they would show them whole.

import { h } from './dom';
import type { Box, Placement } from './hier-layout';
import { EN, type Tr } from './i18n';

/** Smallest scale a fit uses: node labels and group titles (12 px) show at ≥ 11 px on screen (issue 26 point 4),
 * so a fit never needs the zoomed-out titles (zoom-labels.ts) that sit over nodes. A drawing that needs less is
 * shown from its first compute box and panned (the edge hints and the minimap say what lies past the edges). */
export const MIN_READABLE = 0.92;
export const MAX_FIT = 1.3;
export const MARGIN = 20;
/** least height a pane sized to its drawing keeps (room for the edge hints and the minimap's toggle) */
export const MIN_HEIGHT = 180;
/** most height an output's pane grows to for a drawing taller than the pane (about a laptop's page): a drawing
 * taller still is panned in the pane's own height, and the bottom edge's hint says so (edge-hints.ts) */
export const GROW_MAX = 800;

/** Scale that shows a W×H drawing in a cw×ch canvas: the whole drawing if that keeps text readable, else its full
 * width (up to 1:1, showing the top) if that does, else MIN_READABLE. */
export function fitScale(cw: number, ch: number, W: number, H: number): number {
  const w = W + 2 * MARGIN;
  const all = Math.min(MAX_FIT, cw / w, ch / (H + 2 * MARGIN));
  if (all >= MIN_READABLE) return all;
  return Math.max(MIN_READABLE, Math.min(1, cw / w));
}

/** The height in px a pane `own` px tall (its CSS height) takes for a drawing `px` tall, or 0 to keep its own: down
 * to the drawing (never below MIN_HEIGHT); up to it only where the pane may grow (an output, not the side panel)
 * and the whole drawing then shows (at most GROW_MAX): half of a long chain in a taller pane is still half, and
 * its bottom edge's hint says the rest is there. */
export function paneHeight(px: number, own: number, grow: boolean): number {
  const want = Math.max(MIN_HEIGHT, Math.ceil(px));
  if (want > own + 1) return grow && want <= GROW_MAX ? want : 0;
  return want < own - 1 ? want : 0;
}

/** Mean x of the boxes in the drawing's top row (nodes and closed groups). */
export function topRowX(P: Placement): number {
  let minY = Infinity;
  for (const b of P.boxes.values()) if (b.kind !== 'expanded') minY = Math.min(minY, b.y - b.h / 2);
  const row = [...P.boxes.values()].filter((b) => b.kind !== 'expanded' && b.y - b.h / 2 <= minY + 4);
  return row.length ? row.reduce((s, b) => s + b.x, 0) / row.length : P.width / 2;
}

/** Where a graph too wide for its pane is first shown: its first compute box in the graph's own order (`rank`: a
 * node's place in the program, a closed group's by its first node; null for what is no computation), or null when
 * it has none. Why not the top row: in an ExportedProgram that row is the parameters and inputs (one placeholder
 * per weight), the widest row of the drawing; centred on it, Fit showed a strip of placeholders over an empty
 * middle. Why not the topmost box: a focused compare's pieces sit side by side, tops aligned, and the topmost
 * compute box was a block's conv in the middle, not the stem's where the program starts (issue 26 point 4). */
export function firstCompute(P: Placement, rank: (b: Box) => number | null): Box | null {
  let best: Box | null = null;
  let least = Infinity;
  for (const b of P.boxes.values()) {
    if (b.kind === 'expanded') continue;
    const r = rank(b);
    if (r !== null && r < least) [best, least] = [b, r];
  }
  return best;
}

/** Panes whose fits use one scale (the smallest any of them needs), so compare panes read alike. */
export class ScaleLink {
  readonly members: PanZoom[] = [];
  add(p: PanZoom): void {
    this.members.push(p);
    p.link = this;
  }
  /** Called once when side by side a pane would crop its drawing but one pane per row would show every drawing's
   * full width (the compare then stacks its panes; their resize re-fits them). A graph too wide either way stays
   * side by side, its panes aligned. `stackedWidth`: the width one pane would get when stacked. */
  stack: (() => void) | null = null;
  stackedWidth: () => number = () => 0;
  /** the panes already sit one per row (a narrow compare, compare-stack.ts): nothing to decide, and a stack made
   * here would keep them stacked once the output widens again */
  stacked: () => boolean = () => false;
  private didStack = false;
  fitAll(): void {
    const ready = this.members.filter((m) => m.measurable());
    if (!ready.length) return;
    for (const m of ready) m.uncap();
    const k = Math.min(...ready.map((m) => m.bestScale()));
    const full = this.stackedWidth();
    if (this.stack && !this.stacked() && ready.some((m) => m.crops(k)) && ready.every((m) => m.fitsWidth(full))) {
      const stack = this.stack;
      this.stack = null; // once: stacked panes never go back side by side
      this.didStack = true;
      stack();
    }
    this.sizeAll(ready, k);
    for (const m of ready) m.fitAt(k);
  }

  /** Size the panes to their drawings at scale k: side by side they share a row, so one height, the tallest
   * drawing's; stacked, each its own. */
  sizeAll(ready: PanZoom[], k: number): void {
    const own = this.didStack || this.stacked();
    const tallest = Math.max(...ready.map((m) => m.heightAt(k)));
    // grown only when every pane then shows its whole drawing (one panned sideways is panned down as well)
    const whole = ready.every((m) => !m.crops(k));
    for (const m of ready) m.sizeTo(own ? m.heightAt(k) : tallest, whole);
  }

  /** After a relayout of one pane (a group opened): every pane sized again at the scale on show, views kept. */
  resizeAll(): void {
    const ready = this.members.filter((m) => m.measurable());
    if (!ready.length) return;
    for (const m of ready) m.uncap();
    this.sizeAll(ready, Math.min(...ready.map((m) => m.fitK)));
    for (const m of ready) m.keepSize();
  }
}

/** A view transform: screen = k * layout + (x, y). */
export type View = { x: number; y: number; k: number };

export class PanZoom {
  /** screen = t.k * layout + (t.x, t.y) */
  t = { x: 20, y: 20, k: 1 };
  /** false until a fit happened at a real size */
  fitted = false;
  /** the user zoomed or panned: a container resize then keeps the view instead of re-fitting */
  userMoved = false;
  /** zoom with the plain wheel (after a click into the graph, until the pointer leaves it) */
  active = false;
  link: ScaleLink | null = null;
  /** called after every change of `t` (the canvas renderer and the minimap follow it) */
  readonly listeners: Array<() => void> = [];
  /** a compute box's place in the graph's order, null for others (firstCompute: where a wide graph is first
   * shown); unset: its top row's middle */
  compute: ((b: Box) => number | null) | null = null;
  /** called after the user zoomed or panned (wheel, drag, minimap) with the view as it was before: compare panes
   * follow by the same screen move */
  readonly onUserMove: Array<(before: View) => void> = [];
  private resize: ResizeObserver | null = null;
  private lastSize = '';
  /** the surface's size held through a redraw (holdSize), or null: read it each time */
  private held: { width: number; height: number } | null = null;
  private hint: HTMLElement;
  /** the height in px sizeTo set on the canvas, 0 for none (the pane's CSS height) */
  private cap = 0;
  /** an output's pane grows to a drawing taller than it (up to GROW_MAX); false where the host fixed the height
   * (the side panel) */
  grow = true;
  /** the scale of the last fit: a relayout sizes the pane at it (a zoom in by the user grows no pane) */
  fitK = 1;
  private hintTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    /** the element that takes the pointer and gives the size (the pane's graph area) */
    private surface: Element,
    private viewport: SVGElement,
    private canvas: HTMLElement,
    private placement: () => Placement | null,
    t: Tr = EN,
  ) {
    const mac = /Mac|iPhone|iPad/.test(canvas.ownerDocument.defaultView?.navigator?.platform ?? '');
    this.hint = h(
      canvas.ownerDocument,
      'div',
      { class: 'pl-hint', 'aria-hidden': 'true' },
      t('ui.wheel_hint', { key: mac ? '⌘' : 'Ctrl' }),
    );
    canvas.appendChild(this.hint);
    this.bind();
    if (typeof ResizeObserver !== 'undefined') {
      this.resize = new ResizeObserver(() => this.onResize());
      this.resize.observe(canvas);
    }
  }

  private onResize(): void {
    this.held = null;
    const r = this.surface.getBoundingClientRect();
    if (!r.width || !this.placement()) return;
    const key = `${Math.round(r.width)}x${Math.round(r.height)}`;
    const sameWidth = this.lastSize.startsWith(`${Math.round(r.width)}x`);
    if (key === this.lastSize && this.fitted) return;
    this.lastSize = key;
    // the height sizeTo gave: the fit that set it already holds
    if (this.fitted && sameWidth && this.cap && Math.round(r.height) === this.cap) return;
    // hidden then shown, or resized while the user has not moved the view: fit to the new size
    if (!this.fitted || !this.userMoved) this.fit();
  }

  apply(): void {
    this.viewport.setAttribute('transform', `translate(${this.t.x},${this.t.y}) scale(${this.t.k})`);
    for (const f of this.listeners) f();
  }

  /** Centre the view on layout point (x, y) at the current scale (the minimap's click). */
  panTo(x: number, y: number): void {
    const before = { ...this.t };
    const [cw, ch] = this.size();
    this.t.x = cw / 2 - x * this.t.k;
    this.t.y = ch / 2 - y * this.t.k;
    this.fitted = true;
    this.userMoved = true;
    this.apply();
    this.userMove(before);
  }

  private userMove(before: View): void {
    for (const f of this.onUserMove) f(before);
  }

  /** The view's size in px. */
  viewSize(): [number, number] {
    return this.size();
  }

  /** Read the surface's size now and answer with it until releaseSize() (or a resize): a redraw inserts
   * thousands of SVG elements, which cannot change that size (the graph area has a fixed height and its SVG
   * fills it), and a read after them would force their style and layout inside the redraw's task. */
  holdSize(): void {
    this.held = null;
    const r = this.rect();
    this.held = { width: r.width, height: r.height };
  }

  releaseSize(): void {
    this.held = null;
  }

  /** the surface's width in px (0 while hidden) */
  width(): number {
    return this.rect().width;
  }

  /** The drawing's x range on show (layout units), the right `inset` px (a drawer beside the canvas) left out. */
  shownX(inset = 0): { x0: number; x1: number } {
    const { x, k } = this.t;
    return { x0: -x / k, x1: (this.size()[0] - inset - x) / k };
  }

  private rect(): { width: number; height: number } {
    return this.held ?? this.surface.getBoundingClientRect();
  }

  private size(): [number, number] {
    const r = this.rect();
    return [r.width || 800, r.height || 520];
  }

  /** has a drawing and a size (a hidden pane has none) */
  measurable(): boolean {
    return this.placement() !== null && this.rect().width > 0;
  }

  /** the scale a fit of this pane alone would use */
  bestScale(): number {
    const P = this.placement();
    if (!P) return 1;
    const [cw, ch] = this.size();
    return fitScale(cw, ch, P.width, P.height);
  }

  /** whether the drawing, shown at scale k, is wider than the pane (its groups would be cut at the edges) */
  crops(k: number): boolean {
    const P = this.placement();
    return P !== null && (P.width + 2 * MARGIN) * k > this.size()[0] + 0.5;
  }

  /** whether the drawing's full width shows in a pane `width` px wide (fitScale's full-width rule). Height is
   * not asked: a tall graph is panned down, but a side cut off hides whole columns (issue 15 point 3, seen in
   * JupyterLab's narrower output area). */
  fitsWidth(width: number): boolean {
    const P = this.placement();
    if (!P) return false;
    return Math.min(1, width / (P.width + 2 * MARGIN)) >= MIN_READABLE;
  }

  /** Fit (the linked panes together when linked). */
  fit(): void {
    this.userMoved = false;
    if (this.link && this.measurable()) this.link.fitAll();
    else {
      this.uncap();
      const k = this.bestScale();
      this.sizeTo(this.heightAt(k), !this.crops(k));
      this.fitAt(k);
    }
  }

  /** Height in px the drawing takes at scale k, margins included. */
  heightAt(k: number): number {
    const P = this.placement();
    return P ? (P.height + 2 * MARGIN) * k : 0;
  }

  /** Drop the height sizeTo set: the pane's own height (CSS) comes back for the next fit to measure. */
  uncap(): void {
    if (!this.cap) return;
    this.canvas.style.height = '';
    this.cap = 0;
    this.held = null;
  }

  /** After a relayout (a group opened or closed, a node revealed): the pane takes the drawing's new height at the
   * fit's scale (linked panes together); the view stays where it is (no re-fit for this resize). */
  resizeToDrawing(): void {
    if (!this.cap && !this.grow) return;
    if (this.link && this.measurable()) {
      this.link.resizeAll();
      return;
    }
    this.uncap();
    this.sizeTo(this.heightAt(this.fitK), !this.crops(this.fitK));
    this.keepSize();
  }

  /** the size on show is the one this view already holds: its resize is no cue to re-fit */
  keepSize(): void {
    const r = this.rect();
    this.lastSize = `${Math.round(r.width)}x${Math.round(r.height)}`;
  }

  /** Size the pane to a drawing `px` tall: shorter than the pane, down to it (a small graph fitted by its width
   * left most of a 520 px pane empty, issue 26 point 4; never below MIN_HEIGHT); taller, in an output (`grow`)
   * and when the drawing's `whole` width shows, up to it (when the whole fits GROW_MAX): a stacked compare's second pane cut
   * its last nodes at the bottom with nothing saying so. Call with the pane's own height on show (uncap). */
  sizeTo(px: number, whole: boolean): void {
    const r = this.rect();
    if (!r.width) return;
    const c = paneHeight(px, r.height, this.grow && whole);
    if (!c) return;
    this.canvas.style.height = `${c}px`;
    this.cap = c;
    this.held = null;
  }

  /** Show the drawing at scale k, its top at the top margin (so linked panes align): centred when it fits the
   * width, else centred on its first compute box (firstCompute; else its top row) without leaving blank space at
   * either side; a first compute box below the view's upper half is brought up to its first third. */
  fitAt(k: number): void {
    const P = this.placement();
    if (!P) return;
    const [cw, ch] = this.size();
    let x = (cw - P.width * k) / 2;
    let y = MARGIN * k;
    if (P.width * k > cw - 2 * MARGIN * k) {
      const first = this.compute ? firstCompute(P, this.compute) : null;
      const cx = first ? first.x : topRowX(P);
      x = Math.min(MARGIN * k, Math.max(cw - (P.width + MARGIN) * k, cw / 2 - cx * k));
      // linked panes keep their tops aligned: only a pane of its own moves down its drawing
      if (first && !this.link && y + first.y * k > ch / 2) y = ch / 3 - first.y * k;
    }
    this.t = { k, x, y };
    this.fitK = k;
    this.fitted = this.rect().width > 0;
    this.userMoved = false;
    this.apply();
  }

  /** `k`: the scale to centre at (a compare pane takes the scale of the pane that selected), else the current one
   * raised to 1:1 when below MIN_READABLE. */
  centerOn(x: number, y: number, rightInset = 0, k?: number): void {
    const [cw, ch] = this.size();
    if (k !== undefined) this.t.k = k;
    else if (this.t.k < MIN_READABLE) this.t.k = 1;
    this.t.x = (cw - rightInset) / 2 - x * this.t.k;
    this.t.y = ch / 2 - y * this.t.k;
    this.userMoved = true;
    this.apply();
  }

  /** Pan just enough that a box stays visible left of `rightInset` px (the details drawer). */
  keepVisible(key: string, rightInset: number): void {
    const b = this.placement()?.boxes.get(key);
    if (!b) return;
    const [cw, ch] = this.size();
    const l = this.t.x + (b.x - b.w / 2) * this.t.k;
    const r = this.t.x + (b.x + b.w / 2) * this.t.k;
    const tp = this.t.y + (b.y - b.h / 2) * this.t.k;
    const bt = this.t.y + (b.y + b.h / 2) * this.t.k;
    const avail = cw - rightInset;
    if (l >= 8 && r <= avail - 8 && tp >= 8 && bt <= ch - 8) return;
    this.centerOn(b.x, b.y, rightInset);
  }

  /** Screen position of a box's top-left corner (to keep it in place across a relayout). */
  screenOf(key: string): { sx: number; sy: number } | null {
    const b = this.placement()?.boxes.get(key);
    return b ? { sx: this.t.x + (b.x - b.w / 2) * this.t.k, sy: this.t.y + (b.y - b.h / 2) * this.t.k } : null;
  }

  /** Move the view so the box `key` has its top-left corner at screen (sx, sy). */
  anchor(key: string, sx: number, sy: number): void {
    const b = this.placement()?.boxes.get(key);
    if (!b) return;
    this.t.x = sx - (b.x - b.w / 2) * this.t.k;
    this.t.y = sy - (b.y - b.h / 2) * this.t.k;
    this.apply();
  }

  private showHint(): void {
    this.hint.classList.add('pl-show');
    clearTimeout(this.hintTimer);
    this.hintTimer = setTimeout(() => this.hint.classList.remove('pl-show'), 1200);
  }

  private setActive(on: boolean): void {
    this.active = on;
    this.canvas.classList.toggle('pl-active', on);
  }

  private bind(): void {
    const el = this.surface;
    el.addEventListener(
      'wheel',
      (ev: Event) => {
        const e = ev as WheelEvent;
        if (!(e.ctrlKey || e.metaKey || this.active)) {
          this.showHint(); // let the page scroll
          return;
        }
        e.preventDefault();
        const before = { ...this.t };
        const r = el.getBoundingClientRect();
        const px = e.clientX - r.left;
        const py = e.clientY - r.top;
        const k = Math.max(0.02, Math.min(4, this.t.k * Math.exp(-e.deltaY * 0.0015)));
        this.t.x = px - ((px - this.t.x) * k) / this.t.k;
        this.t.y = py - ((py - this.t.y) * k) / this.t.k;
        this.t.k = k;
        this.fitted = true;
        this.userMoved = true;
        this.apply();
        this.userMove(before);
      },
      { passive: false },
    );
    let drag: { x: number; y: number; tx: number; ty: number } | null = null;
    // a drag that started on a node ends in a click on it: that click is the drag's, not a selection (which would
    // centre the compare's other panes on their counterparts again, undoing the pan)
    let dragged = false;
    el.addEventListener('pointerdown', (ev: Event) => {
      const e = ev as PointerEvent;
      this.setActive(true);
      dragged = false;
      if (e.button === 0) drag = { x: e.clientX, y: e.clientY, tx: this.t.x, ty: this.t.y };
    });
    el.addEventListener(
      'click',
      (ev: Event) => {
        if (dragged) ev.stopPropagation();
        dragged = false;
      },
      true,
    );
    el.addEventListener('pointermove', (ev: Event) => {
      const e = ev as PointerEvent;
      if (!drag) return;
      const dx = e.clientX - drag.x;
      const dy = e.clientY - drag.y;
      if (Math.abs(dx) + Math.abs(dy) > 2) this.userMoved = dragged = true;
      const before = { ...this.t };
      this.t.x = drag.tx + dx;
      this.t.y = drag.ty + dy;
      this.apply();
      this.userMove(before);
    });
    const end = (): void => {
      drag = null;
    };
    el.addEventListener('pointerup', end);
    el.addEventListener('pointerleave', () => {
      end();
      this.setActive(false);
    });
    el.addEventListener('keydown', (ev: Event) => {
      if ((ev as KeyboardEvent).key === 'Escape') this.setActive(false);
    });
  }

  destroy(): void {
    this.resize?.disconnect();
    clearTimeout(this.hintTimer);
  }
}
