// The 14 px line icons of a compact toolbar (toolbar.ts, the minimap's toggle): a path stroked in the text colour,
// hidden from screen readers (the button's aria-label names it). CSS shows them only where the toolbar is compact.
import { s } from './dom';

export const ICONS = {
  fit: 'M2 5.5V2h3.5M8.5 2H12v3.5M12 8.5V12H8.5M5.5 12H2V8.5',
  collapse: 'M2 2h10v10H2zM4.5 7h5',
  expand: 'M2 2h10v10H2zM4.5 7h5M7 4.5v5',
  worst: 'M7 1.8 12.6 12H1.4zM7 5.5v3M7 10.2v.1',
  map: 'M1.5 2.5h11v9h-11zM3.5 4.5h4v3h-4z',
};

export function icon(doc: Document, d: string): SVGElement {
  const svg = s(doc, 'svg', { class: 'pl-btn-icon', viewBox: '0 0 14 14', 'aria-hidden': 'true', focusable: 'false' });
  svg.appendChild(s(doc, 'path', { d }));
  return svg;
}
