// Semantic zoom (issue 15 point 6): zoomed out, a group's title is drawn at a fixed on-screen size instead of
// shrinking with the drawing, on a plate over its box, so a closed group stays a labelled box at any zoom and the
// layers of a big graph can be read from the overview. A title is at least MIN_CHARS long, its plate reaching past
// a narrow box; a closed group's title that would so cover a closed neighbour (a decoder's embeddings side by side
// in a 280 px panel) is cut to its own box with an ellipsis (the box's tooltip has the whole name) instead of
// being hidden; a title reaching past its box over a node is cut to its box, or left out (issue 26 point 4); a
// title that would overlap one already placed is left out (closed groups first, then the larger groups). Pure: both painters (SVG in svg-zoom-labels.ts, canvas in
// canvas-view.ts) paint what this returns, in layout units, over a frame's boxes (frame.ts) and their texts.

import { BoxCover } from './box-cover';
import type { GroupModel } from './box-model';
import { bucket } from './canvas-index';
import type { FrameBox, FrameTexts } from './frame';
import { runSteps } from './slicer';
import { FONTS, type Font, fitText, textWidth } from './text-fit';

/** on-screen px of a group title while zoomed out */
export const ZOOM_LABEL_PX = 11;
/** layout px of a group's own title (box-model's 600 12px) */
const TITLE_PX = FONTS.label.size;
/** an open group's title keeps at least this many characters (`⊟ 12 · Block`), its plate wider than a narrow box */
const MIN_CHARS = 20;
/** a closed group's title keeps at least this many (`⊞ e…`): fewer say nothing */
const MIN_CLOSED_CHARS = 4;

export interface ZoomLabel {
  /** the group box's key */
  key: string;
  text: string;
  closed: boolean;
  /** font size in layout units (ZOOM_LABEL_PX on screen) */
  size: number;
  /** text baseline start */
  x: number;
  y: number;
  /** the plate behind the text */
  plate: { x: number; y: number; w: number; h: number };
}

/** Whether zoom `k` shrinks group titles below ZOOM_LABEL_PX: the zoom labels then replace them. */
export function zoomedOut(k: number): boolean {
  return TITLE_PX * k < ZOOM_LABEL_PX;
}

/** groups looked at between two chances to pause */
const STEP = 512;

/** A placed box as titles are placed over it (a frame's, or a placement's). */
type Box = Pick<FrameBox, 'key' | 'kind' | 'x' | 'y' | 'w' | 'h'> & { group?: { total: number } };

/** The group titles to draw at zoom `k` over `boxes` (any order; nodes are skipped) of a drawing `f.width` wide,
 * each box's title from `texts`; none when not zoomed out. */
export function zoomLabels(f: { width: number }, texts: FrameTexts, boxes: Iterable<Box>, k: number): ZoomLabel[] {
  return runSteps(zoomLabelSteps(f, texts, boxes, k));
}

/** zoomLabels, pausing (yielding) every STEP groups: a whole expanded 100k-node graph in view has 30k groups, too
 * many for one page task (canvas-view.ts runs this in its full draw's slices). */
export function* zoomLabelSteps(
  f: { width: number },
  texts: FrameTexts,
  boxes: Iterable<Box>,
  k: number,
): Generator<void, ZoomLabel[]> {
  if (!zoomedOut(k) || k <= 0) return [];
  const size = ZOOM_LABEL_PX / k;
  const pad = size * 0.25;
  const groups: Array<[Box, GroupModel]> = [];
  let n = 0;
  const nodes: Box[] = [];
  for (const b of boxes) {
    if (b.kind !== 'node') groups.push([b, texts.box(b.key) as GroupModel]);
    else nodes.push(b);
    if (++n % STEP === 0) yield;
  }
  // closed groups first (they hide what they hold), then the groups that hold more
  groups.sort(
    ([a, ma], [b, mb]) =>
      Number(mb.kind === 'collapsed') - Number(ma.kind === 'collapsed') || b.group!.total - a.group!.total,
  );
  const out: ZoomLabel[] = [];
  const cell = size * 8;
  type Rect = ZoomLabel['plate'] & { key?: string };
  const cells = (r: Rect): string[] => {
    const keys: string[] = [];
    for (let i = Math.floor(r.x / cell); i <= Math.floor((r.x + r.w) / cell); i++)
      for (let j = Math.floor(r.y / cell); j <= Math.floor((r.y + r.h) / cell); j++) keys.push(`${i},${j}`);
    return keys;
  };
  const grid = new Map<string, Rect[]>();
  /** the closed boxes: a title reaching past its own box must not cover a neighbour's */
  const closedBoxes = new Map<string, Rect[]>();
  const hits = (g: Map<string, Rect[]>, r: Rect, self?: string): boolean =>
    cells(r).some((c) =>
      (g.get(c) ?? []).some(
        (o) =>
          (self === undefined || o.key !== self) &&
          r.x < o.x + o.w &&
          o.x < r.x + r.w &&
          r.y < o.y + o.h &&
          o.y < r.y + r.h,
      ),
    );
  const rectOf = (b: Box): Rect => ({ x: b.x - b.w / 2, y: b.y - b.h / 2, w: b.w, h: b.h, key: b.key });
  for (const [b, m] of groups)
    if (m.kind === 'collapsed') for (const c of cells(rectOf(b))) bucket(closedBoxes, c, () => []).push(rectOf(b));
  /** the nodes: no title reaching past its own box may cover one (issue 26 point 4); a grid of their own, not the
   * titles' (whose cells, zoomed out, hold thousands of nodes each: 4–6 s for a fitted 100k graph) */
  const nodeBoxes = new BoxCover(nodes.map(rectOf));
  yield;
  /** the parts of `plate` left and right of box `b` (a title wider than its box) */
  const spill = (plate: Rect, b: Box): Rect[] => {
    const l = b.x - b.w / 2;
    const r = b.x + b.w / 2;
    const out: Rect[] = [];
    if (plate.x < l) out.push({ ...plate, w: l - plate.x });
    if (plate.x + plate.w > r) out.push({ ...plate, x: r, w: plate.x + plate.w - r });
    return out;
  };
  const h = size * 1.3;
  const font: Font = { ...FONTS.label, size };
  /** the width of `label`'s first `n` characters and `…`: the least room a title gets */
  const least = (label: string, n: number): number => textWidth(`${label.slice(0, n - 1)}…`, font);
  /** the title of box `b` cut (…) to `room` by measured width, on a plate of its width plus padding */
  const plateOf = (b: Box, m: GroupModel, closed: boolean, room: number) => {
    const text = fitText(m.label, font, room);
    const w = textWidth(text, font) + 2 * pad;
    // on the box's top edge; a closed box shorter than the text has its plate centred on it
    const top = closed && b.h < h ? b.y - h / 2 : b.y - b.h / 2;
    // a plate wider than its box is centred on it, kept within the drawing (Fit shows no more than that)
    const left = w > b.w ? Math.max(0, Math.min(b.x - w / 2, f.width - w)) : b.x - b.w / 2;
    return { text, plate: { x: left, y: top, w, h } };
  };
  yield;
  for (const [b, m] of groups) {
    if (++n % STEP === 0) yield;
    const closed = m.kind === 'collapsed';
    // as wide as the box, but never fewer than MIN_CHARS characters (a narrow box's plate reaches past it) ...
    const inside = b.w - 2 * pad;
    let p = plateOf(b, m, closed, Math.max(inside, least(m.label, MIN_CHARS)));
    // ... except where that covers a closed neighbour (side-by-side embeddings): a closed group's title is then
    // cut to its own box (…) rather than left out
    // (only its spill at the side counts: a title taller than a short box also reaches the boxes above and below)
    const top = Math.max(p.plate.y, b.y - b.h / 2);
    const side = { ...p.plate, y: top, h: Math.max(0, Math.min(p.plate.y + h, b.y + b.h / 2) - top) };
    if (closed && (hits(grid, p.plate) || hits(closedBoxes, side, b.key)))
      p = plateOf(b, m, closed, Math.max(inside, least(m.label, MIN_CLOSED_CHARS)));
    // a title reaching past its box over a node is cut to the box (…), or left out when even that reaches past
    if (spill(p.plate, b).some((r) => nodeBoxes.meets(r))) {
      p = plateOf(b, m, closed, inside);
      if (spill(p.plate, b).some((r) => nodeBoxes.meets(r))) continue;
    }
    if (hits(grid, p.plate)) continue;
    for (const c of cells(p.plate)) bucket(grid, c, () => []).push(p.plate);
    out.push({
      key: b.key,
      text: p.text,
      closed,
      size,
      x: p.plate.x + pad,
      y: p.plate.y + size * 1.02,
      plate: p.plate,
    });
  }
  return out;
}
