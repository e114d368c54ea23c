// Drawing a scene's boxes and edges on a 2D canvas, in the SVG path's palette (the same `--pl-*` variables,
// read from the computed style) and geometry. Items come culled; fills and strokes are batched per style;
// text (fillText only: model text is never parsed) only at the detail level's zoom.
import { allFp32, BADGE_GAP, badgesOf, badgeWidth } from './badges';
import { NOTE_LINE, NOTE_PAD } from './callout';
import { bucket, type Detail } from './canvas-index';
import { truncate } from './dom';
import { type Curve, curveSegments, type EdgeItem, type SharedItem } from './edges';
import { type Box, groupLabel } from './hier-layout';
import { BADGE_COLOR } from './nodes';
import type { Scene } from './scene';
import { AGG_EDGE, FLOAT_EDGE, groupFill, INT_EDGE } from './styles';

/** Highlights a box can carry (the SVG path's pl-* classes). */
export type Mark = 'removed' | 'added' | 'match' | 'counterpart' | 'hover' | 'selected';

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
  sc: Scene;
  /** box key → its highlights */
  marks: Map<string, Set<Mark>>;
}

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

/** Fill (and at readable zoom stroke) boxes batched by colour. */
function batchBoxes(
  ctx: CanvasRenderingContext2D,
  P: Paint,
  boxes: Box[],
  style: (b: Box) => { fill: string | null; stroke: string; width: number; r: number },
): void {
  const fills = new Map<string, Path2D>();
  const strokes = new Map<string, Path2D>();
  for (const b of boxes) {
    const st = style(b);
    const x = b.x - b.w / 2;
    const y = b.y - b.h / 2;
    if (st.fill) {
      roundRect(
        bucket(fills, st.fill, () => new Path2D()),
        x,
        y,
        b.w,
        b.h,
        st.r,
        P.lod,
      );
    }
    if (P.lod.strokes || !st.fill) {
      const k = `${st.stroke}|${st.width}`;
      roundRect(
        bucket(strokes, k, () => new Path2D()),
        x,
        y,
        b.w,
        b.h,
        st.r,
        P.lod,
      );
    }
  }
  for (const [c, p] of fills) {
    ctx.fillStyle = P.col(c);
    ctx.fill(p);
  }
  for (const [k, p] of strokes) {
    const [c, w] = k.split('|');
    ctx.strokeStyle = P.col(c);
    ctx.lineWidth = Number(w);
    ctx.stroke(p);
  }
}

/** Open groups: a thin frame and, at readable zoom, the ⊟ title in the header. */
export function drawFrames(ctx: CanvasRenderingContext2D, P: Paint, boxes: Box[]): void {
  batchBoxes(ctx, P, boxes, () => ({ fill: null, stroke: v('border'), width: 1, r: 8 }));
  if (!P.lod.labels) return;
  ctx.font = `600 12px ${P.font}`;
  ctx.fillStyle = P.col(v('fg'));
  ctx.textAlign = 'left';
  for (const b of boxes) {
    const chars = Math.max(8, Math.floor((b.w - 30) / 6.6));
    ctx.fillText(`⊟ ${truncate(groupLabel(b.group!), chars)}`, b.x - b.w / 2 + 8, b.y - b.h / 2 + 15);
  }
}

/** Nodes and closed groups (with their badges), then their highlights. */
export function drawSolids(ctx: CanvasRenderingContext2D, P: Paint, boxes: Box[]): void {
  const f = P.sc.facts;
  batchBoxes(ctx, P, boxes, (b) => {
    if (b.kind === 'collapsed') {
      const sm = P.sc.summary?.get(b.group!.key);
      const fp32 = sm ? allFp32(sm) : false;
      return { fill: v('gfill'), stroke: fp32 ? v('warn') : v('gstroke'), width: fp32 ? 2 : 1.5, r: 6 };
    }
    const n = f.nodes.get(b.id!)!;
    const obs = n.role === 'observer' ? f.observerOf(n.id) : undefined;
    return {
      fill: obs ? groupFill(obs.group) : v(`${n.role}-fill`),
      stroke: v(`${n.role}-stroke`),
      width: 1.5,
      r: 6,
    };
  });
  drawHeat(ctx, P, boxes);
  drawMarks(ctx, P, boxes);
  if (P.lod.labels) drawTexts(ctx, P, boxes);
}

function drawHeat(ctx: CanvasRenderingContext2D, P: Paint, boxes: Box[]): void {
  const heat = P.sc.heat;
  if (!heat) return;
  const l = P.col(v('heat-l')) || '40%';
  for (const b of boxes) {
    if (b.kind !== 'node') continue;
    const h = heat.of(b.id!);
    if (!h) continue;
    const hue = /hsl\((\d+)/.exec(h.color)?.[1] ?? '0';
    ctx.fillStyle = `hsl(${hue} 72% ${l})`;
    ctx.beginPath();
    roundRect(ctx, b.x - b.w / 2, b.y - b.h / 2, 7, b.h, 3, P.lod);
    ctx.fill();
  }
}

/** The SVG stylesheet's highlight strokes, the later one winning as there. */
const MARK_STYLE: Record<Mark, { color: string; width: number; dash: number[] }> = {
  removed: { color: v('removed'), width: 2.5, dash: [5, 3] },
  added: { color: v('added'), width: 4, dash: [] },
  match: { color: v('match'), width: 3.5, dash: [] },
  counterpart: { color: v('selected'), width: 3, dash: [6, 3] },
  hover: { color: v('selected'), width: 3, dash: [6, 3] },
  selected: { color: v('selected'), width: 3.5, dash: [] },
};
const MARK_ORDER: Mark[] = ['removed', 'added', 'match', 'counterpart', 'hover', 'selected'];

export function markStroke(marks: Set<Mark> | undefined): { color: string; width: number; dash: number[] } | null {
  if (!marks?.size) return null;
  let st: (typeof MARK_STYLE)[Mark] | null = null;
  for (const m of MARK_ORDER) if (marks.has(m)) st = MARK_STYLE[m];
  return st;
}

function drawMarks(ctx: CanvasRenderingContext2D, P: Paint, boxes: Box[]): void {
  if (!P.marks.size) return;
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
  b: Box,
  st: { color: string; width: number; dash: number[] },
): void {
  ctx.strokeStyle = P.col(st.color);
  ctx.lineWidth = st.width;
  ctx.setLineDash(st.dash);
  ctx.beginPath();
  roundRect(ctx, b.x - b.w / 2, b.y - b.h / 2, b.w, b.h, 6, P.lod);
  ctx.stroke();
  ctx.setLineDash([]);
}

function drawTexts(ctx: CanvasRenderingContext2D, P: Paint, boxes: Box[]): void {
  const sc = P.sc;
  const f = sc.facts;
  ctx.textAlign = 'center';
  for (const b of boxes) {
    const x0 = b.x - b.w / 2;
    const y0 = b.y - b.h / 2;
    if (b.kind === 'collapsed') {
      drawGroupText(ctx, P, b, x0, y0);
      continue;
    }
    const n = f.nodes.get(b.id!)!;
    const obs = f.observerOf(n.id);
    const heat = sc.heat?.of(n.id);
    const cx = x0 + (heat ? b.w / 2 + 3 : b.w / 2);
    ctx.textAlign = 'center';
    ctx.font = `600 12px ${P.font}`;
    ctx.fillStyle = P.col(v(`${n.role}-text`));
    ctx.fillText(truncate(n.target, Math.max(6, Math.floor((b.w - 12) / 7))), cx, y0 + 17);
    if (P.lod.small) {
      ctx.font = `10px ${P.font}`;
      ctx.fillStyle = P.col(v('sub'));
      ctx.fillText(truncate(subLabel(P, n.id, obs?.group), Math.floor((b.w - 10) / 6)), cx, y0 + 31);
    }
    const a = f.annotation.get(n.id);
    if (a) {
      ctx.beginPath();
      ctx.arc(x0 + (heat ? 13 : 6), y0 + 6, 4, 0, 2 * Math.PI);
      ctx.fillStyle = P.col(v(a.annotated ? 'selected' : 'canvas'));
      ctx.fill();
      ctx.strokeStyle = P.col(v('selected'));
      ctx.lineWidth = 1.2;
      ctx.stroke();
      if (a.output && P.lod.small) {
        const bx = x0 + b.w - 28;
        const by = y0 + b.h - 4;
        ctx.fillStyle = P.col(f.specColor(a.output));
        ctx.beginPath();
        roundRect(ctx, bx, by, 24, 13, 3, P.lod);
        ctx.fill();
        ctx.font = `700 9px ${P.font}`;
        ctx.fillStyle = P.col(v('canvas'));
        ctx.fillText(truncate(a.output, 5), bx + 12, by + 10);
      }
    }
    if (b.note && P.lod.small) drawCallout(ctx, P, b);
  }
}

function subLabel(P: Paint, id: string, group?: number): string {
  const n = P.sc.facts.nodes.get(id)!;
  const t = P.sc.t;
  if (n.role === 'observer')
    return `${n.observer ?? ''}${group !== undefined ? ` · ${t('ui.group_n', { n: group })}` : ''}`;
  if (n.id !== n.target) return n.id;
  return n.shape ? n.shape.join('×') : t(`ui.role.${n.role}`);
}

function drawGroupText(ctx: CanvasRenderingContext2D, P: Paint, b: Box, x0: number, y0: number): void {
  const sc = P.sc;
  const grp = b.group!;
  ctx.textAlign = 'left';
  ctx.font = `600 12px ${P.font}`;
  ctx.fillStyle = P.col(v('fg'));
  const chars = Math.max(8, Math.floor((b.w - 30) / 6.6));
  ctx.fillText(`⊞ ${truncate(groupLabel(grp), chars)}`, x0 + 10, y0 + 18);
  if (!P.lod.small) return;
  ctx.font = `10px ${P.font}`;
  ctx.fillStyle = P.col(v('muted'));
  ctx.fillText(sc.t('ui.group.sub', { n: grp.total }), x0 + 10, y0 + 33);
  const sum = sc.summary?.get(grp.key);
  const bs = sum ? badgesOf(sum, sc.heat, sc.t) : [];
  let cx = x0 + 10;
  const cy = y0 + 40;
  ctx.font = `700 10px ${P.font}`;
  ctx.textAlign = 'center';
  for (const bd of bs) {
    const w = badgeWidth(bd);
    const c = P.col(BADGE_COLOR[bd.kind]);
    ctx.beginPath();
    roundRect(ctx, cx, cy, w, 15, 7, P.lod);
    ctx.fillStyle = P.col(v('canvas'));
    ctx.fill();
    ctx.strokeStyle = c;
    ctx.lineWidth = 1.3;
    ctx.stroke();
    ctx.fillStyle = c;
    ctx.fillText(bd.text, cx + w / 2, cy + 11);
    cx += w + BADGE_GAP;
  }
  ctx.textAlign = 'left';
}

function drawCallout(ctx: CanvasRenderingContext2D, P: Paint, b: Box): void {
  const c = b.note!;
  ctx.strokeStyle = P.col(v('warn'));
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(b.x + b.w / 2, b.y);
  ctx.lineTo(c.x, b.y);
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
    return bucket(batches, k, () => ({ color, width, alpha, dash, line: new Path2D(), heads: new Path2D() }));
  };
  const labels: Array<[number, number, string, string, string]> = [];
  for (const it of items) {
    if (it.kind === 'stub') {
      const b = batch(FLOAT_EDGE, 1.3);
      b.line.moveTo(it.x, it.y - 16);
      b.line.lineTo(it.x, it.y - 2);
      if (P.lod.strokes) arrow(b.heads, it.x, it.y - 16, it.x, it.y - 2);
      labels.push([it.x + 4, it.y - 9, truncate(it.src, 24), v('muted'), 'italic 10px']);
      continue;
    }
    const int = it.kind === 'edge' ? it.dtype !== null : it.int > 0;
    const color = it.kind === 'edge' ? it.color : int ? INT_EDGE : AGG_EDGE;
    const width = int ? 2.6 : it.kind === 'agg' ? 1.6 : it.spec ? 2.2 : 1.3;
    const b = batch(color, width, it.kind === 'edge' && it.faint ? 0.55 : 1);
    const [fx, fy, x, y] = trace(b.line, it.curve);
    if (P.lod.strokes) arrow(b.heads, fx, fy, x, y);
    const dtype = it.kind === 'edge' ? it.dtype : it.int ? it.dtype : null;
    if (dtype) labels.push([it.at[0], it.at[1], dtype, v('int'), '700 10px']);
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
    ctx.stroke(b.line);
    ctx.setLineDash([]);
    ctx.fillStyle = c;
    ctx.fill(b.heads);
  }
  ctx.globalAlpha = 1;
  if (!P.lod.small) return;
  ctx.textAlign = 'left';
  for (const [x, y, text, color, font] of labels) {
    ctx.font = `${font} ${P.font}`;
    ctx.fillStyle = P.col(color);
    ctx.fillText(text, x, y);
  }
}
