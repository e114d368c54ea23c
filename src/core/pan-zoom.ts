// Zoom, pan, fit and centring of one pane's view (the SVG viewport's transform, or what a canvas draws at). Fit never shrinks text below a readable size
// (past that the graph is panned, not shrunk); the view re-fits when its container changes size until the
// user moves it; the wheel zooms only with Ctrl/⌘ or after a click into the graph (as map widgets do),
// otherwise it scrolls the page. Panes of one compare view share their scale (ScaleLink), and stack one per row
// when side by side they would cut their drawings at the edges but stacked they would show them whole.

import { h } from './dom';
import type { Box, Placement } from './hier-layout';
import { EN, type Tr } from './i18n';

/** Smallest fit scale: node labels (12 px) stay at ≥ 9 px on screen. */
export const MIN_READABLE = 0.75;
/** A graph a little wider than its pane (its width fits at ≥ this scale) is fitted by its full width, so no
 * note callout or edge column is cut off at a side; a much wider one is panned at MIN_READABLE. */
export const WIDTH_FIT_MIN = 0.45;
/** In a narrow pane (the side panel's 280 px) a graph only a few columns wide is fitted by its full width down
 * to NARROW_FIT_MIN: there a cut-off column is one of two or three, nothing at the pane's edge says it exists, and
 * the reader would pan blind; the labels are small but the group titles keep 11 px (semantic zoom) and a click
 * or Ctrl+wheel zooms in. More columns than that (a row of parameters, a wide attention block) are panned at
 * MIN_READABLE, as in any pane. */
export const NARROW_PANE = 420;
export const FEW_COLUMNS = 3;
export const NARROW_FIT_MIN = 0.3;
export const MAX_FIT = 1.3;
export const MARGIN = 20;

/** Scale that shows a W×H drawing in a cw×ch canvas: the whole drawing if that keeps text readable,
 * else its full width (up to 1:1, showing the top) at ≥ WIDTH_FIT_MIN — or ≥ NARROW_FIT_MIN in a narrow pane
 * when the drawing is at most FEW_COLUMNS boxes wide (`columns`, columnsOf) — else MIN_READABLE. */
export function fitScale(cw: number, ch: number, W: number, H: number, columns = Infinity): number {
  const w = W + 2 * MARGIN;
  const hh = H + 2 * MARGIN;
  const all = Math.min(MAX_FIT, cw / w, ch / hh);
  if (all >= MIN_READABLE) return all;
  const byWidth = Math.min(1, cw / w);
  if (byWidth >= WIDTH_FIT_MIN) return byWidth;
  if (cw < NARROW_PANE && columns <= FEW_COLUMNS && byWidth >= NARROW_FIT_MIN) return byWidth;
  return MIN_READABLE;
}

/** boxes above which columnsOf does not look (a drawing that big is no few-column one to fit whole) */
const COLUMNS_MAX_BOXES = 3000;
const columnsMemo = new WeakMap<Placement, number>();

/** How many boxes (nodes, closed groups) the drawing's widest row holds side by side: the most whose vertical
 * extents share one line. Infinity for a drawing of more than COLUMNS_MAX_BOXES boxes. */
export function columnsOf(P: Placement): number {
  const memo = columnsMemo.get(P);
  if (memo !== undefined) return memo;
  const ev: Array<[number, number]> = [];
  for (const b of P.boxes.values()) {
    if (b.kind === 'expanded') continue;
    ev.push([b.y - b.h / 2, 1], [b.y + b.h / 2, -1]);
    if (ev.length > 2 * COLUMNS_MAX_BOXES) break;
  }
  let most = 0;
  if (ev.length > 2 * COLUMNS_MAX_BOXES) most = Infinity;
  else {
    // ends before starts at one y: boxes that only touch are not side by side
    ev.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    let open = 0;
    for (const [, d] of ev) {
      open += d;
      most = Math.max(most, open);
    }
  }
  columnsMemo.set(P, most);
  return most;
}

/** Mean x of the boxes in the drawing's top row (nodes and closed groups). */
export function topRowX(P: Placement): number {
  let minY = Infinity;
  for (const b of P.boxes.values()) if (b.kind !== 'expanded') minY = Math.min(minY, b.y - b.h / 2);
  const row = [...P.boxes.values()].filter((b) => b.kind !== 'expanded' && b.y - b.h / 2 <= minY + 4);
  return row.length ? row.reduce((s, b) => s + b.x, 0) / row.length : P.width / 2;
}

/** Where a graph too wide for its pane is first shown: its first compute box (topmost, then leftmost; a closed
 * group counts as compute), or null when it has none. Why not the top row: in an ExportedProgram that row is
 * the parameters and inputs (one placeholder per weight), the widest row of the drawing; centred on it, Fit
 * showed a strip of placeholders over an empty middle. The computation is what a reader came for, and the
 * inputs it reads sit right above it. */
export function firstCompute(P: Placement, compute: (b: Box) => boolean): Box | null {
  let best: Box | null = null;
  for (const b of P.boxes.values()) {
    if (b.kind === 'expanded' || !compute(b)) continue;
    const top = b.y - b.h / 2;
    const bt = best ? best.y - best.h / 2 : Infinity;
    if (top < bt - 4 || (top <= bt + 4 && best && b.x < best.x)) best = b;
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
  fitAll(): void {
    const ready = this.members.filter((m) => m.measurable());
    if (!ready.length) return;
    const k = Math.min(...ready.map((m) => m.bestScale()));
    const full = this.stackedWidth();
    if (this.stack && !this.stacked() && ready.some((m) => m.crops(k)) && ready.every((m) => m.fitsWidth(full))) {
      const stack = this.stack;
      this.stack = null; // once: stacked panes never go back side by side
      stack();
    }
    for (const m of ready) m.fitAt(k);
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
  /** which boxes are computation (firstCompute: where a wide graph is first shown); unset: its top row's middle */
  compute: ((b: Box) => boolean) | null = null;
  /** called after the user zoomed or panned (wheel, drag, minimap) with the view as it was before: compare panes
   * follow by the same screen move */
  readonly onUserMove: Array<(before: View) => void> = [];
  private resize: ResizeObserver | null = null;
  private lastSize = '';
  /** the surface's size held through a redraw (holdSize), or null: read it each time */
  private held: { width: number; height: number } | null = null;
  private hint: HTMLElement;
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
    if (key === this.lastSize && this.fitted) return;
    this.lastSize = key;
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
    return fitScale(cw, ch, P.width, P.height, cw < NARROW_PANE ? columnsOf(P) : Infinity);
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
    return Math.min(1, width / (P.width + 2 * MARGIN)) >= WIDTH_FIT_MIN;
  }

  /** Fit (the linked panes together when linked). */
  fit(): void {
    this.userMoved = false;
    if (this.link && this.measurable()) this.link.fitAll();
    else this.fitAt(this.bestScale());
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
    this.fitted = this.rect().width > 0;
    this.userMoved = false;
    this.apply();
  }

  /** `k`: the scale to centre at (a compare pane takes the scale of the pane that selected), else the current one
   * raised to a readable 0.9 when below MIN_READABLE. */
  centerOn(x: number, y: number, rightInset = 0, k?: number): void {
    const [cw, ch] = this.size();
    if (k !== undefined) this.t.k = k;
    else if (this.t.k < MIN_READABLE) this.t.k = 0.9;
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
