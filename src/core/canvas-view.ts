// A pane's drawing on a 2D canvas, for frames too large for SVG (canvas-index.ts says when). A frame's items
// (frame.ts) are indexed on a grid once per layout; a full draw culls to the view, picks the detail level for the
// zoom, and runs in slices of ≤ ~30 ms into a back buffer (no long task), which then becomes the raster. While the
// view pans or zooms, each screen frame only transforms that raster; the crisp draw follows once the view is still.
import { colorResolver, type DrawList, drawJobs, drawZoomLabels, outline, type Paint } from './canvas-draw';
import {
  addHit,
  boxRect,
  detailAt,
  GridIndex,
  type Hit,
  type HitIndex,
  hitTest,
  type Rect,
  viewRect,
} from './canvas-index';
import { SvgContext } from './canvas-svg';
import { h } from './dom';
import { curveBounds, type EdgeItem } from './edges';
import type { Frame, FrameBox, FrameTexts } from './frame';
import { HEADER } from './hier-layout';
import { type Mark, markStroke } from './marks';
import type { PanZoom } from './pan-zoom';
import type { PaneHost, PaneView } from './pane-view';
import { nextTask, taskStart } from './slicer';
import { type ZoomLabel, zoomedOut, zoomLabelSteps, zoomLabels } from './zoom-labels';

/** How long a slice of a full draw may run before it yields (ms). */
const SLICE_MS = 30;
/** How far the raster reaches past each side of the view, as a fraction of the view's size. */
const RASTER_MARGIN = 0.25;
/** Quiet time after the last pan/zoom step before the crisp draw (ms). */
const IDLE_MS = 140;

const NONE: Rect = { x: 0, y: 0, w: 1, h: 1 };

/** Let the page run (input, frames) before the next slice (one page task: slicer.ts). */
const yieldTask = nextTask;

export class CanvasView implements PaneView {
  readonly el: HTMLCanvasElement;
  private raster: HTMLCanvasElement;
  private work: HTMLCanvasElement;
  /** the transform the raster was drawn at, in the raster's own px (null: nothing drawn yet) */
  private rasterT: { x: number; y: number; k: number } | null = null;
  private gen = 0;
  private frameReq = 0;
  private idle: ReturnType<typeof setTimeout> | undefined;
  /** the frame drawn and its texts (null: none indexed yet) */
  private frame: Frame | null = null;
  private texts: FrameTexts | null = null;
  /** the frame's boxes by key */
  private byKey = new Map<string, FrameBox>();
  private frames = new GridIndex<FrameBox>(NONE);
  private solids = new GridIndex<FrameBox>(NONE);
  private edges = new GridIndex<EdgeItem>(NONE);
  private hits: HitIndex = new GridIndex(NONE);
  private sceneGen = 0;
  marks = new Map<string, Set<Mark>>();
  private hoverKey: string | null = null;
  private down: { x: number; y: number } | null = null;
  /** full draws completed (tests and the bench read it) */
  draws = 0;
  /** the group titles the last full draw put on plates (semantic zoom: zoom-labels.ts) */
  zoomLabels: ZoomLabel[] = [];
  /** a crisp draw is due or under way (the screen shows a transformed raster until it is done) */
  pending = false;
  /** told when `pending` changes (the pane's ready signal: settle.ts) */
  onPending: ((on: boolean) => void) | null = null;
  private shown = true;
  /** called after each composed frame (the minimap follows the view) */
  onFrame: (() => void) | null = null;
  /** called when the theme may have changed (colours are read at each full draw) */
  onTheme: (() => void) | null = null;
  private themeWatch: MutationObserver | null = null;
  private resize: ResizeObserver | null = null;
  private media: MediaQueryList | null = null;
  private mediaListener = (): void => this.themeChanged();

  constructor(
    private doc: Document,
    private surface: HTMLElement,
    private pz: PanZoom,
    private host: PaneHost,
    label: string,
  ) {
    this.el = h(doc, 'canvas', { class: 'pl-raster', role: 'img', 'aria-label': label, tabindex: '0' });
    this.raster = doc.createElement('canvas');
    this.work = doc.createElement('canvas');
    pz.listeners.push(() => this.moved());
    this.bind();
    this.watchTheme();
    // a resize the view does not re-fit for (the user moved it) still needs a canvas of the new size
    if (typeof ResizeObserver !== 'undefined') {
      this.resize = new ResizeObserver(() => this.moved());
      this.resize.observe(surface);
    }
  }

  /** Hosts switch themes on <body> (JupyterLab, VS Code) or on the view's root (data-pl-theme); static pages
   * follow the browser's colour scheme. The raster holds resolved colours, so any of these redraws it. */
  private watchTheme(): void {
    const win = this.doc.defaultView;
    if (win && typeof win.MutationObserver !== 'undefined') {
      this.themeWatch = new win.MutationObserver(() => this.themeChanged());
      const opts = { attributes: true, attributeFilter: ['class', 'style', 'data-jp-theme-light', 'data-pl-theme'] };
      if (this.doc.body) this.themeWatch.observe(this.doc.body, opts);
      const root = this.surface.closest('.pt2e-lens');
      if (root) this.themeWatch.observe(root, opts);
    }
    this.media = win?.matchMedia?.('(prefers-color-scheme: dark)') ?? null;
    this.media?.addEventListener?.('change', this.mediaListener);
  }

  /** the pane shows this canvas (false while a small scene is drawn in SVG: nothing here runs then, and a crisp
   * draw that was due is dropped) */
  get active(): boolean {
    return this.shown;
  }

  set active(on: boolean) {
    this.shown = on;
    if (on) return;
    this.gen++;
    clearTimeout(this.idle);
    this.setPending(false);
  }

  private setPending(on: boolean): void {
    if (this.pending === on) return;
    this.pending = on;
    this.onPending?.(on);
  }

  private themeChanged(): void {
    if (!this.frame || !this.active) return;
    this.onTheme?.();
    void this.paint();
  }

  // ---- scene ------------------------------------------------------------------------------------

  /** Index a new frame in slices (no drawing: `paint()` draws once the view has its transform). The old
   * frame stays in use (hover, clicks) until the new one is complete. */
  async setScene(frame: Frame, texts: FrameTexts): Promise<{ boxes: number; edges: number }> {
    const my = ++this.sceneGen;
    this.gen++; // a full draw of the old frame is stale
    const area = { x: -200, y: -200, w: frame.width + 400, h: frame.height + 400 };
    const frames = new GridIndex<FrameBox>(area);
    const solids = new GridIndex<FrameBox>(area);
    const hits: HitIndex = new GridIndex(area);
    const edgeIdx = new GridIndex<EdgeItem>(area);
    const byKey = new Map<string, FrameBox>();
    // the budget is the task's: the frame's last slice may have spent part of it
    let start = taskStart();
    let n = 0;
    const pace = async (): Promise<void> => {
      if (performance.now() - start < SLICE_MS) return;
      await yieldTask();
      start = performance.now();
    };
    const tick = (): Promise<void> | undefined => ((++n & 63) !== 0 ? undefined : pace());
    for (const b of frame.boxes) {
      addHit(hits, b);
      byKey.set(b.key, b);
      const x = b.x - b.w / 2;
      const y = b.y - b.h / 2;
      if (b.kind === 'expanded') frames.addBox(x, y, b.w, b.h, b);
      // a note's callout belongs to its node's drawing: index the union so culling keeps it
      else if (b.note) solids.add(union(boxRect(b), { x: b.note.x, y: b.note.y, w: b.note.w, h: b.note.h }), b);
      else solids.addBox(x, y, b.w, b.h, b);
      await tick();
    }
    for (const it of frame.edges) {
      // labels sit above-right of the target: widen the bounds so they are not culled away
      const r =
        it.kind === 'stub'
          ? { x: it.line[0] - 2, y: it.line[1] - 4, w: 160, h: 20 }
          : grow(curveBounds(it.curve), 8, 80);
      edgeIdx.add(r, it);
      await tick();
    }
    // the buckets too (else the first full draw's queries build them, ~50 ms at 100k boxes, in one task)
    for (const idx of [frames, solids, hits, edgeIdx]) for (const _ of idx.buildSteps()) await pace();
    if (my === this.sceneGen) {
      this.frame = frame;
      this.texts = texts;
      this.byKey = byKey;
      this.frames = frames;
      this.solids = solids;
      this.hits = hits;
      this.edges = edgeIdx;
      this.hoverKey = null;
    }
    return { boxes: solids.size, edges: frame.edges.length };
  }

  /** Highlights by box key (selection, search hits, counterparts, hover, diff marks); redraws unless `paint` is
   * false (the redraw that placed the scene paints once the view is fitted). */
  setMarks(marks: Map<string, Set<Mark>>, paint = true): Promise<void> {
    this.marks = marks;
    return paint ? this.paint() : Promise.resolve();
  }

  // ---- drawing ----------------------------------------------------------------------------------

  private size(): [number, number, number] {
    const r = this.surface.getBoundingClientRect();
    const dpr = this.doc.defaultView?.devicePixelRatio || 1;
    return [r.width || 800, r.height || 520, dpr];
  }

  private fitCanvas(c: HTMLCanvasElement, cw: number, ch: number, dpr: number): void {
    const w = Math.max(1, Math.round(cw * dpr));
    const hh = Math.max(1, Math.round(ch * dpr));
    if (c.width !== w || c.height !== hh) {
      c.width = w;
      c.height = hh;
    }
  }

  /** How a draw at zoom `k` paints this frame (the colours of the theme now, the detail level of the zoom). */
  private paintAt(frame: Frame, texts: FrameTexts, k: number): Paint {
    return {
      col: colorResolver(this.surface),
      font: this.doc.defaultView?.getComputedStyle(this.surface).fontFamily || 'sans-serif',
      lod: detailAt(k),
      frame,
      texts,
      marks: this.marks,
      zoomed: zoomedOut(k),
      shown: this.pz.shownX(),
    };
  }

  /** What a draw of the layout rectangle `q` at zoom `k` paints. */
  private drawList(P: Paint, q: Rect, k: number): DrawList {
    const frames = this.frames.query(q);
    const solids = this.solids.query(q);
    return {
      frames,
      edges: P.lod.edges ? this.edges.query(q) : null,
      shared: P.frame.links,
      solids,
      zoomLabels: P.zoomed ? () => zoomLabels(P.frame, P.texts, [...frames, ...solids], k) : null,
    };
  }

  /** The current view as SVG markup (Export "SVG"): the same painter, the same paint, onto an SVG-writing
   * context (canvas-svg.ts); null before a scene is indexed. */
  svgOfView(): string | null {
    if (!this.frame || !this.texts) return null;
    const [cw, ch] = this.size();
    const t = { ...this.pz.t };
    const svg = new SvgContext();
    const P: Paint = { ...this.paintAt(this.frame, this.texts, t.k), path: svg.path, tag: svg.tag };
    for (const job of drawJobs(svg.ctx, P, this.drawList(P, viewRect(t, cw, ch, 16), t.k))) job();
    return svg.document([cw, ch], t, P.col('var(--pl-canvas)'), P.font);
  }

  /** A crisp full draw at the current transform, in slices; resolves when it is on screen (or superseded). */
  async paint(): Promise<void> {
    if (!this.frame || !this.texts || !this.active) return;
    clearTimeout(this.idle);
    const my = ++this.gen;
    this.setPending(true);
    const [cw, ch, dpr] = this.size();
    // the raster reaches past the view on every side, so a pan shows drawn content before the crisp redraw
    const mx = Math.round(cw * RASTER_MARGIN);
    const my2 = Math.round(ch * RASTER_MARGIN);
    this.fitCanvas(this.el, cw, ch, dpr);
    this.fitCanvas(this.work, cw + 2 * mx, ch + 2 * my2, dpr);
    const t = { ...this.pz.t };
    const ctx = this.work.getContext('2d');
    if (!ctx) return this.setPending(false); // nothing to draw with (no 2D context): nothing is due either
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.work.width, this.work.height);
    ctx.setTransform(dpr * t.k, 0, 0, dpr * t.k, dpr * (t.x + mx), dpr * (t.y + my2));
    ctx.lineJoin = 'round';
    const P = this.paintAt(this.frame, this.texts, t.k);
    const q = viewRect({ x: t.x + mx, y: t.y + my2, k: t.k }, cw + 2 * mx, ch + 2 * my2, 16);
    const list = this.drawList(P, q, t.k);
    // the zoomed-out titles are made in slices after the jobs (30k groups when a whole 100k-node graph is in view)
    const jobs = drawJobs(ctx, P, { ...list, zoomLabels: null });
    // the budget is the task's (the queries above, a redraw's index build before): checked before each job
    let start = taskStart();
    // a pause when the task's budget is spent. The caller reads `my !== this.gen` itself right before drawing (the
    // view moved or the scene changed: a newer draw, maybe on this canvas, follows), never inside an awaited helper,
    // whose return is one more microtask turn in which that newer draw can begin
    const pause = async (): Promise<void> => {
      await yieldTask();
      start = performance.now();
    };
    // a job (up to 2,500 boxes) is ~10 ms: one that would end past the budget starts the next task instead of
    // overrunning this one (at the longest job seen so far in this draw)
    let longest = 0;
    const spent = (): boolean => performance.now() - start + longest > SLICE_MS;
    for (const job of jobs) {
      if (spent()) await pause();
      if (my !== this.gen) return;
      const t0 = performance.now();
      job();
      longest = Math.max(longest, performance.now() - t0);
    }
    if (P.zoomed) {
      const steps = zoomLabelSteps(P.frame, P.texts, [...list.frames, ...list.solids], t.k);
      let r = steps.next();
      for (; !r.done; r = steps.next()) {
        if (performance.now() - start > SLICE_MS) await pause();
        if (my !== this.gen) return;
      }
      this.zoomLabels = r.value;
      drawZoomLabels(ctx, P, this.zoomLabels);
      this.el.setAttribute('data-zoom-labels', String(this.zoomLabels.length));
    } else {
      this.zoomLabels = [];
      this.el.removeAttribute('data-zoom-labels');
    }
    [this.raster, this.work] = [this.work, this.raster];
    this.rasterT = { x: t.x + mx, y: t.y + my2, k: t.k };
    this.draws++;
    this.compose();
    this.setPending(false);
  }

  /** The view moved: transform the raster at the next frame, draw crisply once it is still. */
  private moved(): void {
    if (!this.frame || !this.active) return;
    this.gen++; // a full draw under way is for a stale transform
    this.setPending(true);
    if (!this.frameReq)
      this.frameReq = requestAnimationFrame(() => {
        this.frameReq = 0;
        this.compose();
      });
    clearTimeout(this.idle);
    this.idle = setTimeout(() => void this.paint(), IDLE_MS);
  }

  /** Screen = the raster under the view's transform relative to the raster's own, plus the hover outline. */
  private compose(): void {
    const [cw, ch, dpr] = this.size();
    this.fitCanvas(this.el, cw, ch, dpr);
    const ctx = this.el.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.el.width, this.el.height);
    const t = this.pz.t;
    const r = this.rasterT;
    if (r) {
      const s = t.k / r.k;
      ctx.setTransform(dpr * s, 0, 0, dpr * s, dpr * (t.x - s * r.x), dpr * (t.y - s * r.y));
      ctx.imageSmoothingEnabled = s < 1;
      ctx.drawImage(this.raster, 0, 0, this.raster.width / dpr, this.raster.height / dpr);
    }
    const hb = this.hoverKey ? this.byKey.get(this.hoverKey) : undefined;
    if (hb) {
      ctx.setTransform(dpr * t.k, 0, 0, dpr * t.k, dpr * t.x, dpr * t.y);
      const st = markStroke(new Set<Mark>(['hover']))!;
      outline(ctx, { col: colorResolver(this.surface), lod: detailAt(t.k) }, hb, st);
    }
    this.onFrame?.();
  }

  // ---- pointer ----------------------------------------------------------------------------------

  /** What is under a point given in px from the canvas's top-left corner. */
  hitAt(px: number, py: number): Hit | null {
    const t = this.pz.t;
    const x = (px - t.x) / t.k;
    const y = (py - t.y) / t.k;
    return hitTest(this.hits, x, y, HEADER);
  }

  private local(e: MouseEvent): [number, number] {
    const r = this.el.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  }

  private bind(): void {
    const c = this.el;
    c.addEventListener('pointerdown', (e) => {
      this.down = { x: e.clientX, y: e.clientY };
    });
    c.addEventListener('click', (e) => {
      // a drag ends in a click too: only a still press picks
      const d = this.down;
      if (d && Math.abs(e.clientX - d.x) + Math.abs(e.clientY - d.y) > 4) return;
      const hit = this.hitAt(...this.local(e));
      if (!hit) return;
      e.stopPropagation();
      if (hit.kind === 'node') this.host.pick(hit.id);
      else this.host.toggle(hit.group);
    });
    c.addEventListener('pointermove', (e) => {
      if (e.buttons) return;
      const hit = this.hitAt(...this.local(e));
      const key = hit && hit.kind !== 'header' ? hit.key : null;
      c.style.cursor = hit ? 'pointer' : '';
      if (key === this.hoverKey) return;
      this.hoverKey = key;
      c.title = hit && this.texts ? this.texts.tip(hit.key) : '';
      this.host.hover(hit?.kind === 'node' ? hit.id : null);
      this.compose();
    });
    c.addEventListener('pointerleave', () => {
      c.title = '';
      if (this.hoverKey === null) return;
      this.hoverKey = null;
      this.host.hover(null);
      this.compose();
    });
  }

  destroy(): void {
    this.gen++;
    this.setPending(false);
    this.themeWatch?.disconnect();
    this.resize?.disconnect();
    this.media?.removeEventListener?.('change', this.mediaListener);
    clearTimeout(this.idle);
    if (this.frameReq) cancelAnimationFrame(this.frameReq);
  }
}

function union(a: Rect, b: Rect): Rect {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, w: Math.max(a.x + a.w, b.x + b.w) - x, h: Math.max(a.y + a.h, b.y + b.h) - y };
}

function grow(r: Rect, pad: number, right: number): Rect {
  return { x: r.x - pad, y: r.y - 20, w: r.w + pad + right, h: r.h + 20 + pad };
}
