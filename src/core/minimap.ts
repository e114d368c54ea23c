// An overview of a large pane: the whole layout in a small canvas (boxes only, in the theme's colours) with the
// view's rectangle on it; a click or drag on it centres the view there. Collapsible; starts collapsed in a
// narrow pane (the side panel's ~250 px) so it never covers the graph there: closed, its toggle sits in the toolbar
// (`dock`), not over the drawing, where it covered the group titles of a zoomed-out graph. It follows the pane's
// width until the user opens or closes it.
import { colorResolver } from './canvas-draw';
import { bucket } from './canvas-index';
import { h } from './dom';
import type { Box, Placement } from './hier-layout';
import type { Tr } from './i18n';
import { ICONS, icon } from './icons';
import type { PanZoom } from './pan-zoom';

export const MAP_W = 168;
export const MAP_H = 112;
/** below this pane width the map starts collapsed */
export const NARROW = 480;

/** Scale and offset that fit a W×H layout into the map (centred). */
export function mapFit(W: number, H: number, mw = MAP_W, mh = MAP_H): { s: number; ox: number; oy: number } {
  const s = Math.min((mw - 8) / Math.max(W, 1), (mh - 8) / Math.max(H, 1));
  return { s, ox: (mw - W * s) / 2, oy: (mh - H * s) / 2 };
}

export class Minimap {
  readonly el: HTMLElement;
  private cv: HTMLCanvasElement;
  private base: HTMLCanvasElement;
  private toggleBtn: HTMLButtonElement;
  private P: Placement | null = null;
  private fit = { s: 1, ox: 0, oy: 0 };

  constructor(
    private doc: Document,
    private surface: HTMLElement,
    private pz: PanZoom,
    private t: Tr,
    private dock: HTMLElement | null = null,
  ) {
    this.el = h(doc, 'div', { class: 'pl-minimap' });
    this.toggleBtn = h(doc, 'button', { class: 'pl-btn pl-minimap-toggle', type: 'button', 'aria-expanded': 'true' });
    this.cv = h(doc, 'canvas', { class: 'pl-minimap-map', role: 'img', 'aria-label': t('ui.minimap') });
    this.base = doc.createElement('canvas');
    this.el.append(this.cv, this.toggleBtn);
    const narrow = pz.width() < NARROW; // pz: surface's size, held through a redraw
    this.setOpen(!narrow);
    let chosen = false;
    this.toggleBtn.addEventListener('click', (e) => {
      e.stopPropagation();
      chosen = true;
      this.setOpen(this.el.classList.contains('pl-closed'));
    });
    // the pane's width changes (an output narrowed to a side panel's width, a pane drawn while hidden): the map
    // follows it, closed when narrow, until the user chooses
    const RO = (doc.defaultView as (Window & { ResizeObserver?: typeof ResizeObserver }) | null)?.ResizeObserver;
    if (RO) {
      const ro = new RO(() => {
        if (chosen || !surface.isConnected) return ro.disconnect();
        const w = surface.getBoundingClientRect().width;
        if (w > 0 && this.open !== w >= NARROW) this.setOpen(w >= NARROW);
      });
      ro.observe(surface);
    }
    // the map's own pointer events must not start a pan of the graph under it
    for (const ev of ['pointerdown', 'pointermove', 'pointerup', 'click', 'wheel'])
      this.el.addEventListener(ev, (e) => e.stopPropagation());
    let dragging = false;
    const go = (e: PointerEvent): void => {
      if (!this.P) return;
      const r = this.cv.getBoundingClientRect();
      const { s, ox, oy } = this.fit;
      this.pz.panTo((e.clientX - r.left - ox) / s, (e.clientY - r.top - oy) / s);
    };
    this.cv.addEventListener('pointerdown', (e) => {
      dragging = true;
      this.cv.setPointerCapture?.(e.pointerId);
      go(e);
    });
    this.cv.addEventListener('pointermove', (e) => {
      if (dragging) go(e);
    });
    const stop = (): void => {
      dragging = false;
    };
    this.cv.addEventListener('pointerup', stop);
    this.cv.addEventListener('pointercancel', stop);
  }

  get open(): boolean {
    return !this.el.classList.contains('pl-closed');
  }

  setOpen(open: boolean): void {
    this.el.classList.toggle('pl-closed', !open);
    this.toggleBtn.setAttribute('aria-expanded', String(open));
    // closed in the toolbar: an icon button there, as Fit is (the icon shows where the toolbar is compact)
    const label = this.t('ui.minimap_toggle');
    if (open) this.toggleBtn.textContent = '×';
    else
      this.toggleBtn.replaceChildren(icon(this.doc, ICONS.map), h(this.doc, 'span', { class: 'pl-btn-label' }, label));
    this.toggleBtn.classList.toggle('pl-icon-btn', !open);
    if (open) this.toggleBtn.removeAttribute('aria-label');
    else this.toggleBtn.setAttribute('aria-label', label);
    this.toggleBtn.title = this.t('ui.minimap');
    if (open || !this.dock) this.el.appendChild(this.toggleBtn);
    else this.dock.appendChild(this.toggleBtn);
    if (open) this.update();
  }

  /** Show or hide the map and its toggle (wherever that sits). */
  show(on: boolean): void {
    this.el.style.display = on ? '' : 'none';
    this.toggleBtn.style.display = on ? '' : 'none';
  }

  /** Draw the overview of a placement once (the view rectangle is drawn over it on every move). */
  setPlacement(P: Placement): void {
    this.P = P;
    const dpr = this.doc.defaultView?.devicePixelRatio || 1;
    for (const c of [this.cv, this.base]) {
      c.width = Math.round(MAP_W * dpr);
      c.height = Math.round(MAP_H * dpr);
    }
    this.fit = mapFit(P.width, P.height);
    const ctx = this.base.getContext('2d');
    if (!ctx) return;
    const col = colorResolver(this.surface);
    const { s, ox, oy } = this.fit;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, MAP_W, MAP_H);
    const frames = new Path2D();
    const solids = new Map<string, Path2D>();
    // boxes under a map pixel: one dot per pixel and colour (a 100k-node graph: thousands of rects, not 100k),
    // and no outline for an open group under 2 px (its content shows it)
    const dots = new Map<string, Set<number>>();
    // no array per box (130k at 100k nodes, in one task)
    for (const b of P.boxes.values()) {
      const x = ox + (b.x - b.w / 2) * s;
      const y = oy + (b.y - b.h / 2) * s;
      const rw = Math.max(b.w * s, 0.8);
      const rh = Math.max(b.h * s, 0.8);
      const tiny = b.w * s < 1 && b.h * s < 1;
      if (b.kind === 'expanded') {
        if (b.w * s >= 2 || b.h * s >= 2) frames.rect(x, y, rw, rh);
      } else if (tiny) bucket(dots, fillOf(b), () => new Set<number>()).add(Math.floor(x) * 4096 + Math.floor(y));
      else bucket(solids, fillOf(b), () => new Path2D()).rect(x, y, rw, rh);
    }
    for (const [c, cells] of dots) {
      const path = bucket(solids, c, () => new Path2D());
      for (const cell of cells) path.rect(Math.floor(cell / 4096), cell % 4096, 0.8, 0.8);
    }
    ctx.strokeStyle = col('var(--pl-border)');
    ctx.lineWidth = 0.6;
    ctx.stroke(frames);
    for (const [c, p] of solids) {
      ctx.fillStyle = col(c);
      ctx.fill(p);
    }
    this.update();
  }

  /** Redraw the view rectangle (after each pan/zoom frame). */
  update(): void {
    if (!this.P || !this.open) return;
    const ctx = this.cv.getContext('2d');
    if (!ctx) return;
    const dpr = this.doc.defaultView?.devicePixelRatio || 1;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.cv.width, this.cv.height);
    ctx.drawImage(this.base, 0, 0);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const [cw, ch] = this.pz.viewSize();
    const t = this.pz.t;
    const { s, ox, oy } = this.fit;
    const x = ox + (-t.x / t.k) * s;
    const y = oy + (-t.y / t.k) * s;
    const w = (cw / t.k) * s;
    const hh = (ch / t.k) * s;
    const col = colorResolver(this.surface);
    ctx.fillStyle = col('var(--pl-match)');
    ctx.globalAlpha = 0.15;
    ctx.fillRect(x, y, w, hh);
    ctx.globalAlpha = 1;
    ctx.strokeStyle = col('var(--pl-match)');
    ctx.lineWidth = 1.5;
    ctx.strokeRect(x, y, w, hh);
  }
}

/** A box's colour on the map: closed groups in the group stroke, nodes in the compute stroke (the map shows
 * where things are, not what they are). */
function fillOf(b: Box): string {
  return b.kind === 'collapsed' ? 'var(--pl-gstroke)' : 'var(--pl-edge)';
}
