// Export "SVG" of a canvas-drawn view holds what the canvas painter paints on screen. A fake 2D context records the
// canvas's own full draw of scenes with every kind of mark (spec chips, outcome pills, heat bars and fills, closed
// group badges, annotation dots, int8 edge labels, arrowheads, sharing arcs, selection / search / added / removed
// outlines, a note's callout, a hostile name); the exported SVG must hold each recorded text, box, outline and
// path, at the same place, in the same colour, in both themes, and nothing else. jsdom has no canvas and does not
// substitute var(): the test gives the canvas a recording context and the pane its theme's resolved colours.
import { afterEach, describe, expect, it } from 'vitest';
import { svgColor, xmlText } from '../../src/core/canvas-svg';
import { groupKey, nodeKey } from '../../src/core/groups';
import type { Mark } from '../../src/core/marks';
import { fixture, mount } from './helpers';

type Call =
  | { op: 'fill' | 'stroke'; color: string; width: number; dash: string; alpha: number; ops: unknown[][] }
  | { op: 'text'; text: string; color: string; x: number; y: number; font: string; align: string };

class RecPath {
  ops: unknown[][] = [];
  moveTo(...a: number[]) {
    this.ops.push(['M', ...a]);
  }
  lineTo(...a: number[]) {
    this.ops.push(['L', ...a]);
  }
  bezierCurveTo(...a: number[]) {
    this.ops.push(['C', ...a]);
  }
  quadraticCurveTo(...a: number[]) {
    this.ops.push(['Q', ...a]);
  }
  closePath() {
    this.ops.push(['Z']);
  }
  rect(x: number, y: number, w: number, h: number) {
    this.ops.push(['R', x, y, w, h, 0]);
  }
  roundRect(x: number, y: number, w: number, h: number, r = 0) {
    this.ops.push(['R', x, y, w, h, r]);
  }
  arc(...a: number[]) {
    this.ops.push(['A', ...a]);
  }
}

/** A 2D context that records what is filled, stroked and written, with the state each call used. */
class RecCtx extends RecPath {
  calls: Call[] = [];
  fillStyle = '#000000';
  strokeStyle = '#000000';
  lineWidth = 1;
  globalAlpha = 1;
  font = '10px sans-serif';
  textAlign = 'start';
  lineJoin = 'miter';
  imageSmoothingEnabled = true;
  private dash: number[] = [];
  setTransform() {}
  /** a full draw starts with a clear: keep that draw's calls only */
  clearRect() {
    this.calls = [];
  }
  drawImage() {}
  // the minimap's (not recorded: only the pane's raster is compared)
  fillRect() {}
  strokeRect() {}
  setLineDash(d: number[]) {
    this.dash = d;
  }
  beginPath() {
    this.ops = [];
  }
  private shape(op: 'fill' | 'stroke', p?: RecPath) {
    const color = String(op === 'fill' ? this.fillStyle : this.strokeStyle);
    const width = op === 'fill' ? 0 : this.lineWidth;
    const dash = op === 'fill' ? '' : this.dash.join(' ');
    this.calls.push({ op, color, width, dash, alpha: this.globalAlpha, ops: [...(p ?? this).ops] });
  }
  fill(p?: RecPath) {
    this.shape('fill', p);
  }
  stroke(p?: RecPath) {
    this.shape('stroke', p);
  }
  fillText(text: string, x: number, y: number) {
    this.calls.push({ op: 'text', text, color: String(this.fillStyle), x, y, font: this.font, align: this.textAlign });
  }
}

const realGetContext = HTMLCanvasElement.prototype.getContext;
let byCanvas = new WeakMap<HTMLCanvasElement, RecCtx>();
afterEach(() => {
  HTMLCanvasElement.prototype.getContext = realGetContext;
  delete (globalThis as { Path2D?: unknown }).Path2D;
});

function recordCanvas(): void {
  (globalThis as { Path2D?: unknown }).Path2D = RecPath;
  byCanvas = new WeakMap();
  HTMLCanvasElement.prototype.getContext = function (this: HTMLCanvasElement) {
    let c = byCanvas.get(this);
    if (!c) {
      c = new RecCtx();
      byCanvas.set(this, c);
    }
    return c;
  } as never;
}

/** `var(--a, fallback)` as the colour it names, from the computed style (jsdom keeps var() as written). */
function resolve(cs: CSSStyleDeclaration, v: string, depth = 0): string {
  const m = /^var\((--[\w-]+)\s*(?:,(.*))?\)$/.exec(v.trim());
  if (!m || depth > 8) return v.trim();
  const own = cs.getPropertyValue(m[1]).trim();
  return own ? resolve(cs, own, depth + 1) : resolve(cs, m[2] ?? '', depth + 1);
}

/** Every --pl-* variable resolved onto the pane's drawing surface (as a browser's computed style has them). */
function resolveTheme(surface: HTMLElement): void {
  const names = new Set<string>();
  for (const s of document.querySelectorAll('style'))
    for (const n of s.textContent!.match(/--pl-[\w-]+/g) ?? []) names.add(n);
  surface.removeAttribute('style');
  const cs = getComputedStyle(surface);
  const vals = [...names].map((n) => [n, resolve(cs, `var(${n})`)] as const);
  for (const [n, v] of vals) if (v) surface.style.setProperty(n, v);
}

const HOSTILE = '<img src=x onerror=alert(1)>';

/** A Run (spec chips, sharing arcs, int8 edges, dots) or real_lowered (outcome pills), given an overlay on some
 * nodes, a note and a hostile node name. */
function docOf(name: string): { doc: any; keep: string[] } {
  const doc = fixture(name);
  const keep: string[] = [];
  // every pane (a Run shows its last stage first)
  doc.panes.forEach((pane: any, i: number) => {
    const compute = pane.snapshot.nodes.filter((n: any) => n.role === 'compute');
    compute[0].target = HOSTILE;
    pane.overlay = {
      name: 'SQNR',
      unit: 'dB',
      higher_is_better: true,
      values: Object.fromEntries(compute.slice(0, 3).map((n: any, j: number) => [n.id, 8 + j * 14])),
    };
    const noted = compute[compute.length - 1].id;
    doc.notes[i] = { ...doc.notes[i], [noted]: `${HOSTILE} & "quoted" note` };
    keep.push(compute[0].id, noted, ...Object.keys(pane.overlay.values));
  });
  return { doc, keep };
}

interface Parsed {
  texts: string[];
  shapes: string[];
  classes: Map<string, Element[]>;
  raw: string;
}

const n1 = (x: number): string => (Math.round(x * 10) / 10).toFixed(1);
/** a recorded number as the SVG writes it (2 decimals), then compared at 1 */
const w1 = (x: number): string => n1(Math.round(x * 100) / 100);
const fontKey = (f: string): string => {
  const m = /^(italic\s+)?(?:(\d{3})\s+)?([\d.]+)px/.exec(f)!;
  return `${m[1] ? 'italic' : ''}/${m[2] ?? ''}/${m[3]}`;
};
const anchorOf = (a: string): string => (a === 'center' ? 'middle' : /right|end/.test(a) ? 'end' : '');

/** A path's points as a string: each command's end point (a full circle as its centre and radius). */
function opsKey(ops: unknown[][]): string {
  return ops
    .map((o) => {
      const [c, ...a] = o as [string, ...number[]];
      if (c === 'A') return `O${w1(a[0])},${w1(a[1])},${w1(a[2])}`;
      if (c === 'Z') return 'Z';
      return `${c === 'M' ? 'M' : 'L'}${w1(a[a.length - 2])},${w1(a[a.length - 1])}`;
    })
    .join('');
}

/** The same from SVG path data (absolute commands, a circle written as two half arcs). */
function dKey(d: string): string {
  const cmds = [...d.matchAll(/([MLCQAZ])([^MLCQAZ]*)/g)].map(
    (m) => [m[1], m[2].split(/[ ,]+/).filter(Boolean).map(Number)] as const,
  );
  const out: string[] = [];
  for (let i = 0; i < cmds.length; i++) {
    const [c, a] = cmds[i];
    if (c === 'M' && cmds[i + 1]?.[0] === 'A' && cmds[i + 2]?.[0] === 'A') {
      const mid = cmds[i + 1][1];
      const r = mid[0];
      out.push(`O${n1((a[0] + mid[5]) / 2)},${n1((a[1] + mid[6]) / 2)},${n1(r)}`);
      i += 2;
    } else if (c === 'Z') out.push('Z');
    else out.push(`${c === 'M' ? 'M' : 'L'}${n1(a[a.length - 2])},${n1(a[a.length - 1])}`);
  }
  return out.join('');
}

/** The recorded draw in one normal form: texts and shapes (each rectangle on its own), sorted. */
function recorded(calls: Call[]): { texts: string[]; shapes: string[] } {
  const texts: string[] = [];
  const shapes: string[] = [];
  for (const c of calls) {
    if (c.op === 'text') {
      texts.push(`${c.text}|${svgColor(c.color)}|${w1(c.x)}|${w1(c.y)}|${fontKey(c.font)}|${anchorOf(c.align)}`);
      continue;
    }
    if (!c.ops.length) continue;
    const paint = `${c.op}|${svgColor(c.color)}|${c.width}|${c.dash}|${Math.min(c.alpha, 1)}`;
    if (c.ops.every((o) => o[0] === 'R'))
      for (const [, x, y, w, h, r] of c.ops as number[][])
        shapes.push(`${paint}|R${w1(x)},${w1(y)},${w1(w)},${w1(h)},${w1(Math.min(r, w / 2, h / 2))}`);
    else shapes.push(`${paint}|${opsKey(c.ops)}`);
  }
  return { texts: texts.sort(), shapes: shapes.sort() };
}

/** The exported SVG in the same normal form, with its elements by class. */
function parsed(svg: string): Parsed {
  const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
  expect(doc.querySelector('parsererror')).toBeNull();
  const attr = (e: Element, a: string): string | null =>
    e.getAttribute(a) ?? (e.parentElement ? attr(e.parentElement, a) : null);
  const paintOf = (e: Element): string => {
    const stroke = attr(e, 'stroke');
    const op = attr(e, 'fill') === 'none' ? 'stroke' : 'fill';
    const width = op === 'fill' ? 0 : Number(attr(e, 'stroke-width'));
    const dash = op === 'fill' ? '' : (attr(e, 'stroke-dasharray') ?? '');
    return `${op}|${op === 'fill' ? attr(e, 'fill') : stroke}|${width}|${dash}|${Number(attr(e, 'opacity') ?? 1)}`;
  };
  const texts = [...doc.querySelectorAll('g > text')].map((t) => {
    const f = `${t.getAttribute('font-style') ? 'italic' : ''}/${t.getAttribute('font-weight') ?? ''}/${t.getAttribute('font-size')}`;
    return `${t.textContent}|${t.getAttribute('fill')}|${n1(Number(t.getAttribute('x')))}|${n1(Number(t.getAttribute('y')))}|${f}|${t.getAttribute('text-anchor') ?? ''}`;
  });
  const shapes: string[] = [];
  for (const r of doc.querySelectorAll('rect:not(.pl-bg)')) {
    const g = (a: string) => n1(Number(r.getAttribute(a) ?? 0));
    shapes.push(`${paintOf(r)}|R${g('x')},${g('y')},${g('width')},${g('height')},${g('rx')}`);
  }
  for (const p of doc.querySelectorAll('path')) shapes.push(`${paintOf(p)}|${dKey(p.getAttribute('d')!)}`);
  const classes = new Map<string, Element[]>();
  for (const e of doc.querySelectorAll('[class]')) {
    const c = e.getAttribute('class')!;
    classes.set(c, [...(classes.get(c) ?? []), e]);
  }
  return { texts: texts.sort(), shapes: shapes.sort(), classes, raw: svg };
}

/** Render `doc` on a canvas pane large enough to show the whole graph at 1:1, with marks of every kind. */
async function scene(doc: unknown, theme: 'light' | 'dark', keep: string[]) {
  recordCanvas();
  const { el, handle } = await mount(doc);
  const gv = handle.panes.find((p) => p) as any;
  el.querySelector('.pt2e-lens')?.setAttribute('data-pl-theme', theme);
  el.setAttribute('data-pl-theme', theme);
  const surface = el.querySelector('.pl-canvas') as HTMLElement;
  resolveTheme(surface);
  surface.getBoundingClientRect = () => ({
    x: 0,
    y: 0,
    left: 0,
    top: 0,
    width: 1500,
    height: 2300,
    right: 1500,
    bottom: 2300,
    toJSON() {},
  });
  gv.canvasThreshold = 0;
  // one closed group carries its badges; the rest open (those holding the nodes `keep` names among them)
  const open = new Set<string>();
  for (const id of keep) for (let g = gv.hier.parentOf.get(id); g; g = g.parent) open.add(g.key);
  const closed = [...gv.hier.groups.keys()].find((k: string) => !open.has(k) && gv.hier.groups.get(k).total > 1);
  expect(closed).toBeDefined();
  gv.expanded = new Set(gv.hier.groups.keys());
  gv.expanded.delete(closed);
  await gv.redraw();
  expect(gv.canvasMode).toBe(true);
  const ids = [...gv.placement.boxes.values()].filter((b: any) => b.kind === 'node').map((b: any) => b.id as string);
  await gv.select(ids[1]);
  const cv = gv.canvasView;
  const marks = new Map<string, Set<Mark>>(cv.marks);
  // each on a node that has no mark yet (a Run's own diff marks stay as they are)
  const free = ids.filter((id) => !marks.has(nodeKey(id)));
  (['added', 'removed', 'match', 'counterpart'] as Mark[]).forEach((m, i) => {
    marks.set(nodeKey(free[i]), new Set([m]));
  });
  marks.set(groupKey(closed), new Set(['match']));
  await cv.setMarks(marks, false);
  gv.panZoom.t = { x: 20, y: 20, k: 1 };
  await cv.paint();
  // the canvas the full draw went to (it became the raster the screen shows), and only that draw of it
  const calls = byCanvas.get(cv.raster)!.calls;
  return { handle, cv, calls, selected: ids[1], col: (n: string) => surface.style.getPropertyValue(n) };
}

describe('Export SVG of a canvas-drawn view', () => {
  for (const [name, theme] of [
    ['run.json', 'light'],
    ['run.json', 'dark'],
    ['real_lowered.json', 'light'],
    ['real_lowered.json', 'dark'],
  ] as const)
    it(`holds every text, box, outline and path the canvas paints (${name}, ${theme})`, async () => {
      const { doc, keep } = docOf(name);
      const { handle, cv, calls, col } = await scene(doc, theme, keep);
      expect(calls.length).toBeGreaterThan(50);
      const want = recorded(calls);
      const got = parsed(cv.svgOfView());
      expect(got.texts).toEqual(want.texts);
      expect(got.shapes).toEqual(want.shapes);

      // every kind is there, in the theme's colours (the classes say what the painter said it painted)
      const cls = (c: string) => got.classes.get(c) ?? [];
      const fillOf = (e: Element) => e.getAttribute('fill') ?? e.parentElement?.getAttribute('fill');
      const strokeOf = (e: Element) => e.getAttribute('stroke') ?? e.parentElement?.getAttribute('stroke');
      expect(cls('pl-arrow').length).toBeGreaterThan(0);
      expect(cls('pl-edge').length).toBeGreaterThan(0);
      expect(cls('pl-edge-label').map((e) => e.textContent)).toContain(name === 'run.json' ? 'int8' : 'uint8');
      expect(cls('pl-edge-label').every((e) => e.getAttribute('fill') === col('--pl-int'))).toBe(true);
      expect(cls('pl-chip').some((e) => e.tagName === 'text')).toBe(true);
      expect(cls('pl-heat').length).toBeGreaterThan(0);
      expect(cls('pl-badge').some((e) => e.tagName === 'text')).toBe(true);
      expect(cls('pl-dot').length).toBeGreaterThan(0);
      const outlines = cls('pl-mark').map((e) => `${strokeOf(e)}|${e.getAttribute('stroke-width')}`);
      expect(outlines).toContain(`${col('--pl-selected')}|3.5`);
      expect(outlines).toContain(`${col('--pl-added')}|4`);
      expect(outlines).toContain(`${col('--pl-removed')}|2.5`);
      expect(outlines).toContain(`${col('--pl-match')}|3.5`);
      expect(cls('pl-callout').some((e) => e.textContent?.includes('"quoted" note'))).toBe(true);
      // a hostile name is text: no element made of it, the label reads as written
      expect(got.raw).not.toContain('<img');
      expect(cls('pl-label').some((e) => e.textContent?.startsWith('<img src=x'))).toBe(true);
      const bg = got.classes.get('pl-bg')![0];
      expect(fillOf(bg)).toBe(col('--pl-canvas'));
      expect(got.raw).not.toContain('var(');
      handle.destroy();
    });

  it('dark and light exports differ in the theme colours', async () => {
    const out: string[] = [];
    for (const theme of ['light', 'dark'] as const) {
      const { doc, keep } = docOf('run.json');
      const { handle, cv } = await scene(doc, theme, keep);
      out.push(cv.svgOfView());
      handle.destroy();
      HTMLCanvasElement.prototype.getContext = realGetContext;
    }
    const bg = (s: string) => /class="pl-bg"[^>]*fill="([^"]+)"/.exec(s)![1];
    expect(bg(out[0])).not.toBe(bg(out[1]));
  });

  it('writes colours and text as SVG readers take them', () => {
    expect(svgColor('hsl(120 72% 40%)')).toBe('#1daf1d');
    expect(svgColor('hsl(0 72% 40%)')).toBe('#af1d1d');
    expect(svgColor('#123456')).toBe('#123456');
    expect(xmlText(`<a href="x">'&'</a>\u0001`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;\ufffd');
  });
});
