// The static picture of a canvas-drawn pane (too many boxes for SVG): the closed-group overview, i.e. the
// top-level module groups as closed boxes with their badges (what such a pane opens on), drawn by the SVG path's
// own painter (svg-view.ts) into a hidden <svg class="pl-overview"> beside the canvas, which picture.ts takes instead.
import { s } from './dom';
import { edgeItemsSliced } from './edges';
import { childKeys, type Group, groupKey, type Hierarchy, initialExpanded } from './groups';
import type { Placement } from './hier-layout';
import type { Scene } from './scene';
import { Slicer } from './slicer';
import { paintScene } from './svg-view';
import type { Edge, Id } from './types';

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

/** main-thread work of the overview between two page tasks (ms) */
const SLICE_MS = 25;

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

/** The overview's SVG (hidden), its bounds in `data-box` and what it is in `data-caption`; its arrowheads are the
 * pane's (`base.marker`: in the scene SVG's <defs>, which picture.ts copies with it). The walks over every node
 * and edge run in page tasks (its few hundred boxes are drawn in one). */
export async function overviewSvg(
  base: Omit<Scene, 'placement' | 'repOf' | 'solid'>,
  P: Placement,
  expanded: Set<string>,
  edges: Edge[],
  caption: string,
): Promise<SVGSVGElement> {
  const d = base.doc;
  const svg = s(d, 'svg', { class: 'pl-overview', 'aria-hidden': 'true', 'data-caption': caption }) as SVGSVGElement;
  svg.style.display = 'none';
  const boxes = [...P.boxes.values()];
  const slicer = new Slicer(SLICE_MS);
  const sc: Scene = {
    ...base,
    placement: P,
    repOf: await repsOfSliced(base.hier.root, expanded, slicer),
    solid: boxes.filter((b) => b.kind !== 'expanded'),
  };
  const items = await edgeItemsSliced(sc, edges, slicer);
  const vp = s(d, 'g', { class: 'pl-viewport' });
  paintScene(sc, vp, edges, undefined, undefined, items);
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const b of boxes) {
    x0 = Math.min(x0, b.x - b.w / 2);
    y0 = Math.min(y0, b.y - b.h / 2);
    x1 = Math.max(x1, b.x + b.w / 2);
    y1 = Math.max(y1, b.y + b.h / 2);
  }
  svg.setAttribute('data-box', [x0, y0, x1 - x0, y1 - y0].map((v) => Math.round(v)).join(' '));
  svg.appendChild(vp);
  return svg;
}
