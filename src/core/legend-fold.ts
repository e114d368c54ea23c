// The legend folds to its first line where space is short (wrapped lines clipped by a max-height) (the side panel's ~250 px took many lines of it): folded by
// default when narrow, one toggle, and the user's choice remembered for every legend (localStorage, else for the
// page's life: sandboxed frames and webviews may refuse storage).

import { h } from './dom';
import type { Tr } from './i18n';

/** below this width (px) a legend starts folded unless the user chose otherwise */
export const NARROW = 420;
export const STORE_KEY = 'pt2e-lens.legend';

let memory: 'open' | 'folded' | null = null;

function remembered(win: Window | null): 'open' | 'folded' | null {
  try {
    const v = win?.localStorage.getItem(STORE_KEY);
    if (v === 'open' || v === 'folded') return v;
  } catch {
    // storage refused: the page-life memory below
  }
  return memory;
}

function remember(win: Window | null, v: 'open' | 'folded'): void {
  memory = v;
  try {
    win?.localStorage.setItem(STORE_KEY, v);
  } catch {
    // kept for this page only
  }
}

/** Put the toggle first in `lg` and fold it when narrow (or as the user last chose). */
export function foldable(d: Document, lg: HTMLElement, t: Tr): HTMLElement {
  const win = d.defaultView;
  const btn = h(d, 'button', { type: 'button', class: 'pl-legend-toggle' });
  const set = (folded: boolean): void => {
    lg.classList.toggle('pl-legend-folded', folded);
    btn.setAttribute('aria-expanded', String(!folded));
    btn.textContent = `${folded ? '▸' : '▾'} ${t('ui.legend.toggle')}`;
    btn.title = t(folded ? 'ui.legend.show' : 'ui.legend.hide');
  };
  btn.addEventListener('click', () => {
    const folded = !lg.classList.contains('pl-legend-folded');
    remember(win, folded ? 'folded' : 'open');
    set(folded);
  });
  lg.prepend(btn);
  const choice = remembered(win);
  set(choice === 'folded');
  // the width is known once the legend is on the page; it follows resizes until the user chooses
  const RO = (win as (Window & { ResizeObserver?: typeof ResizeObserver }) | null)?.ResizeObserver;
  if (RO) {
    const ro = new RO(() => {
      if (!lg.isConnected) return ro.disconnect();
      const c = remembered(win);
      const w = lg.getBoundingClientRect().width;
      if (w > 0) set(c ? c === 'folded' : w < NARROW);
    });
    ro.observe(lg);
  }
  return lg;
}
