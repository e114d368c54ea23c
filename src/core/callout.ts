// Notes (View.notes) as callouts beside their node: wrapped to a width and given room in the layout, so a
// note never covers a neighbour and Fit shows it. Wrapping is estimated from character classes (CJK = one em,
// others ~0.6 em) because layout happens before anything is measured in the page.

export const NOTE_FONT = 11;
export const NOTE_LINE = 15;
export const NOTE_PAD = 6;
export const NOTE_GAP = 14;
export const NOTE_MAX_W = 220;
export const NOTE_MAX_LINES = 6;

/** a character about one em wide (CJK, full-width forms) */
export const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;

export function charWidth(ch: string, font = NOTE_FONT): number {
  if (WIDE.test(ch)) return font;
  if (ch === ' ') return font * 0.3;
  if (/[ilI.,:;'|!]/.test(ch)) return font * 0.32;
  if (/[MWmw@%]/.test(ch)) return font * 0.85;
  return font * 0.58;
}

export function textWidth(t: string, font = NOTE_FONT): number {
  let w = 0;
  for (const ch of t) w += charWidth(ch, font);
  return w;
}

/** Break `text` into lines no wider than `max` px: at spaces for words, anywhere between CJK characters
 * (which need no spaces), and inside a word only when the word alone is too wide. */
export function wrapText(text: string, max: number, font = NOTE_FONT, maxLines = NOTE_MAX_LINES): string[] {
  const lines: string[] = [];
  // tokens: one CJK character, one space, or a run of other characters
  const tokens: string[] = [];
  let word = '';
  for (const ch of text.replace(/\s+/g, ' ').trim()) {
    if (ch === ' ' || WIDE.test(ch)) {
      if (word) tokens.push(word);
      word = '';
      tokens.push(ch);
    } else word += ch;
  }
  if (word) tokens.push(word);
  let cur = '';
  let w = 0;
  const push = (): void => {
    lines.push(cur.trimEnd());
    cur = '';
    w = 0;
  };
  for (const tok of tokens) {
    const tw = textWidth(tok, font);
    if (tok.trim() === '') {
      if (cur) {
        cur += tok;
        w += tw;
      }
      continue;
    }
    if (w + tw <= max || !cur) {
      if (tw <= max) {
        cur += tok;
        w += tw;
        continue;
      }
      // a word wider than a line: split it by characters
      for (const ch of tok) {
        const cw = charWidth(ch, font);
        if (w + cw > max && cur) push();
        cur += ch;
        w += cw;
      }
      continue;
    }
    push();
    if (tw <= max) {
      cur = tok;
      w = tw;
    } else {
      for (const ch of tok) {
        const cw = charWidth(ch, font);
        if (w + cw > max && cur) push();
        cur += ch;
        w += cw;
      }
    }
  }
  if (cur.trim()) push();
  if (lines.length > maxLines) {
    const kept = lines.slice(0, maxLines);
    kept[maxLines - 1] = `${kept[maxLines - 1].replace(/.$/u, '')}…`;
    return kept;
  }
  return lines;
}

export interface NoteBox {
  lines: string[];
  w: number;
  h: number;
}

/** Size of a note's callout box (text wrapped to NOTE_MAX_W). */
export function noteBox(text: string): NoteBox {
  const lines = wrapText(`✎ ${text}`, NOTE_MAX_W - 2 * NOTE_PAD);
  const w = Math.ceil(Math.max(...lines.map((l) => textWidth(l)), 20) + 2 * NOTE_PAD);
  return { lines, w, h: lines.length * NOTE_LINE + 2 * NOTE_PAD - 3 };
}
