// Static-page entry (IIFE): renders each <script type="application/vnd.pt2e-lens.v1+json"> into the
// element right before it. Python writes the bundle once per page plus one such script per output.
import { picture, render } from '../core/index';
import { getLayoutClient } from '../core/layout-client';
import { MIME_TYPE } from '../core/types';

function renderAll(doc: Document): void {
  const scripts = doc.querySelectorAll(`script[type="${MIME_TYPE}"]`);
  scripts.forEach((sc) => {
    if (sc.getAttribute('data-pt2e-lens') === 'done') return;
    sc.setAttribute('data-pt2e-lens', 'done');
    let host = sc.previousElementSibling as HTMLElement | null;
    if (!host || host.tagName === 'SCRIPT') {
      host = doc.createElement('div');
      sc.parentNode?.insertBefore(host, sc);
    }
    // render() parses and checks the text itself and shows a message on bad input.
    render(host, sc.textContent ?? '');
  });
}

(globalThis as unknown as { pt2eLens?: unknown }).pt2eLens = {
  render,
  renderAll,
  picture,
  layoutMode: () => getLayoutClient().mode,
};
if (typeof document !== 'undefined') {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => renderAll(document));
  else renderAll(document);
}
