// A pane's legend redrawn in SVG for the static picture (read where no script runs): each item of the live
// legend (legend.ts, so the same meanings in the view's language) with its swatches, lines and coloured words,
// in the colours the page resolved for them. Text goes in as text nodes: the serializer escapes it.
import { s } from './dom';

const FONT = 11;
const ROW = 16;
const SKIP = /pl-legend-(selected|counterpart|match)/;

/** Rough width of `text` at FONT px (no layout to measure with): CJK glyphs are square, others ~0.6 em. */
export function textWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += ch.charCodeAt(0) > 0x2e80 ? FONT : FONT * 0.6;
  return w;
}

function colour(e: Element, prop: string, fallback: string): string {
  const v = e.ownerDocument.defaultView?.getComputedStyle(e).getPropertyValue(prop);
  return v && !v.includes('var(') ? v : fallback;
}

/** The legend `lg` as an SVG group `width` px wide, with its height; null when it has no items. */
export function legendPicture(lg: Element, width: number): { g: SVGGElement; height: number } | null {
  const doc = lg.ownerDocument;
  const ink = colour(lg, 'color', '#555');
  const g = s(doc, 'g', { class: 'pl-picture-legend', 'font-size': FONT, 'font-family': 'sans-serif' }) as SVGGElement;
  let x = 0;
  let y = 0;
  let n = 0;
  for (const it of lg.children) {
    // the fold toggle, and marks only a reader's pointer or search puts on (nothing is selected in a picture)
    if (it.localName === 'button' || SKIP.test(it.getAttribute('class') ?? '')) continue;
    const parts: Array<(x0: number, y0: number) => SVGElement> = [];
    let w = 0;
    for (const p of it.childNodes) {
      const el = p.nodeType === 1 ? (p as Element) : null;
      const cls = el?.getAttribute('class') ?? '';
      const at = w;
      if (cls === 'pl-swatch') {
        const dash = colour(el!, 'border-top-style', 'solid') === 'dashed' ? '3 2' : null;
        const fill = colour(el!, 'background-color', 'none');
        const stroke = colour(el!, 'border-top-color', ink);
        parts.push((x0, y0) =>
          s(doc, 'rect', {
            x: x0 + at + 1,
            y: y0 + 3,
            width: 10,
            height: 10,
            rx: 2,
            fill,
            stroke,
            'stroke-width': 2,
            'stroke-dasharray': dash,
          }),
        );
        w += 15;
      } else if (cls === 'pl-line') {
        const stroke = colour(el!, 'border-top-color', ink);
        const dash = colour(el!, 'border-top-style', 'solid') === 'dashed' ? '4 2' : null;
        parts.push((x0, y0) =>
          s(doc, 'line', {
            x1: x0 + at,
            x2: x0 + at + 18,
            y1: y0 + 8,
            y2: y0 + 8,
            stroke,
            'stroke-width': 3,
            'stroke-dasharray': dash,
          }),
        );
        w += 22;
      } else if (cls === 'pl-heat-scale') {
        // the gradient's colours as the page resolved them, as three steps
        const stops = colour(el!, 'background-image', '').match(/rgba?\([^)]*\)|#[0-9a-f]{3,8}/gi) ?? [];
        stops.forEach((c, i) => {
          const sw = 30 / stops.length;
          parts.push((x0, y0) => s(doc, 'rect', { x: x0 + at + i * sw, y: y0 + 3, width: sw, height: 10, fill: c }));
        });
        w += 34;
      } else if (cls === 'pl-outcome-chip') {
        // a backend's outcome: its letters on its colour
        const text = el!.textContent ?? '';
        const bw = textWidth(text) + 6;
        const bg = colour(el!, 'background-color', ink);
        const fg = colour(el!, 'color', '#fff');
        parts.push((x0, y0) => s(doc, 'rect', { x: x0 + at, y: y0 + 2, width: bw, height: 13, rx: 3, fill: bg }));
        parts.push((x0, y0) => s(doc, 'text', { x: x0 + at + 3, y: y0 + 12, fill: fg, 'font-weight': 700 }, text));
        w += bw + 3;
      } else {
        const text = p.textContent ?? '';
        if (!text.trim()) {
          w += textWidth(text);
          continue;
        }
        const fill = el ? colour(el, 'color', ink) : ink;
        const bold = el && colour(el, 'font-weight', '400') === '700' ? 700 : null;
        parts.push((x0, y0) => s(doc, 'text', { x: x0 + at, y: y0 + 12, fill, 'font-weight': bold }, text));
        w += textWidth(text);
      }
    }
    if (!parts.length) continue;
    if (x > 0 && x + w > width) {
      x = 0;
      y += ROW;
    }
    for (const make of parts) g.appendChild(make(x, y));
    x += w + 12;
    n++;
  }
  return n ? { g, height: y + ROW + 4 } : null;
}
