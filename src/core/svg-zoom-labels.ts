// The SVG painter's semantic zoom: zoom-labels.ts's titles in a layer over the drawing, redrawn when the zoom
// changes (not on a pan); while it shows, the groups' own titles are hidden (the `pl-zoomed` class on the SVG).
import { s } from './dom';
import type { Frame, FrameTexts } from './frame';
import { groupOfKey, isGroupKey } from './groups';
import { zoomedOut, zoomLabels } from './zoom-labels';

export class SvgZoomLabels {
  private k = -1;
  private frame: Frame | null = null;
  private texts: FrameTexts | null = null;

  constructor(
    private svg: SVGSVGElement,
    private layer: SVGElement,
  ) {}

  /** A new frame was drawn (its layer was cleared with the viewport): label it at zoom `k`. */
  setFrame(frame: Frame, texts: FrameTexts, k: number): void {
    this.frame = frame;
    this.texts = texts;
    this.k = -1;
    this.update(k);
  }

  update(k: number): void {
    if (!this.frame || !this.texts || k === this.k) return;
    this.k = k;
    const on = zoomedOut(k);
    this.svg.classList.toggle('pl-zoomed', on);
    this.layer.replaceChildren();
    if (!on) return;
    const d = this.svg.ownerDocument;
    for (const l of zoomLabels(this.frame, this.texts, this.frame.boxes, k)) {
      const g = s(d, 'g', {
        class: `pl-zlabel${l.closed ? ' pl-zlabel-closed' : ''}`,
        'data-group': isGroupKey(l.key) ? groupOfKey(l.key) : undefined,
      });
      const r = l.plate;
      g.appendChild(s(d, 'rect', { x: r.x, y: r.y, width: r.w, height: r.h, style: `stroke-width:${l.size * 0.08}` }));
      g.appendChild(s(d, 'text', { x: l.x, y: l.y, style: `font-size:${l.size}px` }, l.text));
      this.layer.appendChild(g);
    }
  }
}
