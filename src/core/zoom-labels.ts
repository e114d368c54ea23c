// Semantic zoom (issue 15 point 6): zoomed out, a group's title is drawn at a fixed on-screen size instead of
// shrinking with the drawing, on a plate over its box, so a closed group stays a labelled box at any zoom and the
// layers of a big graph can be read from the overview. A closed group's title stays inside its box, shortened
// with an ellipsis (the box's tooltip has the whole name), so side-by-side closed groups (a decoder's embeddings
// in a 280 px panel) each keep theirs; an open group's title that would overlap a title already placed is left
// out (closed groups first, then the larger groups). Pure: both painters (SVG in graph-view.ts, canvas in
// canvas-view.ts) paint what this returns, in layout units.
import { boxModel, type GroupModel } from './box-model';
import { bucket } from './canvas-index';
import { truncate } from './dom';
import type { Box } from './hier-layout';
import type { Scene } from './scene';

/** on-screen px of a group title while zoomed out */
export const ZOOM_LABEL_PX = 11;
/** layout px of a group's own title (box-model's 600 12px) */
const TITLE_PX = 12;
/** average glyph width of the title font, per px of font size */
const GLYPH = 0.62;
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

/** The group titles to draw at zoom `k` over `boxes` (any order; nodes are skipped); none when not zoomed out. */
export function zoomLabels(sc: Scene, boxes: Iterable<Box>, k: number): ZoomLabel[] {
  if (!zoomedOut(k) || k <= 0) return [];
  const size = ZOOM_LABEL_PX / k;
  const pad = size * 0.25;
  const groups: Array<[Box, GroupModel]> = [];
  for (const b of boxes) if (b.kind !== 'node') groups.push([b, boxModel(sc, b) as GroupModel]);
  // closed groups first (they hide what they hold), then the groups that hold more
  groups.sort(
    ([a, ma], [b, mb]) =>
      Number(mb.kind === 'collapsed') - Number(ma.kind === 'collapsed') || b.group!.total - a.group!.total,
  );
  const out: ZoomLabel[] = [];
  const grid = new Map<string, ZoomLabel['plate'][]>();
  const cell = size * 8;
  const cells = (r: ZoomLabel['plate']): string[] => {
    const keys: string[] = [];
    for (let i = Math.floor(r.x / cell); i <= Math.floor((r.x + r.w) / cell); i++)
      for (let j = Math.floor(r.y / cell); j <= Math.floor((r.y + r.h) / cell); j++) keys.push(`${i},${j}`);
    return keys;
  };
  const hits = (r: ZoomLabel['plate']): boolean =>
    cells(r).some((c) =>
      (grid.get(c) ?? []).some((o) => r.x < o.x + o.w && o.x < r.x + r.w && r.y < o.y + o.h && o.y < r.y + r.h),
    );
  for (const [b, m] of groups) {
    const closed = m.kind === 'collapsed';
    // as wide as the box; an open group's never fewer than MIN_CHARS characters (its plate reaches past a narrow
    // box), a closed group's cut to its box (closed boxes never overlap, so neither do their titles)
    const fit = Math.floor((b.w - 2 * pad) / (size * GLYPH));
    const chars = Math.max(closed ? MIN_CLOSED_CHARS : MIN_CHARS, fit);
    const text = truncate(m.label, chars);
    const most = closed
      ? Math.max(b.w - 2 * pad, MIN_CLOSED_CHARS * size * GLYPH)
      : Math.max(b.w, MIN_CHARS * size * GLYPH);
    const w = Math.min(text.length * size * GLYPH, most) + 2 * pad;
    const h = size * 1.3;
    const x0 = b.x - b.w / 2;
    const y0 = b.y - b.h / 2;
    // on the box's top edge; a closed box shorter than the text has its plate centred on it
    const top = closed && b.h < h ? b.y - h / 2 : y0;
    // a plate wider than its box is centred on it
    const left = w > b.w ? b.x - w / 2 : x0;
    const plate = { x: left, y: top, w, h };
    if (hits(plate)) continue;
    for (const c of cells(plate)) bucket(grid, c, () => []).push(plate);
    out.push({ key: b.key, text, closed, size, x: left + pad, y: top + size * 1.02, plate });
  }
  return out;
}
