// Hierarchical layout: each expanded group is laid out on its own (children = nodes and child groups as
// boxes), bottom-up, and cached; opening a group lays out that group and re-lays its ancestors only.

import { NOTE_GAP, type NoteBox } from './callout';
import { childKeys, type Group, type Hierarchy } from './groups';
import type { LayoutClient } from './layout-client';
import { Slicer } from './slicer';
import type { GraphNode, Id } from './types';

export const PAD = 12;
export const HEADER = 22;
export const NODE_H = 40;
export const GROUP_H = 46;
/** main-thread work on a placement between two page tasks (ms) */
const SLICE_MS = 25;

export interface Box {
  key: string;
  kind: 'node' | 'collapsed' | 'expanded';
  /** centre */
  x: number;
  y: number;
  w: number;
  h: number;
  group?: Group;
  id?: Id;
  /** a node's note callout (absolute top-left corner), laid out beside it */
  note?: NoteBox & { x: number; y: number };
}

export interface SizeRules {
  /** a node's note, wrapped: the node's layout box widens by it */
  noteOf?: (id: Id) => NoteBox | null;
  /** a closed group's size (default: collapsedWidth × GROUP_H) */
  collapsedSize?: (g: Group) => [number, number];
}

/** A laid-out edge's route in its group's own coordinates (shared by every group of that shape: not copied) and
 * where the group's content starts: the absolute points are (ox + x, oy + y). */
export interface Route {
  pts: ReadonlyArray<readonly [number, number]>;
  ox: number;
  oy: number;
}

export interface Placement {
  boxes: Map<string, Box>;
  /** dagre's route of the laid-out edge between `ka` and `kb`, children of open group `g` (null: none). Looked up,
   * not copied into every placement: at 100k nodes that copy was ~100k new point arrays for the young GC */
  route(g: Group, ka: string, kb: string): Route | null;
  width: number;
  height: number;
  /** layouts actually computed (cache misses) in this pass, and their total ms */
  computed: number;
  ms: number;
}

const clamp = (v: number, lo: number, hi: number): number => Math.max(lo, Math.min(hi, v));

export function nodeWidth(n: GraphNode): number {
  // rounded up to 16 px so repeated layers get identical sizes (and so one shared layout)
  return Math.ceil(clamp(Math.max(n.target.length * 7.4, n.id.length * 6) + 22, 72, 240) / 16) * 16;
}

export function groupLabel(g: Group): string {
  return g.cls && !g.synthetic ? `${g.label} · ${g.cls}` : g.label || '(root)';
}

export function collapsedWidth(g: Group): number {
  const sub = `${g.total} nodes — click to open`.length * 5.9 + 24;
  return Math.ceil(clamp(Math.max(groupLabel(g).length * 6.8 + 40, sub), 120, 300) / 16) * 16;
}

/** One layout of a group's children, by child index (shared by every group of the same shape). */
interface Shape {
  pos: Array<[number, number]>;
  routes: Array<Array<[number, number]>>;
  width: number;
  height: number;
}

export class HierLayout {
  /** each group's last layout: its children's sizes (`sig`), the shared shape, its size */
  private cache = new Map<string, { sig: string; shape: Shape; size: [number, number] }>();
  /** Layouts by shape (child sizes + edges by child index): identical layers are laid out once. */
  private shapes = new Map<string, Promise<Shape>>();
  /** how many layouts were answered from `shapes` */
  reused = 0;
  private orders = new Map<Group, { order: string[]; edges: string }>();
  /** a group's edges by `${ka}\u0000${kb}`, for groups with many (a few edges are scanned) */
  private edgeIndex = new Map<Group, Map<string, number>>();
  private nodeSizes = new Map<Id, [number, number]>();
  constructor(
    private h: Hierarchy,
    private nodes: Map<Id, GraphNode>,
    private client: LayoutClient,
    private rules: SizeRules = {},
  ) {}

  /** Layout size of a node item: the node plus its note callout, if any (fixed: computed once). */
  private nodeSize(id: Id): [number, number] {
    let sz = this.nodeSizes.get(id);
    if (!sz) {
      const w = nodeWidth(this.nodes.get(id)!);
      const note = this.rules.noteOf?.(id);
      sz = note ? [w + NOTE_GAP + note.w, Math.max(NODE_H, note.h)] : [w, NODE_H];
      this.nodeSizes.set(id, sz);
    }
    return sz;
  }

  private closedSize(g: Group): [number, number] {
    return this.rules.collapsedSize?.(g) ?? [collapsedWidth(g), GROUP_H];
  }

  /** A group's children as item keys, in order, and its edges by child index (fixed per hierarchy). */
  private shapeOf(g: Group): { order: string[]; edges: string } {
    let sh = this.orders.get(g);
    if (!sh) {
      const order = childKeys(g);
      const es = this.h.edgesAt.get(g.key) ?? [];
      // most groups are small: a scan, not a Map of their children (30k groups at 100k nodes, all opened at once)
      let at = (k: string): number => order.indexOf(k);
      if (es.length && order.length > 8) {
        const index = new Map<string, number>();
        for (let i = 0; i < order.length; i++) index.set(order[i], i);
        at = (k) => index.get(k) ?? -1;
      }
      const parts = new Array<string>(es.length);
      for (let j = 0; j < es.length; j++) parts[j] = `${at(es[j][0])}>${at(es[j][1])}`;
      sh = { order, edges: parts.join(',') };
      this.orders.set(g, sh);
    }
    return sh;
  }

  /** The index of edge ka → kb in `g`'s edgesAt (the last, as a map by pair would keep), or -1. */
  private edgeAt(g: Group, ka: string, kb: string): number {
    const es = this.h.edgesAt.get(g.key) ?? [];
    if (es.length <= 16) {
      for (let i = es.length - 1; i >= 0; i--) if (es[i][0] === ka && es[i][1] === kb) return i;
      return -1;
    }
    let idx = this.edgeIndex.get(g);
    if (!idx) {
      idx = new Map(es.map(([a, b], i) => [`${a}\u0000${b}`, i]));
      this.edgeIndex.set(g, idx);
    }
    return idx.get(`${ka}\u0000${kb}`) ?? -1;
  }

  /** Sizes of `g`'s children in this pass (open child groups from `sizeOf`). */
  private childSizes(g: Group, expanded: Set<string>, sizeOf: Map<Group, [number, number]>): Array<[number, number]> {
    const out: Array<[number, number]> = new Array(g.children.length);
    g.children.forEach((it, i) => {
      if (it.kind === 'node') out[i] = this.nodeSize(it.id);
      else if (expanded.has(it.group.key)) {
        const [w, hh] = sizeOf.get(it.group)!;
        out[i] = [w + 2 * PAD, hh + HEADER + 2 * PAD];
      } else out[i] = this.closedSize(it.group);
    });
    return out;
  }

  /** Lay out every open group of `expanded`, deepest level first (a group's size needs its open children's),
   * each level's layouts requested together; one loop per level, so the slicer's pauses wake one caller. */
  private async layAll(
    expanded: Set<string>,
    stats: { computed: number; ms: number },
    slicer: Slicer,
  ): Promise<Map<Group, [number, number]>> {
    const levels: Group[][] = [[this.h.root]];
    for (let d = 0; d < levels.length; d++) {
      const next: Group[] = [];
      let n = 0;
      for (const g of levels[d]) {
        for (const it of g.children) if (it.kind === 'group' && expanded.has(it.group.key)) next.push(it.group);
        n += g.children.length;
        if (n > 1024) {
          n = 0;
          await slicer.pace();
        }
      }
      if (next.length) levels.push(next);
    }
    const sizeOf = new Map<Group, [number, number]>();
    for (let d = levels.length - 1; d >= 0; d--) {
      const jobs: Array<{ g: Group; sig: string; pending: Promise<Shape> }> = [];
      let n = 0;
      for (const g of levels[d]) {
        // paced by children looked at: one section has 400, a block ten
        n += g.children.length;
        if (n > 512) {
          n = 0;
          await slicer.pace();
        }
        const sizes = this.childSizes(g, expanded, sizeOf);
        const sig = sizes.map((s) => `${s[0]}x${s[1]}`).join(',');
        const hit = this.cache.get(g.key);
        if (hit && hit.sig === sig) {
          sizeOf.set(g, hit.size);
          continue;
        }
        const { order, edges } = this.shapeOf(g);
        const shapeKey = `${sig}|${edges}`;
        let pending = this.shapes.get(shapeKey);
        if (pending) this.reused += 1;
        else {
          pending = this.client
            .layout({
              nodes: order.map((k, i) => ({ id: k, w: sizes[i][0], h: sizes[i][1] })),
              edges: this.h.edgesAt.get(g.key) ?? [],
            })
            .then((r) => {
              stats.computed += 1;
              stats.ms += r.ms;
              return { pos: order.map((k) => r.pos[k]), routes: r.routes, width: r.width, height: r.height };
            });
          this.shapes.set(shapeKey, pending);
        }
        jobs.push({ g, sig, pending });
      }
      const shapes = await Promise.all(jobs.map((j) => j.pending));
      for (let i = 0; i < jobs.length; i++) {
        if ((i & 255) === 255) await slicer.pace();
        const shape = shapes[i];
        const size: [number, number] = [Math.max(shape.width, 60), Math.max(shape.height, 20)];
        this.cache.set(jobs[i].g.key, { sig: jobs[i].sig, shape, size });
        sizeOf.set(jobs[i].g, size);
      }
      await slicer.pace();
    }
    return sizeOf;
  }

  /** Lay out what `expanded` shows (reusing cached group layouts) and return absolute boxes, in page tasks
   * of ~SLICE_MS on this thread (the layouts themselves run in the layout workers). */
  async place(expanded: Set<string>): Promise<Placement> {
    const stats = { computed: 0, ms: 0 };
    const slicer = new Slicer(SLICE_MS);
    const [w, hh] = (await this.layAll(expanded, stats, slicer)).get(this.h.root)!;
    const boxes = new Map<string, Box>();
    // depth first, each box before the boxes of its open group (the drawing order), without a promise per group
    type Frame = { g: Group; ox: number; oy: number; i: number; shape: Shape; order: string[] };
    // each open group's shape and origin, kept by this placement (a later pass may lay the group out anew)
    const origins = new Map<Group, Frame>();
    const enter = (g: Group, ox: number, oy: number): Frame => {
      const f = { g, ox, oy, i: 0, shape: this.cache.get(g.key)!.shape, order: this.shapeOf(g).order };
      origins.set(g, f);
      return f;
    };
    const route = (g: Group, ka: string, kb: string): Route | null => {
      const f = origins.get(g);
      const i = f ? this.edgeAt(g, ka, kb) : -1;
      const pts = i >= 0 ? f!.shape.routes[i] : undefined;
      return pts?.length ? { pts, ox: f!.ox, oy: f!.oy } : null;
    };
    const stack: Frame[] = [enter(this.h.root, 0, 0)];
    let n = 0;
    while (stack.length) {
      const f = stack[stack.length - 1];
      if (f.i >= f.g.children.length) {
        stack.pop();
        continue;
      }
      if ((++n & 255) === 0) await slicer.pace();
      const i = f.i++;
      const it = f.g.children[i];
      const k = f.order[i];
      const x = f.ox + f.shape.pos[i][0];
      const y = f.oy + f.shape.pos[i][1];
      if (it.kind === 'node') {
        const w = nodeWidth(this.nodes.get(it.id)!);
        const note = this.rules.noteOf?.(it.id);
        if (note) {
          // node on the left of its layout box, the callout on the right, both centred vertically
          const [lw] = this.nodeSize(it.id);
          const nx = x - lw / 2 + w / 2;
          const callout = { ...note, x: nx + w / 2 + NOTE_GAP, y: y - note.h / 2 };
          boxes.set(k, { key: k, kind: 'node', x: nx, y, w, h: NODE_H, id: it.id, note: callout });
        } else boxes.set(k, { key: k, kind: 'node', x, y, w, h: NODE_H, id: it.id });
      } else if (expanded.has(it.group.key)) {
        const [iw, ih] = this.cache.get(it.group.key)!.size;
        const bw = iw + 2 * PAD;
        const bh = ih + HEADER + 2 * PAD;
        boxes.set(k, { key: k, kind: 'expanded', x, y, w: bw, h: bh, group: it.group });
        stack.push(enter(it.group, x - bw / 2 + PAD, y - bh / 2 + HEADER + PAD));
      } else {
        const [cw, ch] = this.closedSize(it.group);
        boxes.set(k, { key: k, kind: 'collapsed', x, y, w: cw, h: ch, group: it.group });
      }
    }
    return { boxes, route, width: w, height: hh, computed: stats.computed, ms: stats.ms };
  }
}
