// Text widths for the box model, so a box's texts are cut (…) to the width they are drawn in, not to a count of
// characters: `features.denseblock4.denselayer16.conv2`, zh-TW names and names without `_`/`.` differ by 2× in
// width per character. Each glyph is measured once per font (a 2D context's measureText at a reference size, then
// scaled), and a string's width is the sum of its glyphs: a 100k-node graph's titles cost a map look-up per
// character, and the cache holds one entry per distinct character, not per string. Kerning only makes a drawn
// string narrower than that sum (`AV`, `To`); Chromium's SVG text can come out slightly wider, hence MARGIN (the
// label-fit browser test reads every drawn text's box). Without a 2D
// context (jsdom) widths come from per-character estimates that err on the wide side. The box model cuts each
// text once; both painters draw what it says.

/** The font stack of every drawn text (the stylesheet's `.pt2e-lens` and `svg text` font-family). */
export const FONT_STACK =
  'system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK SC","DejaVu Sans",sans-serif';

/** A drawn text's font: weight and size (layout px) as the painters set them. */
export interface Font {
  size: number;
  weight?: 400 | 600 | 700;
  italic?: boolean;
}

/** the size glyphs are measured at (widths scale with the size; a big one keeps the rounding small) */
const REF = 100;
/** SVG text in Chromium comes out up to ~0.6 % wider than the canvas measures it (hinting at small sizes) */
const MARGIN = 1.01;
const ELLIPSIS = '…';

type Measure = (text: string) => number;
let context: { measure: (font: string) => Measure } | null | undefined;

/** One font's glyph widths at REF px: ASCII in an array, the rest in a map, each measured on first use. */
class Glyphs {
  private ascii = new Float64Array(128).fill(-1);
  private other = new Map<string, number>();
  /** the width `scan` summed, at REF px */
  sum = 0;
  constructor(private measure: Measure) {}

  /** How many UTF-16 units of `text` from the start have glyphs summing to at most `limit` (a surrogate pair
   * counts whole); their sum is left in `this.sum`. */
  scan(text: string, limit: number): number {
    let sum = 0;
    let i = 0;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      let w: number;
      let n = 1;
      if (c < 128) {
        w = this.ascii[c];
        if (w < 0) w = this.ascii[c] = this.measure(text[i]);
      } else {
        if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length) n = 2;
        const ch = text.slice(i, i + n);
        w = this.other.get(ch) ?? -1;
        if (w < 0) {
          w = this.measure(ch);
          this.other.set(ch, w);
        }
      }
      if (sum + w > limit) break;
      sum += w;
      i += n;
    }
    this.sum = sum;
    return i;
  }
}

/** glyph tables by weight (+1 for italic): widths scale with the size, so one table serves every size */
const tables = new Map<number, Glyphs>();

/** Full-width characters (CJK, kana, hangul, full-width forms) and the symbols the labels use. */
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;
const NARROW = /[ .,:;'|!ijlItfr()[\]{}`"\-/]/;
const BROAD = /[MWmw@%&]/;

/** An estimate of one glyph's width in em, on the wide side (jsdom, or no 2D context). */
function estimate(ch: string, weight: number): number {
  const cp = ch.codePointAt(0) ?? 0;
  let em = 0.66;
  if (WIDE.test(ch) || cp >= 0x1f000) em = 1.05;
  else if (NARROW.test(ch)) em = 0.42;
  else if (BROAD.test(ch) || (cp >= 0x2190 && cp < 0x2c00)) em = 1;
  else if (/[A-Z0-9]/.test(ch)) em = 0.74;
  return weight > 400 ? em * 1.08 : em;
}

function cssFont(f: Font): string {
  return `${f.italic ? 'italic ' : ''}${f.weight ?? 400} ${REF}px ${FONT_STACK}`;
}

/** A 2D context to measure with, once per page (OffscreenCanvas: no element, no jsdom "not implemented"). */
function measurer(): typeof context {
  if (context !== undefined) return context;
  context = null;
  try {
    const ctx = typeof OffscreenCanvas === 'function' ? new OffscreenCanvas(1, 1).getContext('2d') : null;
    if (ctx && typeof ctx.measureText === 'function') {
      let set = '';
      context = {
        measure: (font) => (text) => {
          if (set !== font) {
            ctx.font = font;
            set = font;
          }
          return ctx.measureText(text).width;
        },
      };
    }
  } catch {
    context = null;
  }
  return context;
}

function glyphsOf(f: Font): Glyphs {
  const key = (f.weight ?? 400) + (f.italic ? 1 : 0);
  let t = tables.get(key);
  if (!t) {
    const m = measurer();
    const weight = f.weight ?? 400;
    t = new Glyphs(m ? m.measure(cssFont(f)) : (ch) => estimate(ch, weight) * REF);
    tables.set(key, t);
  }
  return t;
}

/** Width of `text` in font `f`, in layout px: the sum of its glyphs' widths, each measured once per font. */
export function textWidth(text: string, f: Font): number {
  const g = glyphsOf(f);
  g.scan(text, Number.POSITIVE_INFINITY);
  return (g.sum * f.size * MARGIN) / REF;
}

/** `text` as drawn in at most `room` layout px of font `f`: whole when it fits, else cut at a character with `…`
 * (whitespace before the cut dropped); empty when not even `…` fits. The one place a box's text is cut. */
export function fitText(text: string, f: Font, room: number): string {
  const g = glyphsOf(f);
  const limit = (room * REF) / (f.size * MARGIN);
  if (g.scan(text, limit) === text.length) return text;
  g.scan(ELLIPSIS, Number.POSITIVE_INFINITY);
  const left = limit - g.sum;
  if (left < 0) return '';
  return `${text.slice(0, g.scan(text, left)).trimEnd()}${ELLIPSIS}`;
}

/** Test hook: forget the measured glyphs and the context (a test swaps the measure). */
export function resetTextWidths(measure?: (text: string, font: string) => number): void {
  tables.clear();
  context = measure ? { measure: (font) => (text) => measure(text, font) } : undefined;
}

/** The fonts of a box's texts (the stylesheet's `.pl-label`, `.pl-sub`, … rules; the canvas painter sets these). */
export const FONTS = {
  /** a node's label, a group's title */
  label: { size: 12, weight: 600 },
  /** a node's second line, a closed group's `n nodes` */
  sub: { size: 10, weight: 400 },
  /** spec badge, outcome pill, sharing-group number */
  chip: { size: 9, weight: 700 },
  /** a closed group's badges */
  badge: { size: 10, weight: 700 },
} as const satisfies Record<string, Font>;

/** `f` as a canvas `font` in `family`. */
export function canvasFont(f: Font, family: string): string {
  const w = f.weight && f.weight !== 400 ? `${f.weight} ` : '';
  return `${f.italic ? 'italic ' : ''}${w}${f.size}px ${family}`;
}
