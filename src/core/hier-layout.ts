// Hierarchical layout: each expanded group is laid out on its own (children = nodes and child groups as
// boxes), bottom-up, and cached; opening a group lays out that group and re-lays its ancestors only.

import { NOTE_GAP, type NoteBox } from './callout';
import { type Group, groupKey, type Hierarchy, itemKey, nodeKey } from './groups';
import type { LayoutClient } from './layout-client';
import type { LayoutResult } from './layout-core';
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

export interface Placement {
  boxes: Map<string, Box>;
  /** dagre's absolute route for each laid-out edge between two children of one group, by `${ka}\u0000${kb}` */
  routes: Map<string, Array<[number, number]>>;
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

export class HierLayout {
  private cache = new Map<string, { sig: string; res: LayoutResult; size: [number, number] }>();
  /** Layouts by shape (child sizes + edges by child index): identical layers are laid out once. */
  private shapes = new Map<
    string,
    Promise<{ pos: Array<[number, number]>; routes: Array<Array<[number, number]>>; width: number; height: number }>
  >();
  /** how many layouts were answered from `shapes` */
  reused = 0;
  constructor(
    private h: Hierarchy,
    private nodes: Map<Id, GraphNode>,
    private client: LayoutClient,
    private rules: SizeRules = {},
  ) {}

  /** Layout size of a node item: the node plus its note callout, if any. */
  private nodeSize(id: Id): [number, number] {
    const w = nodeWidth(this.nodes.get(id)!);
    const note = this.rules.noteOf?.(id);
    return note ? [w + NOTE_GAP + note.w, Math.max(NODE_H, note.h)] : [w, NODE_H];
  }

  private closedSize(g: Group): [number, number] {
    return this.rules.collapsedSize?.(g) ?? [collapsedWidth(g), GROUP_H];
  }

  private async layGroup(
    g: Group,
    expanded: Set<string>,
    stats: { computed: number; ms: number },
    slicer: Slicer,
  ): Promise<[number, number]> {
    await slicer.pace(); // the descent into a big expanded tree is work too
    const sizes = new Map<string, [number, number]>();
    const opened: Array<Promise<void>> = []; // only open groups wait (a promise per node costs at 100k)
    for (const it of g.children) {
      if (it.kind === 'node') {
        sizes.set(nodeKey(it.id), this.nodeSize(it.id));
      } else if (expanded.has(it.group.key)) {
        const key = groupKey(it.group.key);
        opened.push(
          this.layGroup(it.group, expanded, stats, slicer).then(([w, hh]) => {
            sizes.set(key, [w + 2 * PAD, hh + HEADER + 2 * PAD]);
          }),
        );
      } else {
        sizes.set(groupKey(it.group.key), this.closedSize(it.group));
      }
    }
    if (opened.length) await Promise.all(opened);
    await slicer.pace();
    const order = g.children.map(itemKey);
    const sig = order.map((k) => `${k}:${sizes.get(k)!.join('x')}`).join('|');
    const hit = this.cache.get(g.key);
    if (hit && hit.sig === sig) return hit.size;
    const index = new Map(order.map((k, i) => [k, i]));
    const edges = this.h.edgesAt.get(g.key) ?? [];
    const shapeKey = `${order.map((k) => sizes.get(k)!.join('x')).join(',')}|${edges.map(([a, b]) => `${index.get(a)}>${index.get(b)}`).join(',')}`;
    let pending = this.shapes.get(shapeKey);
    if (pending) this.reused += 1;
    else {
      pending = this.client
        .layout({ nodes: order.map((k) => ({ id: k, w: sizes.get(k)![0], h: sizes.get(k)![1] })), edges })
        .then((r) => {
          stats.computed += 1;
          stats.ms += r.ms;
          return { pos: order.map((k) => r.pos[k]), routes: r.routes, width: r.width, height: r.height };
        });
      this.shapes.set(shapeKey, pending);
    }
    const shape = await pending;
    await slicer.pace(); // one layout answers every identical layer: they all wake up at once
    const pos: Record<string, [number, number]> = {};
    order.forEach((k, i) => {
      pos[k] = shape.pos[i];
    });
    const res: LayoutResult = {
      id: 0,
      pos,
      routes: shape.routes,
      width: shape.width,
      height: shape.height,
      ms: 0,
      engine: 'dagre',
    };
    const size: [number, number] = [Math.max(res.width, 60), Math.max(res.height, 20)];
    this.cache.set(g.key, { sig, res, size });
    return size;
  }

  /** Lay out what `expanded` shows (reusing cached group layouts) and return absolute boxes, in page tasks
   * of ~SLICE_MS on this thread (the layouts themselves run in the layout workers). */
  async place(expanded: Set<string>): Promise<Placement> {
    const stats = { computed: 0, ms: 0 };
    const slicer = new Slicer(SLICE_MS);
    const [w, hh] = await this.layGroup(this.h.root, expanded, stats, slicer);
    const boxes = new Map<string, Box>();
    const routes = new Map<string, Array<[number, number]>>();
    let n = 0;
    const put = async (g: Group, ox: number, oy: number): Promise<void> => {
      const res = this.cache.get(g.key)!.res;
      (this.h.edgesAt.get(g.key) ?? []).forEach(([a, b], i) => {
        const r = res.routes[i];
        if (r?.length)
          routes.set(
            `${a}\u0000${b}`,
            r.map(([x, y]) => [ox + x, oy + y] as [number, number]),
          );
      });
      for (const it of g.children) {
        if ((++n & 255) === 0) await slicer.pace();
        const k = itemKey(it);
        const [cx, cy] = res.pos[k];
        const x = ox + cx;
        const y = oy + cy;
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
          await put(it.group, x - bw / 2 + PAD, y - bh / 2 + HEADER + PAD);
        } else {
          const [cw, ch] = this.closedSize(it.group);
          boxes.set(k, { key: k, kind: 'collapsed', x, y, w: cw, h: ch, group: it.group });
        }
      }
    };
    await put(this.h.root, 0, 0);
    return { boxes, routes, width: w, height: hh, computed: stats.computed, ms: stats.ms };
  }
}
