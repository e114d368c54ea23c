// Static-page entry (IIFE): renders each <script type="application/vnd.pt2e-lens.v1+json"> (a packed View,
// or a plain one from pt2e-lens 0.1) into the element right before it. Python inlines this bundle, packed,
// in each output's text/html (or once per page: docs/display.md).
import { picture, render, renderOutput } from '../core/index';
import { getLayoutClient } from '../core/layout-client';
import { envelopeOf, unpack } from '../core/packed';
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
    // a packed View is opened first; render() parses and checks the text itself and shows a message on bad input
    renderOutput(host, sc.textContent ?? '');
  });
}

(globalThis as unknown as { pt2eLens?: unknown }).pt2eLens = {
  render,
  renderOutput,
  renderAll,
  /** the View in an output's MIME data or script text, packed or not (for tests and tools) */
  unpack: async (data: unknown) => {
    const env = envelopeOf(data);
    return env ? unpack(env) : typeof data === 'string' ? JSON.parse(data) : data;
  },
  picture,
  layoutMode: () => getLayoutClient().mode,
};
if (typeof document !== 'undefined') {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => renderAll(document));
  else renderAll(document);
}
