// renderOutput(el, data, options): what every host calls with an output's MIME data (or the text of a
// <script> holding it). A packed envelope is opened first (packed.ts), then render() draws the View as it
// always did; a plain View (0.1 outputs, the widget) goes straight to render(). A damaged envelope shows one
// line in the output, as render() does for a bad View.
import { clear, h } from './dom';
import { resolveLocale, translator } from './i18n';
import { envelopeOf, unpack } from './packed';
import { lineOf } from './problem';
import { type RenderHandle, type RenderOptions, render } from './render';
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
  // until the View is unpacked (a few ms) el keeps what it shows: the static fallback of text/html, if any
  const ready = unpack(envelope).then(
    (view) => {
      if (destroyed) return;
      inner = render(el, view, options);
      return inner.ready;
    },
    (e: Error) => {
      if (!destroyed) showError(el, e, options);
    },
  );
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
