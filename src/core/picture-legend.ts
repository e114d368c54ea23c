// A pane's legend redrawn in SVG for the static picture (read where no script runs): each item of the live
// legend (legend.ts, so the same meanings in the view's language) with its swatches, lines and coloured words,
// in the colours the page resolved for them. Text goes in as text nodes: the serializer escapes it.
import { s } from './dom';

const FONT = 11;
const ROW = 16;
const SKIP = /pl-legend-(selected|counterpart|match|speclist)/;

/** Rough width of `text` at FONT px (no layout to measure with): CJK glyphs are square, others ~0.6 em. */
export function textWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += ch.charCodeAt(0) > 0x2e80 ? FONT : FONT * 0.6;
  return Math.ceil(w);
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
  for (const it of lg.children) {
    // the fold toggle, and marks only a reader's pointer or search puts on (nothing is selected in a picture)
    // (a big Run's folded specs: their count, as the chip says it, not the list behind it)
    const cls0 = it.getAttribute('class') ?? '';
    if ((it.localName === 'button' && cls0 !== 'pl-legend-specfold') || SKIP.test(cls0)) continue;
    const item = s(doc, 'g');
    let w = 0;
    const add = (tag: string, attrs: Record<string, string | number | null>, text?: string): void => {
      item.appendChild(s(doc, tag, attrs, text));
    };
    for (const p of it.childNodes) {
      const el = p.nodeType === 1 ? (p as Element) : null;
      const cls = el?.getAttribute('class') ?? '';
      const stroke = el ? colour(el, 'border-top-color', ink) : ink;
      const dash = el && colour(el, 'border-top-style', 'solid') === 'dashed' ? '3 2' : null;
      if (cls === 'pl-fold-mark') continue;
      if (cls === 'pl-swatch') {
        const fill = colour(el!, 'background-color', 'none');
        add('rect', {
          x: w + 1,
          y: 3,
          width: 10,
          height: 10,
          rx: 2,
          fill,
          stroke,
          'stroke-width': 2,
          'stroke-dasharray': dash,
        });
        w += 15;
      } else if (cls === 'pl-line') {
        add('line', { x1: w, x2: w + 18, y1: 8, y2: 8, stroke, 'stroke-width': 3, 'stroke-dasharray': dash });
        w += 22;
      } else if (cls === 'pl-heat-scale') {
        // the gradient's colours as the page resolved them, in steps
        const stops = colour(el!, 'background-image', '').match(/rgba?\([^)]*\)|#[0-9a-f]{3,8}/gi) ?? [];
        for (const c of stops) {
          add('rect', { x: w, y: 3, width: 30 / stops.length, height: 10, fill: c });
          w += 30 / stops.length;
        }
        w += 4;
      } else {
        const text = p.textContent ?? '';
        const tw = textWidth(text);
        // a backend's outcome chip: its letters on its colour
        const chip = cls === 'pl-outcome-chip';
        if (chip)
          add('rect', { x: w, y: 2, width: tw + 6, height: 13, rx: 3, fill: colour(el!, 'background-color', ink) });
        const bold = el && colour(el, 'font-weight', '400') === '700' ? 700 : null;
        if (text.trim())
          add(
            'text',
            { x: w + (chip ? 3 : 0), y: 12, fill: el ? colour(el, 'color', ink) : ink, 'font-weight': bold },
            text,
          );
        w += tw + (chip ? 9 : 0);
      }
    }
    if (!item.firstChild) continue;
    if (x > 0 && x + w > width) {
      x = 0;
      y += ROW;
    }
    item.setAttribute('transform', `translate(${Math.round(x)} ${y})`);
    g.appendChild(item);
    x += w + 12;
  }
  return g.firstChild ? { g, height: y + ROW + 4 } : null;
}
