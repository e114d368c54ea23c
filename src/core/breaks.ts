// Identifiers (`activation_post_process_0`, `layers.0.conv1`) in narrow columns break after `_` and `.`, not
// mid-word: the text goes in as text nodes with <wbr> after each of those characters (never parsed as HTML).
// Only between two word characters: a leading `_` (`_native_batch_norm…`) or a `__` stays with its word.
const BETWEEN_WORDS = /(?<=[^_.][_.])(?=[^_.])/;

export function breakable(doc: Document, text: string): DocumentFragment {
  const frag = doc.createDocumentFragment();
  for (const part of text.split(BETWEEN_WORDS)) {
    if (frag.firstChild) frag.appendChild(doc.createElement('wbr'));
    frag.appendChild(doc.createTextNode(part));
  }
  return frag;
}
