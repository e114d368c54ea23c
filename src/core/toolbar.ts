// A pane's toolbar: search (typing filters after a pause, Enter steps through the hits), Fit, Collapse all,
// the overlay's worst node, Expand all, Export and the status line. It only calls back into its pane.
// In a narrow pane (the side panel's ~250 px; styles.ts, container queries) it is one compact row so the drawing
// starts near the pane's top (issue 26.4): the buttons show their icons (name in aria-label, what they do in the
// title), the search field takes the room the row has left (never over a button: a mouse user clicks Fit while
// typing), and the status moves to a line under the drawing (`foot`, put below the canvas). Wide panes look as
// before.
import { h } from './dom';
import { exportButtons } from './export-image';
import type { Tr } from './i18n';
import { ICONS, icon } from './icons';

export interface ToolbarHost {
  search(q: string): void;
  /** the search box changed: a search follows after a pause */
  typing?: () => void;
  /** the query the hits are for */
  query(): string;
  step(dir: 1 | -1): void;
  fit(): void;
  collapseAll(): void;
  /** absent: the graph is too large to open whole */
  expandAll?: () => void;
  /** the overlay's name and a jump to its worst node, when it has one */
  worst?: { name: string; go(): void };
  /** the canvas of a canvas-drawn scene (Export saves it as it is), else null */
  raster(): HTMLCanvasElement | null;
  /** the current view of a canvas-drawn scene as SVG markup, else null */
  viewSvg(): string | null;
}

export interface Toolbar {
  el: HTMLElement;
  /** a closed minimap's toggle goes here */
  mapSlot: HTMLElement;
  /** the status line under the drawing, shown only where the toolbar is compact */
  foot: HTMLElement;
  /** the status, in the toolbar and under the drawing */
  say(text: string): void;
  /** the status as said last */
  said(): string;
}

export function toolbar(doc: Document, pane: HTMLElement, t: Tr, host: ToolbarHost): Toolbar {
  const bar = h(doc, 'div', { class: 'pl-toolbar pl-graph-bar' });
  const button = (label: string, title: string, onClick: () => void, path: string, cls = 'pl-btn'): HTMLElement => {
    const b = h(doc, 'button', { class: `${cls} pl-icon-btn`, type: 'button', title, 'aria-label': label });
    b.append(icon(doc, path), h(doc, 'span', { class: 'pl-btn-label' }, label));
    b.addEventListener('click', onClick);
    return b;
  };
  const search = h(doc, 'input', { type: 'search', placeholder: t('ui.search'), 'aria-label': t('ui.search_label') });
  let timer: ReturnType<typeof setTimeout> | undefined;
  search.addEventListener('input', () => {
    host.typing?.();
    clearTimeout(timer);
    timer = setTimeout(() => host.search(search.value), 120);
  });
  search.title = t('ui.views.search_title');
  search.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter') return;
    clearTimeout(timer);
    if (search.value !== host.query()) host.search(search.value);
    host.step(e.shiftKey ? -1 : 1);
  });
  // a closed minimap's toggle (minimap.ts) goes here: beside Fit, on a row with room for it at the panel's width
  const mapSlot = h(doc, 'span', { class: 'pl-map-slot' });
  bar.append(
    search,
    button(t('ui.fit'), t('ui.fit_title'), () => host.fit(), ICONS.fit),
    button(t('ui.collapse_all'), t('ui.collapse_all_title'), () => host.collapseAll(), ICONS.collapse),
    mapSlot,
  );
  const w = host.worst;
  if (w)
    bar.appendChild(
      button(
        t('ui.views.worst', { name: w.name }),
        t('ui.views.worst_title', { name: w.name }),
        w.go,
        ICONS.worst,
        'pl-btn pl-worst',
      ),
    );
  if (host.expandAll)
    bar.appendChild(button(t('ui.expand_all'), t('ui.expand_all_title'), host.expandAll, ICONS.expand));
  const status = h(doc, 'span', { class: 'pl-status' });
  bar.append(exportButtons(doc, pane, { raster: () => host.raster(), viewSvg: () => host.viewSvg() }, t), status);
  const foot = h(doc, 'div', { class: 'pl-status-foot' });
  const say = (text: string): void => {
    status.textContent = text;
    foot.textContent = text;
    foot.title = text; // cut with … where the line is short
  };
  return { el: bar, mapSlot, foot, say, said: () => status.textContent ?? '' };
}
