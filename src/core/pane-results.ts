// A search's hits under a pane's toolbar: how many, the first 30 as buttons (a click goes to the node), and which
// one Enter stepped to.
import { clear, h } from './dom';
import type { Tr } from './i18n';
import type { Id } from './types';

export class SearchResults {
  readonly el: HTMLElement;

  constructor(
    private doc: Document,
    private t: Tr,
  ) {
    this.el = h(doc, 'div', { class: 'pl-results' });
  }

  /** The hits `ids` of query `q` (none shown for an empty query); `pick` goes to one. */
  show(q: string, ids: Id[], pick: (id: Id) => void): void {
    clear(this.el);
    if (!q.trim()) return;
    const n = ids.length;
    this.el.appendChild(
      h(this.doc, 'span', { class: 'pl-status' }, this.t(n === 1 ? 'ui.match_one' : 'ui.match_many', { n })),
    );
    for (const id of ids.slice(0, 30)) {
      const b = h(this.doc, 'button', { class: 'pl-result', type: 'button' }, id);
      b.addEventListener('click', () => pick(id));
      this.el.appendChild(b);
    }
  }

  /** Hit `i` of `n` is the one stepped to. */
  step(i: number, n: number): void {
    for (const [j, b] of [...this.el.querySelectorAll('.pl-result')].entries())
      b.setAttribute('aria-current', String(j === i));
    this.el.setAttribute('data-hit', String(i));
    const st = this.el.querySelector('.pl-status');
    if (st) st.textContent = this.t('ui.views.hit', { i: i + 1, n });
  }
}
