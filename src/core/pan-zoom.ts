// Zoom (wheel, around the pointer), pan (drag), fit and centring of one pane's SVG viewport.
import type { Placement } from './hier-layout';

export class PanZoom {
  /** screen = t.k * layout + (t.x, t.y) */
  t = { x: 20, y: 20, k: 1 };
  /** false until a fit happened at a real size (or the user zoomed) */
  fitted = false;
  private resize: ResizeObserver | null = null;

  constructor(
    private svg: SVGSVGElement,
    private viewport: SVGElement,
    canvas: HTMLElement,
    private placement: () => Placement | null,
  ) {
    this.bind();
    // drawn while detached or hidden (a collapsed output, a background tab): fit once it gets a size
    if (typeof ResizeObserver !== 'undefined') {
      this.resize = new ResizeObserver(() => {
        if (!this.fitted && this.placement() && svg.getBoundingClientRect().width) this.fit();
      });
      this.resize.observe(canvas);
    }
  }

  apply(): void {
    this.viewport.setAttribute('transform', `translate(${this.t.x},${this.t.y}) scale(${this.t.k})`);
  }

  private size(): [number, number] {
    const r = this.svg.getBoundingClientRect();
    return [r.width || 800, r.height || 520];
  }

  fit(): void {
    const P = this.placement();
    if (!P) return;
    const [cw, ch] = this.size();
    const W = P.width + 40;
    const H = P.height + 40;
    let k = Math.max(0.02, Math.min(1.3, cw / W, ch / H));
    // A tall graph would shrink to unreadable text: fit the width instead (up to a readable zoom), show the top.
    if (k < 0.75) k = Math.max(k, Math.min(0.95, cw / W));
    this.t = { k, x: (cw - P.width * k) / 2, y: Math.max(10, (ch - P.height * k) / 2) };
    this.fitted = this.svg.getBoundingClientRect().width > 0;
    this.apply();
  }

  centerOn(x: number, y: number): void {
    const [cw, ch] = this.size();
    if (this.t.k < 0.6) this.t.k = 0.9;
    this.t.x = cw / 2 - x * this.t.k;
    this.t.y = ch / 2 - y * this.t.k;
    this.apply();
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

  private bind(): void {
    const svg = this.svg;
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
        this.apply();
      },
      { passive: false },
    );
    let drag: { x: number; y: number; tx: number; ty: number } | null = null;
    svg.addEventListener('pointerdown', (e: PointerEvent) => {
      if (e.button === 0) drag = { x: e.clientX, y: e.clientY, tx: this.t.x, ty: this.t.y };
    });
    svg.addEventListener('pointermove', (e: PointerEvent) => {
      if (!drag) return;
      this.t.x = drag.tx + e.clientX - drag.x;
      this.t.y = drag.ty + e.clientY - drag.y;
      this.apply();
    });
    const end = (): void => {
      drag = null;
    };
    svg.addEventListener('pointerup', end);
    svg.addEventListener('pointerleave', end);
  }

  destroy(): void {
    this.resize?.disconnect();
  }
}
