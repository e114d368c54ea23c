// A pane's two renderers and what goes with them: SvgView for small frames, CanvasView (made on first need) for
// large ones, the minimap (a canvas frame, or an SVG one much larger than its pane) and a canvas frame's overview
// picture. Which one draws a frame is the canvas threshold's call (canvas-index.ts); graph-view.ts asks.
import { CANVAS_THRESHOLD, useCanvas } from './canvas-index';
import { CanvasView } from './canvas-view';
import type { Placement } from './hier-layout';
import type { Tr } from './i18n';
import { Minimap } from './minimap';
import type { PanZoom } from './pan-zoom';
import type { PaneHost, PaneView } from './pane-view';
import type { Settle } from './settle';
import { SvgView } from './svg-view';

export class Renderers {
  readonly svg: SvgView;
  cv: CanvasView | null = null;
  map: Minimap | null = null;
  /** the current frame is drawn on the canvas */
  canvasMode = false;
  /** drawn boxes above which the canvas draws (a test or an embedder may move it) */
  threshold = CANVAS_THRESHOLD;
  /** the pane's zoom and pan (made on the SVG's viewport, once this is) */
  pz: PanZoom | null = null;
  /** the overview picture of a canvas frame, with the canvas threshold it was made for */
  private overview: { threshold: number; svg: Promise<SVGSVGElement | null> } | null = null;

  constructor(
    private doc: Document,
    private area: HTMLElement,
    private host: PaneHost,
    private t: Tr,
    private settle: Settle,
    /** the toolbar's place for a closed minimap's toggle */
    private mapSlot: HTMLElement | null,
    private placement: () => Placement | null,
  ) {
    this.svg = new SvgView(doc, host, t('ui.graph_label'));
    settle.attach(this.svg.el);
    area.appendChild(this.svg.el);
  }

  /** the renderer of the current frame */
  get view(): PaneView {
    return this.canvasMode ? this.cv! : this.svg;
  }

  /** the current renderer's element (it carries the ready signal) */
  get drawing(): Element | null {
    return (this.canvasMode ? this.cv?.el : this.svg.el) ?? null;
  }

  /** Show the SVG or the canvas (created on first need) for a frame of `boxes` drawn boxes (badges counted). */
  choose(boxes: number): void {
    this.canvasMode = useCanvas(boxes, this.threshold);
    if (this.canvasMode && !this.cv) {
      this.cv = new CanvasView(this.doc, this.area, this.pz!, this.host, this.t('ui.graph_label'));
      this.settle.attach(this.cv.el);
      this.cv.onPending = (on) => this.settle.hold('canvas', on);
      this.cv.onFrame = () => this.map?.update();
      this.cv.onTheme = () => {
        const P = this.placement();
        if (P) this.map?.setPlacement(P);
      };
      this.area.insertBefore(this.cv.el, this.map?.el ?? null);
    }
    this.svg.active = !this.canvasMode;
    this.svg.el.style.display = this.canvasMode ? 'none' : '';
    if (this.cv) {
      this.cv.active = this.canvasMode;
      this.cv.el.style.display = this.canvasMode ? '' : 'none';
    }
    if (this.canvasMode) this.svg.clear();
  }

  /** The minimap shows for a canvas frame and for an SVG one much larger than its pane at the current zoom
   * (a long chain: Fit keeps it readable, the map moves along it); true: it shows and is to draw this placement. */
  placeMap(): boolean {
    const P = this.placement();
    const pz = this.pz!;
    if (!P) return false;
    const [cw, ch] = pz.viewSize();
    const k = pz.t.k;
    const big = this.canvasMode || (cw > 0 && (P.height * k > ch * 1.5 || P.width * k > cw * 1.5));
    if (big && !this.map) {
      this.map = new Minimap(this.doc, this.area, pz, this.t, this.mapSlot);
      this.area.appendChild(this.map.el);
    }
    if (!this.map) return false;
    this.map.show(big);
    return big;
  }

  /** A canvas-drawn frame's static picture (`make`, overview.ts), none for an SVG one. It is the same whatever is
   * open, so it is made once (per canvas threshold, which decides whether there is one). */
  async drawOverview(make: (most: number) => Promise<SVGSVGElement | null>, alive: () => boolean): Promise<void> {
    this.area.querySelector(':scope > .pl-overview')?.remove();
    if (!this.canvasMode) return;
    if (this.overview?.threshold !== this.threshold)
      this.overview = { threshold: this.threshold, svg: make(this.threshold) };
    const svg = await this.overview.svg;
    if (svg && alive()) this.area.appendChild(svg);
  }

  destroy(): void {
    this.cv?.destroy();
    this.svg.destroy();
  }
}
