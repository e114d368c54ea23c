// What each box of a pane shows, whichever renderer paints it: label and second line, tooltip lines, what its
// fill and frame mean (role, sharing group, overlay heat), the annotation dot, output-spec badge, backend
// outcome pill, a closed group's badges, and the highlights (marks) of the view's state. Pure: from the scene
// (facts, placement, overlay, words) only. A frame (frame.ts) carries each box's look; its texts (this model, the
// tooltip) are asked for by key. nodes.ts (SVG) and canvas-draw.ts (canvas) paint this and nothing else, so the
// two renderers cannot drift apart. Positions are in layout units from the box's top-left corner.
// Every text is cut (…) here, once, to the width it is drawn in by measured glyph widths (text-fit.ts): a label,
// second line, chip or title never runs past its box; the tooltip and the drawer keep the whole text.
import { outcomeOf, outcomePill, outcomeText } from './backend';
import { allFp32, BADGE_COLOR, BADGE_GAP, type Badge, badgesOf, type Summary } from './badges';
import { bucket } from './canvas-index';
import { fmtNums } from './dom';
import { isGroupKey, nodeKey } from './groups';
import { type Box, groupLabel } from './hier-layout';
import type { Mark } from './marks';
import type { Scene } from './scene';
import { groupFill } from './styles';
import { FONTS, type Font, fitText, textWidth } from './text-fit';
import type { BackendOutcome, GraphNode, Id, Role } from './types';

/** What a box's fill says. `color` is a colour or `var(--pl-*)`; a heat fill has one per theme. */
export type Fill =
  | { kind: 'role'; role: Role; color: string }
  | { kind: 'sharing'; group: number; color: string }
  | { kind: 'heat'; goodness: number; light: string; dark: string }
  | { kind: 'group'; color: string }
  | { kind: 'none' };

export interface Stroke {
  color: string;
  width: number;
}

/** A small filled or framed label on a box (spec badge, outcome pill, group badge). */
export interface Chip {
  text: string;
  /** fill (spec badge, pill) or frame and text (group badge) colour */
  color: string;
  title: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The overlay's bar along a node's left edge (hue on the theme's lightness `--pl-heat-l`). */
export interface HeatBar {
  hue: number;
  /** the bar at a fixed lightness (for an export without the stylesheet) */
  color: string;
  /** `SQNR: 31.20 dB` */
  text: string;
  /** the overlay's value as the JSON wrote it */
  value: unknown;
  w: number;
}

export interface NodeModel {
  kind: 'node';
  key: string;
  id: Id;
  role: Role;
  label: string;
  sub: string;
  /** centre of both text lines (clears the heat bar) */
  textX: number;
  fill: Fill;
  stroke: Stroke;
  heat: HeatBar | null;
  /** the annotation dot: filled when `_annotated` is true */
  annotation: { on: boolean; x: number; y: number; r: number; title: string } | null;
  spec: (Chip & { spec: string }) | null;
  outcome: (Chip & { outcome: BackendOutcome['outcome'] }) | null;
  /** an observer's sharing-group number, framed on its top edge: the fills repeat after the palette's twelve
   * (GROUP_COLORS), the number never does, and it stays whole where the second line is cut */
  groupChip: (Chip & { group: number }) | null;
  /** the node has a laid-out note callout (box.note) */
  note: boolean;
}

export interface GroupModel {
  kind: 'collapsed' | 'expanded';
  key: string;
  /** the group's key in the hierarchy */
  group: string;
  /** how many nodes it holds (all depths) */
  total: number;
  /** `⊞ label` (closed) or `⊟ label` (open) */
  label: string;
  labelX: number;
  labelY: number;
  /** a closed group's `n nodes — click to open` */
  sub: string | null;
  fill: Fill;
  stroke: Stroke;
  radius: number;
  badges: Array<Chip & { kind: Badge['kind'] }>;
  summary: Summary | null;
  /** closed, compute inside, none of it annotated on a quantized stage */
  allFp32: boolean;
}

export type BoxModel = NodeModel | GroupModel;

export const LABEL_Y = 17;
export const SUB_Y = 31;
export const NODE_RADIUS = 6;
export const HEAT_BAR_W = 7;
export const BADGE_ROW_Y = 40;
export const BADGE_H = 15;
/** height a closed group's badge row adds to its box */
export const BADGE_ROW_H = 18;

/** Second line of a node: its id when the label is the short target, else what else identifies it. */
export function subLabel(sc: Scene, n: GraphNode, group?: number): string {
  if (n.role === 'observer')
    return `${n.observer ?? ''}${group !== undefined ? ` · ${sc.t('ui.group_n', { n: group })}` : ''}`;
  if (n.id !== n.target) return n.id;
  return n.shape ? n.shape.join('×') : sc.t(`ui.role.${n.role}`);
}

export function nodeModel(sc: Scene, b: Box): NodeModel {
  const f = sc.facts;
  const n = f.nodes.get(b.id!)!;
  const obs = f.observerOf(n.id);
  const h = sc.heat?.of(n.id) ?? null;
  const { fill, stroke } = nodeLook(sc, b);
  const heat: HeatBar | null = h
    ? {
        hue: Math.round(h.goodness * 120), // heatColor's hue
        color: h.color,
        text: h.text,
        value: sc.heat!.overlay.values[n.id],
        w: HEAT_BAR_W,
      }
    : null;
  const a = f.annotation.get(n.id);
  const textX = h ? b.w / 2 + 3 : b.w / 2;
  // both lines are centred on textX, between the heat bar (if any) and the right edge
  const room = 2 * Math.min(textX - (h ? HEAT_BAR_W + 3 : TEXT_PAD), b.w - TEXT_PAD - textX);
  const spec = a?.output ? specChip(sc, b, a.output) : null;
  const pill = outcomePill(f.snap, n.id, sc.t);
  return {
    kind: 'node',
    key: b.key,
    id: n.id,
    role: n.role,
    label: fitText(n.target, FONTS.label, room),
    sub: fitText(subLabel(sc, n, obs?.group), FONTS.sub, room),
    textX,
    fill,
    stroke,
    heat,
    annotation: a
      ? {
          on: a.annotated,
          x: h ? 13 : 6,
          y: 6,
          r: 4,
          title: sc.t(a.annotated ? 'ui.tip.annotated_dot' : 'ui.tip.unmarked_dot'),
        }
      : null,
    spec,
    outcome: pill
      ? { ...pill, ...fitChip(pill.text, FONTS.chip, (spec ? spec.x : b.w) - 8), x: 4, y: b.h - 4, h: 12 }
      : null,
    groupChip: obs ? groupChip(sc, b, obs.group) : null,
    note: b.note !== undefined && Boolean(sc.notes?.[n.id]),
  };
}

export function groupModel(sc: Scene, b: Box): GroupModel {
  const grp = b.group!;
  const collapsed = b.kind === 'collapsed';
  const labelX = collapsed ? 10 : 8;
  const sum = collapsed ? (sc.summary?.get(grp.key) ?? null) : null;
  const { fill, stroke, radius } = groupLook(sc, b);
  const badges: GroupModel['badges'] = [];
  const made = !collapsed ? [] : sc.badges ? sc.badges(grp.key) : sum ? badgesOf(sum, sc.heat, sc.t) : [];
  // the titles of badge i and those after it: made only for a row that is cut
  const titlesFrom = (i: number): string[] => made.slice(i).map((o) => o.title);
  let x = 10;
  for (let i = 0; i < made.length; i++) {
    const bd = made[i];
    // a row longer than its box: the badge at the edge is cut (…), the rest left out; their titles join the
    // last badge's tooltip
    const c = fitChip(bd.text, FONTS.badge, b.w - 10 - x);
    if (!c.text.replace('…', '').trim()) {
      const last = badges[badges.length - 1];
      if (last) last.title = [last.title, ...titlesFrom(i)].join('\n');
      break;
    }
    const cut = c.text !== bd.text;
    badges.push({
      ...bd,
      ...c,
      title: cut ? titlesFrom(i).join('\n') : bd.title,
      color: BADGE_COLOR[bd.kind],
      x,
      y: BADGE_ROW_Y,
      h: BADGE_H,
    });
    if (cut) break;
    x += c.w + BADGE_GAP;
  }
  return {
    kind: collapsed ? 'collapsed' : 'expanded',
    key: b.key,
    group: grp.key,
    total: grp.total,
    label: fitText(`${collapsed ? '⊞' : '⊟'} ${groupLabel(grp)}`, FONTS.label, b.w - labelX - TEXT_PAD - 2),
    labelX,
    labelY: collapsed ? 18 : 15,
    sub: collapsed ? fitText(sc.t('ui.group.sub', { n: grp.total }), FONTS.sub, b.w - labelX - TEXT_PAD - 2) : null,
    fill,
    stroke,
    radius,
    badges,
    summary: sum,
    allFp32: sum ? allFp32(sum) : false,
  };
}

export const GROUP_CHIP_H = 12;

/** space kept between a box's edge and its texts */
const TEXT_PAD = 6;
/** space either side of a chip's text */
const CHIP_PAD = 4;

/** A chip's text and width: as wide as its text (+ padding), the text cut to at most `most` wide in all. */
function fitChip(text: string, font: Font, most: number): { text: string; w: number } {
  const t = fitText(text, font, most - 2 * CHIP_PAD);
  return { text: t, w: Math.min(most, Math.ceil(textWidth(t, font) + 2 * CHIP_PAD)) };
}

/** The output-spec badge at the bottom-right corner, across the bottom edge: 24 wide, wider for a long spec id up
 * to half the box (the outcome pill takes the left). */
function specChip(sc: Scene, b: Box, spec: string): NodeModel['spec'] {
  const c = fitChip(spec, FONTS.chip, Math.max(24, Math.floor(b.w / 2) - 8));
  const w = Math.max(24, c.w);
  return {
    spec,
    text: c.text,
    color: sc.facts.specColor(spec),
    title: sc.t('ui.node.output_spec', { spec }),
    x: b.w - w - 4,
    y: b.h - 4,
    w,
    h: 13,
  };
}

/** The sharing-group number chip: at the box's top-right corner, across its top edge (clear of the label). */
function groupChip(sc: Scene, b: Box, group: number): Chip & { group: number } {
  const text = String(group);
  const w = Math.ceil(textWidth(text, FONTS.chip)) + 7;
  return {
    group,
    text,
    color: 'var(--pl-observer-stroke)',
    title: sc.t('ui.group_n', { n: group }),
    x: b.w - w - 8,
    y: -GROUP_CHIP_H / 2,
    w,
    h: GROUP_CHIP_H,
  };
}

/** What a box's fill and frame mean, without its texts: all a canvas needs to paint a box too small to read. */
export interface BoxLook {
  fill: Fill;
  stroke: Stroke;
  radius: number;
}

/** the look of a node of each role filled by its role (most nodes): one object per role, shared by every frame */
const roleLooks = new Map<Role, BoxLook>();

function roleLook(role: Role): BoxLook {
  let l = roleLooks.get(role);
  if (!l) {
    const stroke = { color: `var(--pl-${role}-stroke)`, width: 1.5 };
    l = { fill: { kind: 'role', role, color: `var(--pl-${role}-fill)` }, stroke, radius: NODE_RADIUS };
    roleLooks.set(role, l);
  }
  return l;
}

function nodeLook(sc: Scene, b: Box): BoxLook {
  const n = sc.facts.nodes.get(b.id!)!;
  const base = roleLook(n.role);
  // the overlay's value is the node's fill too, on the theme's perceptual scale
  const h = sc.heat?.of(n.id);
  if (h) return { ...base, fill: { kind: 'heat', goodness: h.goodness, light: h.light, dark: h.dark } };
  const obs = n.role === 'observer' ? sc.facts.observerOf(n.id) : null;
  if (obs) return { ...base, fill: { kind: 'sharing', group: obs.group, color: groupFill(obs.group) } };
  return base;
}

const OPEN_LOOK: BoxLook = { fill: { kind: 'none' }, stroke: { color: 'var(--pl-border)', width: 1 }, radius: 8 };
const CLOSED_LOOK: BoxLook = {
  fill: { kind: 'group', color: 'var(--pl-gfill)' },
  stroke: { color: 'var(--pl-gstroke)', width: 1.5 },
  radius: 6,
};
/** a closed group with compute and nothing annotated gets the warning frame */
const FP32_LOOK: BoxLook = { ...CLOSED_LOOK, stroke: { color: 'var(--pl-warn)', width: 2 } };

function groupLook(sc: Scene, b: Box): BoxLook {
  if (b.kind !== 'collapsed') return OPEN_LOOK;
  const sum = sc.summary?.get(b.group!.key);
  return sum && allFp32(sum) ? FP32_LOOK : CLOSED_LOOK;
}

/** The model of a placed box. */
export function boxModel(sc: Scene, b: Box): BoxModel {
  return b.kind === 'node' ? nodeModel(sc, b) : groupModel(sc, b);
}

/** A placed box's fill and frame (the same as its model's; cheap: made for every box of a 100k-node frame). */
export function boxLook(sc: Scene, b: Box): BoxLook {
  return b.kind === 'node' ? nodeLook(sc, b) : groupLook(sc, b);
}

/** Tooltip lines of a node: what it is, its observer's statistics, q/dq parameters, annotation, overlay value,
 * backend outcome and note. */
export function nodeTip(sc: Scene, id: Id): string[] {
  const f = sc.facts;
  const n = f.nodes.get(id);
  if (!n) return [id];
  const t = sc.t;
  const tip: string[] = [`${n.id}: ${n.target_full}`, t('ui.tip.role', { role: t(`ui.role.${n.role}`) })];
  if (n.shape) tip.push(t('ui.tip.shape', { shape: `[${n.shape.join(', ')}] ${n.dtype ?? ''}` }));
  const obs = f.observerOf(n.id);
  if (obs) {
    tip.push(
      t('ui.tip.observer', { id: obs.id, group: obs.group }),
      t('ui.tip.minmax', { min: fmtNums(obs.min), max: fmtNums(obs.max) }),
      `scale ${fmtNums(obs.scale)} zero_point ${fmtNums(obs.zero_point)}`,
    );
  }
  const q = f.qdq.get(n.id);
  if (q) tip.push(`${q.op} ${q.dtype ?? ''}`, `scale ${fmtNums(q.scale)} zero_point ${fmtNums(q.zero_point)}`);
  const a = f.annotation.get(n.id);
  if (a)
    tip.push(
      t('ui.node.annotation_tip', {
        output: a.output ?? t('ui.spec.none'),
        inputs: a.inputs.map((i) => `${i.src}:${i.spec ?? t('ui.spec.none')}`).join(', '),
      }),
    );
  const heat = sc.heat?.of(n.id);
  if (heat) tip.push(heat.text);
  const oc = outcomeOf(f.snap, n.id);
  if (oc) tip.push(outcomeText(t, oc));
  const note = sc.notes?.[n.id];
  if (note) tip.push(t('ui.tip.note', { note }));
  return tip;
}

/** Tooltip of a group box: what it is and that a click opens (closed) or closes (open) it. */
export function groupTip(sc: Scene, key: string, collapsed: boolean): string {
  const g = sc.hier.groups.get(key);
  if (!g) return key;
  return sc.t(collapsed ? 'ui.group.tip_open' : 'ui.group.tip_close', {
    what: g.synthetic ? sc.t('ui.group.section', { label: g.label }) : `${g.path} · ${g.cls}`,
    n: g.total,
  });
}

/** The one tooltip of a placed box, by its key (`n:<id>` or `g:<group>`), as both renderers show it. */
export function tipOf(sc: Scene, key: string): string {
  const b = sc.placement.boxes.get(key);
  if (!b) return key;
  if (b.kind === 'node') return nodeTip(sc, b.id!).join('\n');
  return groupTip(sc, b.group!.key, b.kind === 'collapsed');
}

/** What a view highlights: diff marks, search hits, counterparts, hover, selection (node ids). */
export interface MarkState {
  diff?: { removed: Set<Id>; added: Set<Id> };
  matches: Iterable<Id>;
  counterparts: Iterable<Id>;
  hovered: Iterable<Id>;
  selected: Id | null;
}

/** The marks of each placed box: a node's own, or (for all but diff marks) its closed group's, which stands for
 * it. Both renderers paint this map (SVG as pl-<mark> classes, canvas as outlines). */
export function marksOf(boxes: Map<string, Box>, repOf: Map<Id, string>, st: MarkState): Map<string, Set<Mark>> {
  const out = new Map<string, Set<Mark>>();
  const add = (key: string, m: Mark): void => {
    bucket(out, key, () => new Set<Mark>()).add(m);
  };
  const mark = (ids: Iterable<Id>, m: Mark): void => {
    for (const id of ids) {
      if (boxes.has(nodeKey(id))) add(nodeKey(id), m);
      else {
        const r = repOf.get(id);
        if (r && isGroupKey(r)) add(r, m);
      }
    }
  };
  if (st.diff) {
    for (const id of st.diff.removed) if (boxes.has(nodeKey(id))) add(nodeKey(id), 'removed');
    for (const id of st.diff.added) if (boxes.has(nodeKey(id))) add(nodeKey(id), 'added');
  }
  mark(st.matches, 'match');
  mark(st.counterparts, 'counterpart');
  mark(st.hovered, 'hover');
  if (st.selected) mark([st.selected], 'selected');
  return out;
}
