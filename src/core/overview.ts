// The static picture of a canvas-drawn pane (too many boxes for SVG): the closed-group overview, i.e. the
// top-level module groups as closed boxes with their badges (what such a pane opens on; reps.ts says which are
// open), its frame drawn by the SVG path's own painter (svg-view.ts) into a hidden <svg class="pl-overview"> beside
// the canvas, which picture.ts takes instead.
import { s } from './dom';
import type { Frame, FrameTexts } from './frame';
import type { SvgPaint } from './nodes';
import { paintScene } from './svg-view';

/** The overview's SVG (hidden) of `frame`, its bounds in `data-box` and what it is in `data-caption`; its
 * arrowheads are the pane's (`paint.marker`: in the scene SVG's <defs>, which picture.ts copies with it). Its few
 * hundred boxes are drawn in one task. */
export function overviewSvg(
  paint: Omit<SvgPaint, 'texts'>,
  frame: Frame,
  texts: FrameTexts,
  caption: string,
): SVGSVGElement {
  const d = paint.doc;
  const svg = s(d, 'svg', { class: 'pl-overview', 'aria-hidden': 'true', 'data-caption': caption }) as SVGSVGElement;
  svg.style.display = 'none';
  const vp = s(d, 'g', { class: 'pl-viewport' });
  paintScene({ ...paint, texts }, frame, vp);
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const b of frame.boxes) {
    x0 = Math.min(x0, b.x - b.w / 2);
    y0 = Math.min(y0, b.y - b.h / 2);
    x1 = Math.max(x1, b.x + b.w / 2);
    y1 = Math.max(y1, b.y + b.h / 2);
  }
  svg.setAttribute('data-box', [x0, y0, x1 - x0, y1 - y0].map((v) => Math.round(v)).join(' '));
  svg.appendChild(vp);
  return svg;
}
