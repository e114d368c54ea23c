// A pane's details drawer: the node's details (details.ts) in an aside with a close button, opened over the part of
// the canvas on show and clear of the node (drawer-place.ts).
import { renderDetails } from './details';
import { h } from './dom';
import { drawerAcross, placeDrawer, type Span } from './drawer-place';
import type { Facts } from './facts';
import type { Tr } from './i18n';
import type { Id } from './types';

export class PaneDrawer {
  readonly el: HTMLElement;
  private details: HTMLElement;

  constructor(
    private doc: Document,
    private t: Tr,
    onClose: () => void,
  ) {
    this.details = h(doc, 'div', { class: 'pl-details' });
    this.el = h(doc, 'aside', { class: 'pl-drawer', hidden: '', 'aria-label': t('ui.details') });
    const close = h(
      doc,
      'button',
      { class: 'pl-btn pl-drawer-close', type: 'button', title: t('ui.close_details') },
      '×',
    );
    close.addEventListener('click', onClose);
    this.el.append(close, this.details);
  }

  /** Show node `id`'s details (null: close), with its note and overlay value. */
  show(facts: Facts, id: Id | null, note?: string, heat?: string): void {
    renderDetails(this.doc, this.details, facts, id, note, heat, this.t);
    if (id) this.el.removeAttribute('hidden');
    else this.el.setAttribute('hidden', '');
  }

  get open(): boolean {
    return !this.el.hasAttribute('hidden');
  }

  /** px of the canvas's right the drawer covers (none when closed, or across a narrow pane's canvas) */
  width(): number {
    if (!this.open || drawerAcross(this.el)) return 0;
    return this.el.getBoundingClientRect().width;
  }

  /** The open drawer over the part of `area` on show, clear of the node's span (client px; null: none). */
  place(area: HTMLElement, node: Span | null): void {
    const stage = this.el.parentElement;
    if (!stage || !this.open) return;
    placeDrawer(this.el, stage, area, node);
  }
}
