// renderOutput(el, data, options): what every host calls with an output's MIME data (or the text of a
// <script> holding it). A packed envelope is opened first (packed.ts), then render() draws the View as it
// always did; a plain View (0.1 outputs, the widget) goes straight to render(). A big envelope is unpacked and
// checked in a layout worker (open-doc.ts), which leaves the page only the drawing; refused there, or without a
// worker, the page unpacks it itself. A damaged envelope shows one line in the output, as render() does for a
// bad View.
import { clear, h } from './dom';
import { resolveLocale, translator } from './i18n';
import { getLayoutClient } from './layout-client';
import { envelopeOf, unpack } from './packed';
import { lineOf } from './problem';
import { type RenderHandle, type RenderOptions, render, renderChecked } from './render';
import { injectStyles } from './styles';

/** The problem in the host's language, else the View's or the page's (text/html's mount point says the View's). */
function showError(el: HTMLElement, e: unknown, options: RenderOptions): void {
  const lang = resolveLocale(options.locale ?? el.closest('[lang]')?.getAttribute('lang'));
  const message = lineOf(e, translator(lang));
  injectStyles(el);
  clear(el);
  const root = h(el.ownerDocument, 'div', { class: 'pt2e-lens', 'data-state': 'error', lang });
  root.appendChild(h(el.ownerDocument, 'div', { class: 'pl-message', role: 'alert' }, message));
  el.appendChild(root);
}

/** base64 characters of a packed View above which it is opened in a layout worker (~3,000 nodes: where render()
 * checks a document in slices); a smaller one is opened at once, here */
const PACKED_IN_WORKER = 100_000;

export function renderOutput(el: HTMLElement, data: unknown, options: RenderOptions = {}): RenderHandle {
  let envelope: ReturnType<typeof envelopeOf>;
  try {
    envelope = envelopeOf(data);
  } catch (e) {
    showError(el, e, options);
    return { ready: Promise.resolve(), panes: [], destroy: () => undefined };
  }
  if (!envelope) return render(el, data, options);
  let inner: RenderHandle | null = null;
  let destroyed = false;
  const packed = envelope;
  // until the View is unpacked (a few ms) el keeps what it shows: the static fallback of text/html, if any
  // (not checked yet: unpack() checks the envelope and says what is wrong with it)
  const inWorker =
    typeof packed.data === 'string' && packed.data.length > PACKED_IN_WORKER
      ? getLayoutClient(options.worker !== false).openPacked(packed)
      : Promise.resolve(null);
  const ready = inWorker.then((view) => {
    if (destroyed) return;
    if (view) {
      inner = renderChecked(el, view, options);
      return inner.ready;
    }
    return unpack(packed).then(
      (doc) => {
        if (destroyed) return;
        inner = render(el, doc, options);
        return inner.ready;
      },
      (e: Error) => {
        if (!destroyed) showError(el, e, options);
      },
    );
  });
  return {
    ready,
    get panes() {
      return inner ? inner.panes : [];
    },
    destroy() {
      destroyed = true;
      inner?.destroy();
    },
  };
}
