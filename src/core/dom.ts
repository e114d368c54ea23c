// The only way core builds DOM: createElement(NS) + textContent + setAttribute. Model text is untrusted,
// so nothing here (or anywhere in core) assigns innerHTML.
export const SVG_NS = 'http://www.w3.org/2000/svg';

type Attrs = Record<string, string | number | undefined | null>;

function setAttrs(e: Element, attrs?: Attrs): void {
  if (!attrs) return;
  for (const k of Object.keys(attrs)) {
    const v = attrs[k];
    if (v !== undefined && v !== null) e.setAttribute(k, String(v));
  }
}

export function h<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  attrs?: Attrs,
  text?: string | null,
): HTMLElementTagNameMap[K] {
  const e = doc.createElement(tag);
  setAttrs(e, attrs);
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

export function s(doc: Document, tag: string, attrs?: Attrs, text?: string | null): SVGElement {
  const e = doc.createElementNS(SVG_NS, tag) as SVGElement;
  setAttrs(e, attrs);
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

export function clear(e: Element): void {
  while (e.firstChild) e.removeChild(e.firstChild);
}

export function fmtNums(xs: Array<number | null> | null, max = 8): string {
  if (xs === null) return '—';
  const shown = xs.slice(0, max).map((x) => (x === null ? 'null' : fmtNum(x)));
  return `[${shown.join(', ')}${xs.length > max ? `, … (${xs.length} values)` : ''}]`;
}

export function fmtNum(x: number): string {
  if (Number.isInteger(x)) return String(x);
  const a = Math.abs(x);
  return a !== 0 && (a < 1e-3 || a >= 1e5) ? x.toExponential(3) : String(Number(x.toPrecision(5)));
}

export function truncate(t: string, n: number): string {
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
}
