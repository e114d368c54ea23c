// A static SVG of what render() drew, for saved notebooks read where no script runs (GitHub, nbviewer, PDF):
// each visible graph's content, unpanned, with its computed styles inlined (no stylesheet travels with it).
import { type Tr, translator } from './i18n';
import { legendPicture, textWidth } from './picture-legend';

const SVG_NS = 'http://www.w3.org/2000/svg';
const STYLE_PROPS = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-opacity',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
];
const PAD = 8;
const GAP = 24;

// properties an SVG child inherits from its parent: written only where they differ from the parent's (the
// picture's weight is mostly these repeated on every element)
const INHERITED = new Set(STYLE_PROPS.filter((p) => p !== 'opacity'));

function inlineStyles(from: Element, to: Element): void {
  const src = [from, ...from.querySelectorAll('*')];
  const dst = [to, ...to.querySelectorAll('*')];
  const view = from.ownerDocument.defaultView;
  if (!view) return;
  const computed = new Map<Element, CSSStyleDeclaration>();
  const style = (e: Element): CSSStyleDeclaration => {
    let cs = computed.get(e);
    if (!cs) {
      cs = view.getComputedStyle(e);
      computed.set(e, cs);
    }
    return cs;
  };
  for (let i = src.length - 1; i >= 0; i--) {
    const cs = style(src[i]);
    if (cs.display === 'none' || cs.visibility === 'hidden') {
      dst[i].remove();
      continue;
    }
    if (src[i].localName === 'title') {
      dst[i].removeAttribute('style'); // a tooltip's text: never drawn
      dst[i].removeAttribute('class');
      continue;
    }
    const parent = i > 0 && src[i].parentElement ? style(src[i].parentElement as Element) : null;
    const decl = STYLE_PROPS.flatMap((p) => {
      const v = cs.getPropertyValue(p);
      if (p === 'opacity' ? v === '1' : parent && INHERITED.has(p) && parent.getPropertyValue(p) === v) return [];
      return [`${p}:${v}`];
    });
    if (decl.length) dst[i].setAttribute('style', decl.join(';'));
    else dst[i].removeAttribute('style');
    // keep what a reader (or a test) needs to find nodes: class pl-node with its data-role and data-id
    if (src[i].classList.contains('pl-node')) dst[i].setAttribute('class', 'pl-node');
    else dst[i].removeAttribute('class');
  }
}

/** A group says "click to open / close" in the live view; nothing can be clicked in the picture, so say what a
 * reader without scripts can do (run the cell, or open the notebook where pt2e-lens is installed). */
function pictureWords(content: Element, t: Tr): void {
  for (const g of content.querySelectorAll('.pl-group')) {
    const n = g.getAttribute('data-total') ?? '';
    const closed = g.classList.contains('pl-collapsed');
    const sub = g.querySelector(':scope > .pl-gsub');
    if (sub && closed) sub.textContent = t('ui.picture.group_sub', { n });
    const what = g.querySelector(':scope > .pl-glabel')?.textContent?.replace(/^[⊞⊟] /, '') ?? '';
    const tip = g.querySelector(':scope > title');
    if (tip) tip.textContent = t(closed ? 'ui.picture.group_tip' : 'ui.picture.group_open', { what, n });
  }
}

/** A shown pane's drawing: its SVG, or the overview of a canvas-drawn one (overview.ts) with its bounds. */
function paneOf(area: Element): { svg: SVGSVGElement; box: DOMRect | null; caption: string | null } | null {
  const svg = area.querySelector<SVGSVGElement>(':scope > svg:not(.pl-overview)');
  if (svg && svg.style.display !== 'none' && svg.querySelector('.pl-viewport')) {
    return { svg, box: (svg.querySelector('.pl-viewport') as SVGGElement).getBBox(), caption: null };
  }
  const ov = area.querySelector<SVGSVGElement>(':scope > svg.pl-overview');
  const [x, y, w, h] = (ov?.getAttribute('data-box') ?? '').split(' ').map(Number);
  return ov ? { svg: ov, box: new DOMRect(x, y, w, h), caption: ov.getAttribute('data-caption') } : null;
}

/** The SVG text of every graph shown in `root` (side by side, each with its legend), or null when nothing is
 * drawn (tables only). */
export function picture(root: Element): string | null {
  const doc = root.ownerDocument;
  // the graphs on show: not in a hidden tab (tabs hide with inline display:none); the output itself may be
  // scrolled out of view (a notebook's offscreen cells), so no size check
  const shown = (e: Element | null): boolean =>
    !e || e === root || ((e as HTMLElement).style?.display !== 'none' && shown(e.parentElement));
  const panes = [...root.querySelectorAll('.pl-canvas')].filter((a) => shown(a)).flatMap((a) => paneOf(a) ?? []);
  if (!panes.length) return null;
  // the output's own language (render() sets it on its root), else the page's
  const t = translator(
    root.querySelector('.pt2e-lens[lang]')?.getAttribute('lang') ?? root.closest('[lang]')?.getAttribute('lang'),
  );
  const out = doc.createElementNS(SVG_NS, 'svg'); // the serializer writes its xmlns
  out.setAttribute('role', 'img');
  const title = root.querySelector('.pl-title')?.textContent;
  if (title) {
    const t = doc.createElementNS(SVG_NS, 'title');
    t.textContent = title;
    out.appendChild(t);
  }
  // the pane's background, so the theme's colours stay readable on a page of the other theme
  const bg = doc.defaultView?.getComputedStyle(panes[0].svg.parentElement as Element).backgroundColor;
  if (bg && bg !== 'rgba(0, 0, 0, 0)') {
    const r = doc.createElementNS(SVG_NS, 'rect');
    for (const [k, v] of Object.entries({ width: '100%', height: '100%', fill: bg })) r.setAttribute(k, v);
    out.appendChild(r);
  }
  let x = 0;
  let height = 0;
  for (const { svg, box, caption } of panes) {
    const vp = svg.querySelector('.pl-viewport') as SVGGElement;
    if (!box?.width || !box.height) continue;
    const w = box.width + 2 * PAD;
    const hgt = box.height + 2 * PAD;
    let top = 0;
    let col = w;
    const ink = svg.closest('.pt2e-lens') ?? root;
    if (caption) {
      // says the picture is not what the pane draws: the overview of a canvas-drawn scene
      const c = doc.createElementNS(SVG_NS, 'text');
      for (const [k, v] of Object.entries({ x: x + PAD, y: 14, 'font-size': 12, 'font-family': 'sans-serif' }))
        c.setAttribute(k, String(v));
      c.setAttribute('fill', doc.defaultView?.getComputedStyle(ink).color || '#333');
      c.textContent = caption;
      out.appendChild(c);
      top = 20;
      col = Math.max(w, textWidth(caption) * 1.1 + PAD);
    }
    const pane = doc.createElementNS(SVG_NS, 'svg');
    for (const [k, v] of Object.entries({ x, y: top, width: w, height: hgt })) pane.setAttribute(k, String(v));
    pane.setAttribute('viewBox', `${box.x - PAD} ${box.y - PAD} ${w} ${hgt}`);
    // an overview's arrowheads are in its pane's scene SVG
    const defs = (caption ? svg.parentElement : svg)?.querySelector('defs');
    if (defs) {
      // arrowheads: their colours are var(--pl-*) too, which mean nothing without our stylesheet
      const copy = defs.cloneNode(true) as Element;
      inlineStyles(defs, copy);
      pane.appendChild(copy);
    }
    const content = vp.cloneNode(true) as SVGGElement;
    pictureWords(content, t);
    inlineStyles(vp, content);
    content.removeAttribute('transform');
    pane.appendChild(content);
    out.appendChild(pane);
    let colH = top + hgt;
    // the pane's legend below it, so the colours can be read without the live view
    const lg = svg.closest('.pl-graph')?.querySelector(':scope > .pl-legend');
    const drawn = lg ? legendPicture(lg, Math.max(w, 360) - PAD) : null;
    if (drawn) {
      drawn.g.setAttribute('transform', `translate(${x + PAD} ${colH})`);
      out.appendChild(drawn.g);
      colH += drawn.height;
      col = Math.max(col, w, 360);
    }
    x += col + GAP;
    height = Math.max(height, colH);
  }
  if (!x) return null;
  const width = x - GAP;
  out.setAttribute('width', String(Math.ceil(width)));
  out.setAttribute('height', String(Math.ceil(height)));
  out.setAttribute('viewBox', `0 0 ${Math.ceil(width)} ${Math.ceil(height)}`);
  return new XMLSerializer().serializeToString(out);
}
