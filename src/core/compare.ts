// Node correspondence between panes, read from the precomputed StageDiffs (kept + became).
import type { GraphNode, Id, StageDiff } from './types';

function diffBetween(diffs: StageDiff[], a: number): StageDiff | null {
  return diffs.find((d) => d.from === a && d.to === a + 1) ?? diffs[a] ?? null;
}

export function forward(d: StageDiff, ids: Set<Id>): Set<Id> {
  const out = new Set<Id>();
  for (const [x, y] of d.kept) if (ids.has(x)) out.add(y);
  for (const x of ids) for (const y of d.became[x] ?? []) out.add(y);
  return out;
}

export function backward(d: StageDiff, ids: Set<Id>): Set<Id> {
  const out = new Set<Id>();
  for (const [x, y] of d.kept) if (ids.has(y)) out.add(x);
  for (const x of Object.keys(d.became)) for (const y of d.became[x]) if (ids.has(y)) out.add(x);
  return out;
}

/** For a node selected in pane `pane`, the node ids to mark in every pane (the pane itself included). */
export function counterparts(diffs: StageDiff[], paneCount: number, pane: number, id: Id): Array<Set<Id>> {
  const out: Array<Set<Id>> = Array.from({ length: paneCount }, () => new Set<Id>());
  out[pane] = new Set([id]);
  for (let i = pane; i + 1 < paneCount; i++) {
    const d = diffBetween(diffs, i);
    if (!d) break;
    out[i + 1] = forward(d, out[i]);
  }
  for (let i = pane; i - 1 >= 0; i--) {
    const d = diffBetween(diffs, i - 1);
    if (!d) break;
    out[i - 1] = backward(d, out[i]);
  }
  return out;
}

/** Diff marks for pane i: `removed` from diffs[i] (this pane → next), `added` from diffs[i-1]. */
export function diffMarks(diffs: StageDiff[], paneCount: number, i: number): { removed: Set<Id>; added: Set<Id> } {
  const next = i + 1 < paneCount ? diffBetween(diffs, i) : null;
  const prev = i > 0 ? diffBetween(diffs, i - 1) : null;
  return { removed: new Set(next?.removed ?? []), added: new Set(prev?.added ?? []) };
}

/** The nodes of another stage that stand for node `n` where no StageDiff links the two stages (the side panel
 * fetches one stage at a time): the node of the same name; else the nodes `from_node` says were made from it
 * (a decomposition's ops); else the node it was made from. Empty: it has no counterpart there. */
export function sameNodeIn(n: Pick<GraphNode, 'id' | 'provenance'>, nodes: GraphNode[]): Id[] {
  if (nodes.some((m) => m.id === n.id)) return [n.id];
  const made = nodes.filter((m) => m.provenance.includes(n.id)).map((m) => m.id);
  if (made.length) return made;
  const from = new Set(n.provenance);
  return nodes.filter((m) => from.has(m.id)).map((m) => m.id);
}
