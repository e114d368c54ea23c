// A static SVG of what render() drew, for saved notebooks read where no script runs (GitHub, nbviewer, PDF):
// each visible graph's content, unpanned, with its computed styles inlined (no stylesheet travels with it).
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

/** The SVG text of every graph shown in `root` (side by side), or null when nothing is drawn (tables only). */
export function picture(root: Element): string | null {
  const doc = root.ownerDocument;
  // the graphs on show: not in a hidden tab (tabs hide with inline display:none); the output itself may be
  // scrolled out of view (a notebook's offscreen cells), so no size check
  const shown = (e: Element | null): boolean =>
    !e || e === root || ((e as HTMLElement).style?.display !== 'none' && shown(e.parentElement));
  const graphs = [...root.querySelectorAll<SVGSVGElement>('.pl-canvas > svg')].filter(
    (svg) => shown(svg) && svg.querySelector('.pl-viewport'),
  );
  if (!graphs.length) return null;
  const out = doc.createElementNS(SVG_NS, 'svg');
  out.setAttribute('xmlns', SVG_NS);
  out.setAttribute('role', 'img');
  const title = root.querySelector('.pl-title')?.textContent;
  if (title) {
    const t = doc.createElementNS(SVG_NS, 'title');
    t.textContent = title;
    out.appendChild(t);
  }
  let x = 0;
  let height = 0;
  for (const svg of graphs) {
    const vp = svg.querySelector('.pl-viewport') as SVGGElement;
    const box = vp.getBBox(); // in the viewport's own space, before its pan/zoom transform
    if (!box.width || !box.height) continue;
    const w = box.width + 2 * PAD;
    const hgt = box.height + 2 * PAD;
    const pane = doc.createElementNS(SVG_NS, 'svg');
    for (const [k, v] of Object.entries({ x, y: 0, width: w, height: hgt })) pane.setAttribute(k, String(v));
    pane.setAttribute('viewBox', `${box.x - PAD} ${box.y - PAD} ${w} ${hgt}`);
    const defs = svg.querySelector('defs');
    if (defs) {
      // arrowheads: their colours are var(--pl-*) too, which mean nothing without our stylesheet
      const copy = defs.cloneNode(true) as Element;
      inlineStyles(defs, copy);
      pane.appendChild(copy);
    }
    const content = vp.cloneNode(true) as SVGGElement;
    inlineStyles(vp, content);
    content.removeAttribute('transform');
    pane.appendChild(content);
    out.appendChild(pane);
    x += w + GAP;
    height = Math.max(height, hgt);
  }
  if (!x) return null;
  const width = x - GAP;
  out.setAttribute('width', String(Math.ceil(width)));
  out.setAttribute('height', String(Math.ceil(height)));
  out.setAttribute('viewBox', `0 0 ${Math.ceil(width)} ${Math.ceil(height)}`);
  return new XMLSerializer().serializeToString(out);
}
