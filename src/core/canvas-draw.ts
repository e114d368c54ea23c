// Drawing a frame's boxes and edges (frame.ts) on a 2D canvas, in the SVG path's palette (the same `--pl-*`
// variables, read from the computed style) and geometry. What a box shows is its box model (box-model.ts), as on
// SVG; this file only paints it. Items come culled; fills and strokes are batched per style; text (fillText only:
// model text is never parsed) only at the detail level's zoom.
import { type Chip, type Fill, type GroupModel, HEAT_BAR_W, LABEL_Y, type NodeModel, SUB_Y } from './box-model';
import { NOTE_LINE, NOTE_PAD } from './callout';
import { bucket, type Detail } from './canvas-index';
import { type Curve, curveSegments, type EdgeItem, type SharedItem } from './edges';
import type { Frame, FrameBox, FrameTexts } from './frame';
import { heatFill } from './heat';
import { type Mark, type MarkStroke, markStroke } from './marks';
import { flipShift, leftFree, noteSide, type Span } from './note-side';
import { canvasFont, FONTS } from './text-fit';
import type { ZoomLabel } from './zoom-labels';

/** `var(--pl-x)` → the colour it resolves to under `el` (read once per paint). */
export function colorResolver(el: Element): (v: string) => string {
  const cs = el.ownerDocument.defaultView!.getComputedStyle(el);
  const cache = new Map<string, string>();
  return (v) => {
    let c = cache.get(v);
    if (c !== undefined) return c;
    const m = /^var\((--[\w-]+)\)$/.exec(v);
    c = m ? cs.getPropertyValue(m[1]).trim() || '#888888' : v;
    cache.set(v, c);
    return c;
  };
}

export interface Paint {
  col: (v: string) => string;
  font: string;
  lod: Detail;
  frame: Frame;
  /** the frame's box texts (asked for the boxes lettered: in view, at a readable zoom) */
  texts: FrameTexts;
  /** box key → its highlights */
  marks: Map<string, Set<Mark>>;
  /** heat fills of this paint by goodness (the theme's stops, resolved once) */
  heatFills?: Map<number, string>;
  /** zoomed out: group titles are drawn by drawZoomLabels, not in their boxes */
  zoomed?: boolean;
  /** a path to fill or stroke later (default `new Path2D()`; the SVG export records instead: svg-context.ts) */
  path?: () => Path2D;
  /** the drawing's x range on show (layout units): a note cut at its right shows at its node's left (note-side.ts) */
  shown?: Span;
  /** what the next calls paint (`pl-arrow`, `pl-chip`, …): the SVG export's classes; the screen ignores it */
  tag?: (what: string) => void;
}

const newPath = (P: Paint): Path2D => (P.path ? P.path() : new Path2D());

const v = (name: string): string => `var(--pl-${name})`;

function roundRect(
  p: Path2D | CanvasRenderingContext2D,
  x: number,
  y: number,
  w: number,
  h: number,
  r: number,
  lod: Detail,
): void {
  if (lod.strokes && typeof p.roundRect === 'function') p.roundRect(x, y, w, h, r);
  else p.rect(x, y, w, h);
}

/** A model's fill as a colour this paint can use: a heat fill on the current theme's stops (as the stylesheet's
 * pl-heated rule picks the light or dark one). */
function fillColor(P: Paint, f: Fill): string | null {
  if (f.kind === 'none') return null;
  if (f.kind !== 'heat') return f.color;
  P.heatFills ??= new Map();
  let c = P.heatFills.get(f.goodness);
  if (c === undefined) {
    const stops = [0, 1, 2].map((i) => P.col(v(`heat-${i}`))) as [string, string, string];
    c = stops.every((x) => /^#[0-9a-f]{6}$/i.test(x)) ? heatFill(stops, f.goodness) : f.light;
    P.heatFills.set(f.goodness, c);
  }
  return c;
}

/** Fill (and at readable zoom stroke) boxes batched by colour. */
function batchBoxes(
  ctx: CanvasRenderingContext2D,
  P: Paint,
  boxes: FrameBox[],
  what: string,
  style: (b: FrameBox) => { fill: string | null; stroke: string; width: number; r: number },
): void {
  const fills = new Map<string, Path2D>();
  // a path per stroke colour and width, looked up without a key string per box (100k boxes: that many strings
  // for the young GC) and stroked in the order first met, as one map of "colour|width" would
  const strokes = new Map<string, Map<number, Path2D>>();
  const order: Array<[string, number, Path2D]> = [];
  for (const b of boxes) {
    const st = style(b);
    const x = b.x - b.w / 2;
    const y = b.y - b.h / 2;
    if (st.fill) {
      let p = fills.get(st.fill);
      if (p === undefined) {
        p = newPath(P);
        fills.set(st.fill, p);
      }
      roundRect(p, x, y, b.w, b.h, st.r, P.lod);
    }
    if (P.lod.strokes || !st.fill) {
      let byWidth = strokes.get(st.stroke);
      if (byWidth === undefined) {
        byWidth = new Map();
        strokes.set(st.stroke, byWidth);
      }
      let p = byWidth.get(st.width);
      if (p === undefined) {
        p = newPath(P);
        byWidth.set(st.width, p);
        order.push([st.stroke, st.width, p]);
      }
      roundRect(p, x, y, b.w, b.h, st.r, P.lod);
    }
  }
  P.tag?.(what);
  for (const [c, p] of fills) {
    ctx.fillStyle = P.col(c);
    ctx.fill(p);
  }
  for (const [c, w, p] of order) {
    ctx.strokeStyle = P.col(c);
    ctx.lineWidth = w;
    ctx.stroke(p);
  }
}

/** Open groups: a thin frame and, at readable zoom, the ⊟ title in the header. */
export function drawFrames(ctx: CanvasRenderingContext2D, P: Paint, boxes: FrameBox[]): void {
  batchBoxes(ctx, P, boxes, 'pl-frame', (b) => {
    const l = b.look;
    return { fill: null, stroke: l.stroke.color, width: l.stroke.width, r: l.radius };
  });
  if (!P.lod.labels || P.zoomed) return;
  P.tag?.('pl-title');
  ctx.font = canvasFont(FONTS.label, P.font);
  ctx.fillStyle = P.col(v('fg'));
  ctx.textAlign = 'left';
  for (const b of boxes) {
    const m = P.texts.box(b.key) as GroupModel;
    ctx.fillText(m.label, b.x - b.w / 2 + m.labelX, b.y - b.h / 2 + m.labelY);
  }
}

/** Nodes and closed groups (with their badges, heat bars and pills), then their highlights. */
export function drawSolids(ctx: CanvasRenderingContext2D, P: Paint, boxes: FrameBox[]): void {
  batchBoxes(ctx, P, boxes, 'pl-box', (b) => {
    const l = b.look;
    return { fill: fillColor(P, l.fill), stroke: l.stroke.color, width: l.stroke.width, r: l.radius };
  });
  drawHeat(ctx, P, boxes);
  drawMarks(ctx, P, boxes);
  if (P.lod.labels) drawTexts(ctx, P, boxes);
}

function drawHeat(ctx: CanvasRenderingContext2D, P: Paint, boxes: FrameBox[]): void {
  if (!P.frame.heat) return;
  const l = P.col(v('heat-l')) || '40%';
  P.tag?.('pl-heat');
  for (const b of boxes) {
    const f = b.look.fill;
    if (f.kind !== 'heat') continue;
    // the bar: heatColor's hue at the theme's lightness (as the SVG's .pl-heat)
    ctx.fillStyle = `hsl(${Math.round(f.goodness * 120)} 72% ${l})`;
    ctx.beginPath();
    roundRect(ctx, b.x - b.w / 2, b.y - b.h / 2, HEAT_BAR_W, b.h, 3, P.lod);
    ctx.fill();
  }
}

function drawMarks(ctx: CanvasRenderingContext2D, P: Paint, boxes: FrameBox[]): void {
  if (!P.marks.size) return;
  P.tag?.('pl-mark');
  for (const b of boxes) {
    const st = markStroke(P.marks.get(b.key));
    if (!st) continue;
    outline(ctx, P, b, st);
  }
  ctx.setLineDash([]);
}

/** One highlighted outline (also the hover drawn over the cached raster). */
export function outline(
  ctx: CanvasRenderingContext2D,
  P: Pick<Paint, 'col' | 'lod'>,
  b: Pick<FrameBox, 'x' | 'y' | 'w' | 'h'>,
  st: MarkStroke,
): void {
  ctx.strokeStyle = P.col(st.color);
  ctx.lineWidth = st.width;
  ctx.setLineDash(st.dash);
  ctx.beginPath();
  roundRect(ctx, b.x - b.w / 2, b.y - b.h / 2, b.w, b.h, 6, P.lod);
  ctx.stroke();
  ctx.setLineDash([]);
}

function drawTexts(ctx: CanvasRenderingContext2D, P: Paint, boxes: FrameBox[]): void {
  for (const b of boxes) {
    const m = P.texts.box(b.key);
    const x0 = b.x - b.w / 2;
    const y0 = b.y - b.h / 2;
    if (m.kind === 'node') drawNodeText(ctx, P, b, m, x0, y0);
    else drawGroupText(ctx, P, m, x0, y0);
  }
}

/** A filled chip with centred text (spec badge, outcome pill). */
function chip(
  ctx: CanvasRenderingContext2D,
  P: Paint,
  c: { x: number; y: number; w: number; h: number; color: string; text: string },
  x0: number,
  y0: number,
  ty: number,
): void {
  P.tag?.('pl-chip');
  ctx.fillStyle = P.col(c.color);
  ctx.beginPath();
  roundRect(ctx, x0 + c.x, y0 + c.y, c.w, c.h, 3, P.lod);
  ctx.fill();
  ctx.font = canvasFont(FONTS.chip, P.font);
  ctx.fillStyle = P.col(v('canvas'));
  ctx.fillText(c.text, x0 + c.x + c.w / 2, y0 + c.y + ty);
}

function drawNodeText(
  ctx: CanvasRenderingContext2D,
  P: Paint,
  b: FrameBox,
  m: NodeModel,
  x0: number,
  y0: number,
): void {
  P.tag?.('pl-label');
  ctx.textAlign = 'center';
  ctx.font = canvasFont(FONTS.label, P.font);
  ctx.fillStyle = P.col(v(`${m.role}-text`));
  ctx.fillText(m.label, x0 + m.textX, y0 + LABEL_Y);
  if (P.lod.small) {
    P.tag?.('pl-sub');
    ctx.font = canvasFont(FONTS.sub, P.font);
    ctx.fillStyle = P.col(v('sub'));
    ctx.fillText(m.sub, x0 + m.textX, y0 + SUB_Y);
  }
  const a = m.annotation;
  if (a) {
    P.tag?.('pl-dot');
    ctx.beginPath();
    ctx.arc(x0 + a.x, y0 + a.y, a.r, 0, 2 * Math.PI);
    ctx.fillStyle = P.col(v(a.on ? 'selected' : 'canvas'));
    ctx.fill();
    ctx.strokeStyle = P.col(v('selected'));
    ctx.lineWidth = 1.2;
    ctx.stroke();
  }
  if (!P.lod.small) return;
  if (m.spec) chip(ctx, P, m.spec, x0, y0, 10);
  if (m.outcome) chip(ctx, P, m.outcome, x0, y0, 9);
  if (m.groupChip) {
    P.tag?.('pl-gchip');
    ctx.font = canvasFont(FONTS.chip, P.font);
    framedChip(ctx, P, m.groupChip, x0, y0, 6, 9);
  }
  if (m.note) drawCallout(ctx, P, b);
}

function drawGroupText(ctx: CanvasRenderingContext2D, P: Paint, m: GroupModel, x0: number, y0: number): void {
  P.tag?.('pl-label');
  ctx.textAlign = 'left';
  ctx.font = canvasFont(FONTS.label, P.font);
  ctx.fillStyle = P.col(v('fg'));
  if (!P.zoomed) ctx.fillText(m.label, x0 + m.labelX, y0 + m.labelY);
  if (!P.lod.small) return;
  P.tag?.('pl-sub');
  ctx.font = canvasFont(FONTS.sub, P.font);
  ctx.fillStyle = P.col(v('muted'));
  if (m.sub) ctx.fillText(m.sub, x0 + m.labelX, y0 + 33);
  ctx.font = canvasFont(FONTS.badge, P.font);
  ctx.textAlign = 'center';
  P.tag?.('pl-badge');
  for (const bd of m.badges) framedChip(ctx, P, bd, x0, y0, 7, 11);
  ctx.textAlign = 'left';
}

/** A chip framed and lettered in its colour on the canvas colour (group badge, sharing-group number). */
function framedChip(
  ctx: CanvasRenderingContext2D,
  P: Paint,
  c: Chip,
  x0: number,
  y0: number,
  r: number,
  ty: number,
): void {
  const col = P.col(c.color);
  ctx.beginPath();
  roundRect(ctx, x0 + c.x, y0 + c.y, c.w, c.h, r, P.lod);
  ctx.fillStyle = P.col(v('canvas'));
  ctx.fill();
  ctx.strokeStyle = col;
  ctx.lineWidth = 1.3;
  ctx.stroke();
  ctx.fillStyle = col;
  ctx.fillText(c.text, x0 + c.x + c.w / 2, y0 + c.y + ty);
}

function drawCallout(ctx: CanvasRenderingContext2D, P: Paint, b: FrameBox): void {
  const left = P.shown && noteSide(b, P.shown, leftFree(P.frame).has(b.key)) === 'left';
  const c = left ? { ...b.note!, x: b.note!.x + flipShift(b) } : b.note!;
  P.tag?.('pl-callout');
  ctx.strokeStyle = P.col(v('warn'));
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(left ? b.x - b.w / 2 : b.x + b.w / 2, b.y);
  ctx.lineTo(left ? c.x + c.w : c.x, b.y);
  ctx.stroke();
  ctx.beginPath();
  roundRect(ctx, c.x, c.y, c.w, c.h, 4, P.lod);
  ctx.fillStyle = P.col(v('note-bg'));
  ctx.fill();
  ctx.stroke();
  ctx.font = `11px ${P.font}`;
  ctx.fillStyle = P.col(v('fg'));
  ctx.textAlign = 'left';
  c.lines.forEach((line, i) => {
    ctx.fillText(line, c.x + NOTE_PAD, c.y + NOTE_PAD + 11 + i * NOTE_LINE);
  });
  ctx.textAlign = 'center';
}

// ---- edges --------------------------------------------------------------------------------------

function trace(p: Path2D, c: Curve): [number, number, number, number] {
  if (c.kind === 'cubic') {
    p.moveTo(c.sx, c.sy);
    p.bezierCurveTo(c.sx, c.sy + c.dy, c.tx, c.ty - c.dy, c.tx, c.ty);
    return [c.tx, c.ty - c.dy, c.tx, c.ty];
  }
  const { start, quads } = curveSegments(c);
  p.moveTo(start[0], start[1]);
  let last: [number, number, number, number] = [start[0], start[1], start[0], start[1]];
  for (const [x, y, ex, ey] of quads) {
    p.quadraticCurveTo(x, y, ex, ey);
    last = [x, y, ex, ey];
  }
  return last;
}

/** An arrowhead (8 units, as the SVG marker) whose tip sits at (x, y), pointing from (fx, fy). */
function arrow(p: Path2D, fx: number, fy: number, x: number, y: number): void {
  const a = Math.atan2(y - fy, x - fx);
  const ux = Math.cos(a);
  const uy = Math.sin(a);
  const bx = x - ux * 7.2;
  const by = y - uy * 7.2;
  p.moveTo(x + ux * 0.8, y + uy * 0.8);
  p.lineTo(bx - uy * 4, by + ux * 4);
  p.lineTo(bx + uy * 4, by - ux * 4);
  p.closePath();
}

interface Batch {
  color: string;
  width: number;
  alpha: number;
  dash: number[];
  line: Path2D;
  heads: Path2D;
}

/** Edges batched by style (one stroke per colour/width), arrowheads at readable zoom, int labels at text zoom. */
export function drawEdgeItems(
  ctx: CanvasRenderingContext2D,
  P: Paint,
  items: EdgeItem[],
  shared: SharedItem[] = [],
): void {
  const batches = new Map<string, Batch>();
  const batch = (color: string, width: number, alpha = 1, dash: number[] = []): Batch => {
    const k = `${color}|${width}|${alpha}|${dash.join(',')}`;
    return bucket(batches, k, () => ({ color, width, alpha, dash, line: newPath(P), heads: newPath(P) }));
  };
  const labels: Array<[number, number, string, string, string]> = [];
  for (const it of items) {
    const look = it.look;
    if (it.kind === 'stub') {
      const b = batch(look.color, look.width);
      const [x0, y0, x1, y1] = it.line;
      b.line.moveTo(x0, y0);
      b.line.lineTo(x1, y1);
      if (P.lod.strokes) arrow(b.heads, x0, y0, x1, y1);
      labels.push([it.labelAt[0], it.labelAt[1], it.label, v('muted'), 'italic 10px']);
      continue;
    }
    const b = batch(look.color, look.width, look.alpha);
    const [fx, fy, x, y] = trace(b.line, it.curve);
    if (P.lod.strokes) arrow(b.heads, fx, fy, x, y);
    if (look.label) labels.push([it.at[0], it.at[1], look.label, v('int'), '700 10px']);
  }
  for (const s of shared) {
    const b = batch(s.color, 1.5, 1, [4, 3]);
    b.line.moveTo(s.p0[0], s.p0[1]);
    b.line.quadraticCurveTo(s.c[0], s.c[1], s.p1[0], s.p1[1]);
    if (P.lod.strokes) arrow(b.heads, s.c[0], s.c[1], s.p1[0], s.p1[1]);
  }
  for (const b of batches.values()) {
    const c = P.col(b.color);
    ctx.globalAlpha = b.alpha;
    ctx.strokeStyle = c;
    ctx.lineWidth = b.width;
    ctx.setLineDash(b.dash);
    P.tag?.('pl-edge');
    ctx.stroke(b.line);
    ctx.setLineDash([]);
    ctx.fillStyle = c;
    P.tag?.('pl-arrow');
    ctx.fill(b.heads);
  }
  ctx.globalAlpha = 1;
  if (!P.lod.small) return;
  ctx.textAlign = 'left';
  P.tag?.('pl-edge-label');
  for (const [x, y, text, color, font] of labels) {
    ctx.font = `${font} ${P.font}`;
    ctx.fillStyle = P.col(color);
    ctx.fillText(text, x, y);
  }
}

/** Zoomed out: group titles at a readable on-screen size, each on a plate (zoom-labels.ts). */
export function drawZoomLabels(ctx: CanvasRenderingContext2D, P: Paint, labels: ZoomLabel[]): void {
  if (!labels.length) return;
  P.tag?.('pl-zoom-label');
  ctx.textAlign = 'left';
  ctx.lineWidth = labels[0].size * 0.08;
  for (const l of labels) {
    const r = l.plate;
    ctx.beginPath();
    ctx.rect(r.x, r.y, r.w, r.h);
    ctx.fillStyle = P.col(v(l.closed ? 'gfill' : 'canvas'));
    ctx.fill();
    ctx.strokeStyle = P.col(v(l.closed ? 'gstroke' : 'border'));
    ctx.stroke();
  }
  ctx.font = canvasFont({ ...FONTS.label, size: labels[0].size }, P.font);
  ctx.fillStyle = P.col(v('fg'));
  for (const l of labels) ctx.fillText(l.text, l.x, l.y);
}

/** What a full draw paints, in paint order; the items culled to the drawn area. */
export interface DrawList {
  frames: FrameBox[];
  /** null: zoomed too far out for edges */
  edges: EdgeItem[] | null;
  shared: SharedItem[];
  solids: FrameBox[];
  /** zoomed out: the group titles on plates (computed in their own job: at 100k boxes that takes a while) */
  zoomLabels: (() => ZoomLabel[]) | null;
}

/** A full draw as jobs, in paint order (open frames, edges, sharing arcs, solids, zoomed-out titles): the screen
 * runs them in slices, the SVG export at once. */
export function drawJobs(ctx: CanvasRenderingContext2D, P: Paint, d: DrawList): Array<() => void> {
  const jobs: Array<() => void> = [];
  const slices = <T>(xs: T[], n: number, f: (part: T[]) => void): void => {
    for (let i = 0; i < xs.length; i += n) jobs.push(() => f(xs.slice(i, i + n)));
  };
  slices(d.frames, 2000, (p) => drawFrames(ctx, P, p));
  if (d.edges) {
    slices(d.edges, 2500, (p) => drawEdgeItems(ctx, P, p));
    if (d.shared.length) jobs.push(() => drawEdgeItems(ctx, P, [], d.shared));
  }
  slices(d.solids, P.lod.labels ? 400 : 2500, (p) => drawSolids(ctx, P, p));
  const z = d.zoomLabels;
  if (z) jobs.push(() => drawZoomLabels(ctx, P, z()));
  return jobs;
}
