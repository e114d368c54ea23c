// Which box shows each node for a set of open groups (the node, or its outermost closed group), and the open
// groups of a canvas pane's overview picture. Pure: the pane's model (pane-model.ts) asks both.
import { childKeys, type Group, groupKey, type Hierarchy, initialExpanded } from './groups';
import type { Slicer } from './slicer';
import type { Id } from './types';

/** Which box shows each node when `expanded` are the open groups (the node, or its outermost closed group). */
export function repsOf(root: Group, expanded: Set<string>): Map<Id, string> {
  const out = new Map<Id, string>();
  for (const _ of repSteps(root, expanded, out));
  return out;
}

/** repsOf in page tasks: `slicer` pauses it every few thousand nodes (100k nodes take tens of ms). */
export async function repsOfSliced(root: Group, expanded: Set<string>, slicer: Slicer): Promise<Map<Id, string>> {
  const out = new Map<Id, string>();
  for (const _ of repSteps(root, expanded, out)) await slicer.pace();
  return out;
}

/** The walk of repsOf into `out`, depth first in child order; yields after every 4096 nodes. */
function* repSteps(root: Group, expanded: Set<string>, out: Map<Id, string>): Generator<void> {
  const stack: Array<{ g: Group; rep: string | null; i: number }> = [{ g: root, rep: null, i: 0 }];
  let n = 0;
  while (stack.length) {
    const f = stack[stack.length - 1];
    if (f.i >= f.g.children.length) {
      stack.pop();
      continue;
    }
    const i = f.i++;
    const it = f.g.children[i];
    if (it.kind === 'node') {
      // the group's own key strings (childKeys), not a new one per node and redraw
      out.set(it.id, f.rep ?? childKeys(f.g)[i]);
      if ((++n & 4095) === 0) yield;
    } else
      stack.push({ g: it.group, rep: f.rep ?? (expanded.has(it.group.key) ? null : groupKey(it.group.key)), i: 0 });
  }
}

/** Boxes the overview may draw, however many the canvas scene has: ~750 characters of picture each (202 boxes:
 * 150 kB), so it stays under the stored picture's 400,000-character cap. */
export const OVERVIEW_BOXES = 400;

/** The overview's open groups: the top-level groups closed (as a large pane opens), then each next level of
 * groups opened whole while the boxes stay within `budget`, so a model under one wrapper still shows its parts. */
export function overviewExpanded(h: Hierarchy, budget = OVERVIEW_BOXES): Set<string> {
  const ex = initialExpanded(h, 1, 0);
  const closedUnder = (g: Group): Group[] =>
    g.children.flatMap((it) => (it.kind !== 'group' ? [] : ex.has(it.group.key) ? closedUnder(it.group) : [it.group]));
  const count = (g: Group): number =>
    g.children.reduce((n, it) => n + (it.kind === 'group' && ex.has(it.group.key) ? count(it.group) : 1), 0);
  let boxes = count(h.root);
  for (;;) {
    const next = closedUnder(h.root);
    const more = next.reduce((n, g) => n + g.children.length - 1, 0);
    if (!next.length || boxes + more > budget) return ex;
    for (const g of next) ex.add(g.key);
    boxes += more;
  }
}
