// Highlights a box can carry (diff, search, compare counterpart, hover, selection) and the outline each one
// draws: one table, which the SVG stylesheet (as pl-<mark> classes) and the canvas painter both read.

export type Mark = 'removed' | 'added' | 'match' | 'counterpart' | 'hover' | 'selected';

export interface MarkStroke {
  color: string;
  width: number;
  /** dash pattern in layout units ([] = solid) */
  dash: number[];
}

export const MARK_STYLE: Record<Mark, MarkStroke> = {
  removed: { color: 'var(--pl-removed)', width: 2.5, dash: [5, 3] },
  added: { color: 'var(--pl-added)', width: 4, dash: [] },
  match: { color: 'var(--pl-match)', width: 3.5, dash: [] },
  counterpart: { color: 'var(--pl-selected)', width: 3, dash: [6, 3] },
  hover: { color: 'var(--pl-selected)', width: 3, dash: [6, 3] },
  selected: { color: 'var(--pl-selected)', width: 3.5, dash: [] },
};

/** Later wins when a box carries several (the selection over a search hit over a diff mark). */
export const MARK_ORDER: Mark[] = ['removed', 'added', 'match', 'counterpart', 'hover', 'selected'];

// dashes say "removed" (the course's 虛線) under any highlight, and only there: a removed node selected stays
// dashed, an added one shown as a counterpart (or hovered) stays solid instead of taking the highlight's dashes
const withDash = (dash: number[]): Record<Mark, MarkStroke> =>
  Object.fromEntries(MARK_ORDER.map((m) => [m, { ...MARK_STYLE[m], dash }])) as Record<Mark, MarkStroke>;
const REMOVED_KEPT = withDash(MARK_STYLE.removed.dash);
const ADDED_KEPT = withDash(MARK_STYLE.added.dash);

/** The outline a set of marks draws: the last in MARK_ORDER, dashed when one of them is `removed` and solid when
 * one is `added`; null for none. */
export function markStroke(marks: ReadonlySet<Mark> | undefined): MarkStroke | null {
  if (!marks?.size) return null;
  let last: Mark | null = null;
  for (const m of MARK_ORDER) if (marks.has(m)) last = m;
  if (last === null) return null;
  const kept = marks.has('removed') ? REMOVED_KEPT : marks.has('added') ? ADDED_KEPT : null;
  // the table's own stroke when its dashes already say the same (a search hit on an added node: solid anyway)
  return kept && kept[last].dash.join() !== MARK_STYLE[last].dash.join() ? kept[last] : MARK_STYLE[last];
}

/** The stylesheet's rules for the pl-<mark> classes, in MARK_ORDER (later rules win, as markStroke does). */
export function markCss(): string {
  return MARK_ORDER.map((m) => {
    const st = MARK_STYLE[m];
    const dash = st.dash.length ? st.dash.join(' ') : 'none';
    // a diff mark is a node's only; the others also outline a closed group that stands for the node
    const sel =
      m === 'removed' || m === 'added'
        ? `.pt2e-lens .pl-node.pl-${m} rect.pl-box`
        : `.pt2e-lens .pl-node.pl-${m} rect.pl-box,.pt2e-lens .pl-group.pl-collapsed.pl-${m} rect.pl-gbox`;
    const extra = m === 'added' ? ';paint-order:stroke' : '';
    return `${sel}{stroke:${st.color};stroke-width:${st.width};stroke-dasharray:${dash}${extra}}`;
  })
    .concat(
      (['added', 'removed'] as const).map(
        (kept) =>
          `.pt2e-lens .pl-node.pl-${kept}:is(${MARK_ORDER.filter((m) => m !== 'removed' && m !== 'added')
            .map((m) => `.pl-${m}`)
            .join(',')}) rect.pl-box{stroke-dasharray:${MARK_STYLE[kept].dash.join(' ') || 'none'}}`,
      ),
    )
    .join('\n');
}
