// A pane's toolbar: search (typing filters after a pause, Enter steps through the hits), Fit, Collapse all,
// the overlay's worst node, Expand all, Export and the status line. It only calls back into its pane.
import { h } from './dom';
import { exportButtons } from './export-image';
import type { Tr } from './i18n';

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

export function toolbar(
  doc: Document,
  pane: HTMLElement,
  t: Tr,
  host: ToolbarHost,
): { el: HTMLElement; status: HTMLElement; mapSlot: HTMLElement } {
  const bar = h(doc, 'div', { class: 'pl-toolbar' });
  const button = (label: string, title: string, onClick: () => void, cls = 'pl-btn'): HTMLElement => {
    const b = h(doc, 'button', { class: cls, type: 'button', title }, label);
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
    button(t('ui.fit'), t('ui.fit_title'), () => host.fit()),
    button(t('ui.collapse_all'), t('ui.collapse_all_title'), () => host.collapseAll()),
    mapSlot,
  );
  const w = host.worst;
  if (w)
    bar.appendChild(
      button(
        t('ui.views.worst', { name: w.name }),
        t('ui.views.worst_title', { name: w.name }),
        w.go,
        'pl-btn pl-worst',
      ),
    );
  if (host.expandAll) bar.appendChild(button(t('ui.expand_all'), t('ui.expand_all_title'), host.expandAll));
  const status = h(doc, 'span', { class: 'pl-status' });
  bar.append(exportButtons(doc, pane, { raster: () => host.raster(), viewSvg: () => host.viewSvg() }, t), status);
  return { el: bar, status, mapSlot };
}
