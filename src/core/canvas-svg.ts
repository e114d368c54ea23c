// Export "SVG" of a canvas-drawn (large) scene. No per-node SVG exists for such a scene, so the canvas painter
// (canvas-draw.ts) paints the current view once more, onto this stand-in for a 2D context that writes each fill,
// stroke and text as SVG markup: the file holds exactly what the canvas shows (boxes, frames, edges, arrowheads,
// edge labels, chips, heat bars, badges, outlines, callouts), in the colours of the current theme, and nothing is
// painted from a second copy of the rules. Texts are escaped; colours arrive resolved (the painter's `col`).

type Op =
  | ['M' | 'L', number, number]
  | ['C', number, number, number, number, number, number]
  | ['Q', number, number, number, number]
  | ['Z']
  | ['R', number, number, number, number, number]
  | ['A', number, number, number, number, number, boolean];

const r2 = (n: number): string => String(Math.round(n * 100) / 100);

// XML 1.0 has no place for most control characters: a name holding one would make the file unreadable
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters removed
const BAD_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text or an attribute value as XML: escaped, with characters XML cannot hold replaced. */
export const xmlText = (s: string): string => s.replace(BAD_XML, '\ufffd').replace(/[&<>"']/g, (c) => ESC[c]);

/** `hsl(h s% l%)` (the heat bar) as #rrggbb, which every SVG reader knows; other colours as they are. */
export function svgColor(c: string): string {
  const m = /^hsla?\(\s*([\d.]+)(?:deg)?[\s,]+([\d.]+)%[\s,]+([\d.]+)%\s*\)$/.exec(c);
  if (!m) return c;
  const [hh, s, l] = [Number(m[1]) / 360, Number(m[2]) / 100, Number(m[3]) / 100];
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const ch = (t0: number): string => {
    const t = (t0 + 1) % 1;
    const v = t < 1 / 6 ? p + (q - p) * 6 * t : t < 1 / 2 ? q : t < 2 / 3 ? p + (q - p) * (2 / 3 - t) * 6 : p;
    return Math.round(v * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${ch(hh + 1 / 3)}${ch(hh)}${ch(hh - 1 / 3)}`;
}

/** The calls of a Path2D the painter makes, kept to be written as SVG. */
export class PathRecord {
  readonly ops: Op[] = [];
  moveTo(x: number, y: number): void {
    this.ops.push(['M', x, y]);
  }
  lineTo(x: number, y: number): void {
    this.ops.push(['L', x, y]);
  }
  bezierCurveTo(a: number, b: number, c: number, d: number, x: number, y: number): void {
    this.ops.push(['C', a, b, c, d, x, y]);
  }
  quadraticCurveTo(a: number, b: number, x: number, y: number): void {
    this.ops.push(['Q', a, b, x, y]);
  }
  closePath(): void {
    this.ops.push(['Z']);
  }
  rect(x: number, y: number, w: number, h: number): void {
    this.ops.push(['R', x, y, w, h, 0]);
  }
  roundRect(x: number, y: number, w: number, h: number, r: number | number[] = 0): void {
    this.ops.push(['R', x, y, w, h, typeof r === 'number' ? r : (r[0] ?? 0)]);
  }
  arc(cx: number, cy: number, r: number, a0: number, a1: number, ccw = false): void {
    this.ops.push(['A', cx, cy, r, a0, a1, ccw]);
  }
}

/** One op as path data (a rectangle with its rounded corners, an arc from its start point). */
function pathData(ops: Op[]): string {
  const d: string[] = [];
  for (const op of ops) {
    if (op[0] === 'R') {
      const [, x, y, w, h, r0] = op;
      const r = Math.min(r0, w / 2, h / 2);
      if (!r) d.push(`M${r2(x)},${r2(y)}h${r2(w)}v${r2(h)}h${r2(-w)}Z`);
      else {
        const a = `a${r2(r)},${r2(r)} 0 0 1`;
        d.push(
          `M${r2(x + r)},${r2(y)}h${r2(w - 2 * r)}${a} ${r2(r)},${r2(r)}v${r2(h - 2 * r)}${a} ${r2(-r)},${r2(r)}` +
            `h${r2(2 * r - w)}${a} ${r2(-r)},${r2(-r)}v${r2(2 * r - h)}${a} ${r2(r)},${r2(-r)}Z`,
        );
      }
    } else if (op[0] === 'A') {
      const [, cx, cy, r, a0, a1, ccw] = op;
      const at = (a: number): string => `${r2(cx + r * Math.cos(a))},${r2(cy + r * Math.sin(a))}`;
      const span = ccw ? a0 - a1 : a1 - a0;
      const sweep = ccw ? 0 : 1;
      d.push(`${d.length ? 'L' : 'M'}${at(a0)}`);
      // a full turn is two half turns (one SVG arc cannot end where it starts)
      if (span >= 2 * Math.PI - 1e-9) {
        const mid = a0 + (ccw ? -Math.PI : Math.PI);
        d.push(`A${r2(r)},${r2(r)} 0 1 ${sweep} ${at(mid)}A${r2(r)},${r2(r)} 0 1 ${sweep} ${at(a0)}`);
      } else d.push(`A${r2(r)},${r2(r)} 0 ${span > Math.PI ? 1 : 0} ${sweep} ${at(a1)}`);
    } else if (op[0] === 'Z') d.push('Z');
    else d.push(`${op[0]}${(op.slice(1) as number[]).map(r2).join(',')}`);
  }
  return d.join('');
}

/** The part of CanvasRenderingContext2D the painter uses, writing SVG elements in paint order. */
export class SvgContext {
  fillStyle = '#000000';
  strokeStyle = '#000000';
  lineWidth = 1;
  globalAlpha = 1;
  font = '10px sans-serif';
  textAlign: CanvasTextAlign = 'start';
  lineJoin: CanvasLineJoin = 'round';
  /** what the painter says it paints next (Paint.tag): each element's class */
  what = '';
  private dash: number[] = [];
  private cur = new PathRecord();
  private readonly out: string[] = [];

  /** The painter's hooks for this context: its paths record, its tags become classes. */
  readonly path = (): Path2D => new PathRecord() as unknown as Path2D;
  readonly tag = (what: string): void => {
    this.what = what;
  };

  /** This object where the painter wants a 2D context. */
  get ctx(): CanvasRenderingContext2D {
    return this as unknown as CanvasRenderingContext2D;
  }

  setLineDash(d: number[]): void {
    this.dash = [...d];
  }
  getLineDash(): number[] {
    return [...this.dash];
  }
  beginPath(): void {
    this.cur = new PathRecord();
  }
  moveTo(x: number, y: number): void {
    this.cur.moveTo(x, y);
  }
  lineTo(x: number, y: number): void {
    this.cur.lineTo(x, y);
  }
  closePath(): void {
    this.cur.closePath();
  }
  rect(x: number, y: number, w: number, h: number): void {
    this.cur.rect(x, y, w, h);
  }
  roundRect(x: number, y: number, w: number, h: number, r?: number | number[]): void {
    this.cur.roundRect(x, y, w, h, r);
  }
  arc(cx: number, cy: number, r: number, a0: number, a1: number, ccw?: boolean): void {
    this.cur.arc(cx, cy, r, a0, a1, ccw);
  }

  fill(p?: Path2D): void {
    this.shape(p ? (p as unknown as PathRecord) : this.cur, `fill="${this.color(this.fillStyle)}"`);
  }

  stroke(p?: Path2D): void {
    const dash = this.dash.length ? ` stroke-dasharray="${this.dash.map(r2).join(' ')}"` : '';
    const paint = `fill="none" stroke="${this.color(this.strokeStyle)}" stroke-width="${r2(this.lineWidth)}"${dash}`;
    this.shape(p ? (p as unknown as PathRecord) : this.cur, paint);
  }

  fillText(text: string, x: number, y: number): void {
    const f = /^(italic\s+)?(?:(\d{3}|bold)\s+)?([\d.]+)px/.exec(this.font);
    const attrs = [
      `x="${r2(x)}" y="${r2(y)}"`,
      f?.[1] ? 'font-style="italic"' : '',
      f?.[2] ? `font-weight="${f[2]}"` : '',
      `font-size="${f ? f[3] : 10}"`,
      this.textAlign === 'center'
        ? 'text-anchor="middle"'
        : /right|end/.test(this.textAlign)
          ? 'text-anchor="end"'
          : '',
      `fill="${this.color(this.fillStyle)}"`,
    ];
    this.out.push(`<text${this.head()} ${attrs.filter(Boolean).join(' ')}>${xmlText(text)}</text>`);
  }

  private color(c: unknown): string {
    return xmlText(svgColor(String(c)));
  }

  private head(): string {
    const cls = this.what ? ` class="${xmlText(this.what)}"` : '';
    return this.globalAlpha < 1 ? `${cls} opacity="${r2(this.globalAlpha)}"` : cls;
  }

  /** A path of rectangles only as <rect>s (one per box: readable, editable), anything else as one <path>. */
  private shape(p: PathRecord, paint: string): void {
    if (!p.ops.length) return;
    if (!p.ops.every((o) => o[0] === 'R')) {
      this.out.push(`<path${this.head()} d="${pathData(p.ops)}" ${paint}/>`);
      return;
    }
    const rects = (p.ops as Array<Extract<Op, ['R', ...number[]]>>).map(
      ([, x, y, w, h, r]) =>
        `<rect x="${r2(x)}" y="${r2(y)}" width="${r2(w)}" height="${r2(h)}"${r ? ` rx="${r2(r)}"` : ''}/>`,
    );
    this.out.push(
      rects.length === 1
        ? rects[0].replace('<rect', `<rect${this.head()} ${paint}`)
        : `<g${this.head()} ${paint}>${rects.join('')}</g>`,
    );
  }

  /** The standalone document: the view's size, its background, what was painted under the view's transform. */
  document(size: [number, number], t: { x: number; y: number; k: number }, bg: string, font: string): string {
    const [w, h] = size.map(Math.round);
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" font-family="${xmlText(font)}" stroke-linejoin="${this.lineJoin}">` +
      `<rect class="pl-bg" width="100%" height="100%" fill="${this.color(bg)}"/>` +
      `<g transform="translate(${r2(t.x)},${r2(t.y)}) scale(${t.k})">${this.out.join('')}</g></svg>`
    );
  }
}
