// One pane's model, apart from its page: what it draws of a snapshot (drawn.ts), the module hierarchy, the closed
// groups' summaries and badges, the notes' sizes and the hierarchical layout; for a set of open groups, the
// placement and the Frame both painters draw (frame.ts) with its texts. No DOM: graph-view.ts keeps the view's
// state and wiring and paints what this returns (issue 28: the next step runs this in the layout worker, which
// then posts the frame).
import { badgesWidth, type Summary, summaryOf } from './badges';
import { BADGE_ROW_H } from './box-model';
import { type NoteBox, noteBox } from './callout';
import { drawnGraph } from './drawn';
import { type Facts, factsOf } from './facts';
import { type Frame, type FrameTexts, frameInSlices, sceneTexts } from './frame';
import { GroupBadges } from './group-badges';
import { buildHierarchy, type Hierarchy, type Item } from './groups';
import { type Heat, makeHeat } from './heat';
import { type Box, collapsedWidth, GROUP_H, HierLayout, type Placement } from './hier-layout';
import type { Tr } from './i18n';
import type { LayoutClient } from './layout-client';
import { overviewExpanded, repsOfSliced } from './reps';
import type { Scene } from './scene';
import { Slicer } from './slicer';
import type { Edge, GraphNode, Id, Overlay, Snapshot } from './types';

export interface PaneModelOptions {
  client: LayoutClient;
  t: Tr;
  focus?: Id[] | null;
  notes?: Record<Id, string>;
  overlay?: Overlay | null;
}

/** What one placement draws: the frame, its texts, which box shows each node, and how much the frame holds. */
export interface PaneFrame {
  frame: Frame;
  texts: FrameTexts;
  repOf: Map<Id, string>;
  nodes: number;
  groups: number;
  /** what the SVG would hold, in boxes: each badge of a closed group is a chip, text and tooltip, about a box's
   * worth (400 closed blocks of a quantized decoder are ~13k elements: a canvas frame, not SVG to lay out) */
  weight: number;
}

export class PaneModel {
  readonly facts: Facts;
  /** the drawn nodes and edges (focus, `_guards_fn` hidden) */
  readonly nodes: GraphNode[];
  readonly edges: Edge[];
  /** the graph's node count as torch counts it (len(graph.nodes), _guards_fn included): the panel's picker, the
   * CLI and pl.node_count say the same number (issue 26.4: 346 there, 345 here); a focus counts what it picked */
  readonly total: number;
  /** null: nothing to draw (an empty graph, or a focus that keeps nothing) */
  readonly hier: Hierarchy | null = null;
  readonly heat: Heat | null;
  readonly summary: Map<string, Summary> | undefined;
  private badges: GroupBadges;
  private layout: HierLayout | null = null;

  constructor(
    snap: Snapshot,
    private opts: PaneModelOptions,
  ) {
    this.facts = factsOf(snap);
    this.heat = makeHeat(opts.overlay);
    const focus = opts.focus ? new Set(opts.focus) : null;
    // torch.export's shape-guard module is no step of the model: drawn only when a focus names it
    const drawn = drawnGraph(snap, focus);
    this.nodes = drawn.nodes;
    this.edges = drawn.edges;
    this.total = focus ? drawn.nodes.length : snap.nodes.length;
    if (this.nodes.length === 0) {
      this.badges = new GroupBadges(undefined, this.heat, opts.t);
      return;
    }
    const hier = buildHierarchy(this.nodes, this.edges, drawn.fixed);
    this.hier = hier;
    this.summary = hier.groups.size > 1 ? summaryOf(hier, this.facts, this.heat) : undefined;
    const badges = new GroupBadges(this.summary, this.heat, opts.t);
    this.badges = badges;
    const notes = new Map<Id, NoteBox>();
    for (const [id, text] of Object.entries(opts.notes ?? {}))
      if (drawn.keep.has(id) && text) notes.set(id, noteBox(text));
    this.layout = new HierLayout(hier, this.facts.nodes, opts.client, {
      noteOf: (id) => notes.get(id) ?? null,
      collapsedSize: (g) => {
        const w = collapsedWidth(g);
        const bs = badges.of(g.key);
        if (!bs.length) return [w, GROUP_H];
        return [Math.max(w, Math.ceil((badgesWidth(bs) + 20) / 16) * 16), GROUP_H + BADGE_ROW_H];
      },
    });
  }

  /** A box's place in the program's order when it is compute (a closed group by its first node: its items follow
   * that order), else null: a graph wider than its pane is first shown at its first compute box (pan-zoom.ts). */
  computeRank = (b: Box): number | null => {
    let g = b.kind === 'collapsed' ? b.group : undefined;
    while (g?.children.length) {
      const c: Item = g.children[0];
      if (c.kind === 'node') return this.order.get(c.id) ?? null;
      g = c.group;
    }
    return b.id !== undefined && this.facts.nodes.get(b.id)?.role === 'compute' ? (this.order.get(b.id) ?? null) : null;
  };

  /** each node's place in the program's order */
  private get order(): Map<Id, number> {
    this.orderMemo ??= new Map([...this.facts.nodes.keys()].map((id, i) => [id, i]));
    return this.orderMemo;
  }
  private orderMemo: Map<Id, number> | undefined;

  /** Lay out what `expanded` shows (group layouts cached and shared: hier-layout.ts). */
  place(expanded: Set<string>): Promise<Placement> {
    return this.layout!.place(expanded);
  }

  /** What the scenes of this pane share, whatever is placed. */
  private base(): Omit<Scene, 'placement' | 'repOf' | 'solid'> {
    const { facts, heat, summary } = this;
    return { facts, hier: this.hier!, heat, summary, t: this.opts.t, notes: this.opts.notes, badges: this.badgesOf };
  }

  private badgesOf = (key: string) => this.badges.of(key);

  /** The frame of placement `P` (`expanded` open), in page tasks of ~25 ms (100k nodes: 130k boxes). */
  async frame(P: Placement, expanded: Set<string>): Promise<PaneFrame> {
    const slicer = new Slicer(25);
    // every node's box: a walk over all nodes
    const repOf = await repsOfSliced(this.hier!.root, expanded, slicer);
    let nodes = 0;
    let groups = 0;
    let weight = 0;
    // the drawn boxes (not open groups), for the edges' crossing test, in the same paced pass
    const solid: Box[] = [];
    let n = 0;
    for (const b of P.boxes.values()) {
      if ((++n & 4095) === 0) await slicer.pace();
      if (b.kind === 'expanded') continue;
      solid.push(b);
      if (b.kind === 'node') nodes++;
      else {
        groups++;
        weight += this.badges.of(b.group!.key).length;
      }
    }
    const sc: Scene = { ...this.base(), placement: P, repOf, solid };
    const frame = await frameInSlices(sc, this.edges, slicer);
    return { frame, texts: sceneTexts(sc), repOf, nodes, groups, weight };
  }

  /** The overview's open groups (its top-level groups closed: overview.ts), placed, and its frame; null when its
   * placement shows more boxes than `most` (a flat graph has no groups to close: it would be the whole graph). */
  async overview(most: number): Promise<PaneFrame | null> {
    const ex = overviewExpanded(this.hier!);
    const P = await this.place(ex);
    let shown = 0;
    for (const b of P.boxes.values()) if (b.kind !== 'expanded') shown++;
    return shown > most ? null : this.frame(P, ex);
  }
}
