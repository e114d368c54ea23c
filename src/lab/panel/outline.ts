// A stage too large for one reply arrives as an outline (docs/protocol.md). The panel groups it with
// src/core/groups.ts — the one module-grouping rule, the one the drawing uses — so the counts it lists
// are the counts it draws; then it asks the kernel for one group's nodes by their positions.
import { buildHierarchy, type Group, type Hierarchy } from '../../core/groups';
import type { Role } from '../../core/types';
import type { Outline } from './protocol';

export interface GroupRow {
  key: string;
  label: string;
  cls: string;
  node_count: number;
  annotations: number;
  observers: number;
  qdq: number;
}

export class OutlineGroups {
  private readonly hier: Hierarchy;
  private readonly position = new Map<string, number>();
  private readonly role = new Map<string, Role>();
  private readonly annotated = new Set<string>();
  private readonly inside = new Map<string, string[]>();

  constructor(outline: Outline) {
    // the schema types a node as a 3-tuple; protocol.schema.json's description gives its parts
    const triples = outline.nodes as Array<[string, Role, number]>;
    const nodes = triples.map(([id, role, s]) => ({ id, role, module_stack: outline.stacks[s] ?? [] }));
    nodes.forEach((n, i) => {
      this.position.set(n.id, i);
      this.role.set(n.id, n.role);
    });
    for (const i of outline.annotated) if (nodes[i]) this.annotated.add(nodes[i].id);
    const edges = outline.edges
      .filter(([a, b]) => nodes[a] && nodes[b])
      .map(([a, b]) => ({ src: nodes[a].id, dst: nodes[b].id }));
    this.hier = buildHierarchy(nodes, edges);
  }

  has(key: string): boolean {
    return this.hier.groups.has(key);
  }

  /** The group's own name for the kernel's title: its module path, or its section's label. */
  title(key: string): string {
    const g = this.hier.groups.get(key);
    if (!g) return key;
    return g.synthetic ? `${this.title(g.parent?.key ?? '')} ${g.label}`.trim() : g.path;
  }

  /** One level up ('' is the whole graph, null above it). */
  parent(key: string): string | null {
    const g = this.hier.groups.get(key);
    return g?.parent ? g.parent.key : null;
  }

  /** The sub-groups of `key`, each with the counts of the nodes drawn inside it. */
  rows(key: string): GroupRow[] {
    const g = this.hier.groups.get(key);
    if (!g) return [];
    const out: GroupRow[] = [];
    for (const it of g.children) {
      if (it.kind !== 'group') continue;
      const ids = this.nodesIn(it.group);
      const roles = ids.map((id) => this.role.get(id));
      out.push({
        key: it.group.key,
        label: it.group.label,
        cls: it.group.cls,
        node_count: ids.length,
        annotations: ids.filter((id) => this.annotated.has(id)).length,
        observers: roles.filter((r) => r === 'observer').length,
        qdq: roles.filter((r) => r === 'quantize' || r === 'dequantize').length,
      });
    }
    return out;
  }

  /** Nodes of `key` that are in none of its sub-groups. */
  loose(key: string): number {
    return this.hier.groups.get(key)?.children.filter((it) => it.kind === 'node').length ?? 0;
  }

  /** The positions of every node inside `key`, as sorted [start, end) ranges (what get_stage's `nodes` takes). */
  ranges(key: string): Array<[number, number]> {
    const g = this.hier.groups.get(key);
    const at = (g ? this.nodesIn(g) : []).map((id) => this.position.get(id)!).sort((a, b) => a - b);
    const out: Array<[number, number]> = [];
    for (const p of at) {
      const last = out[out.length - 1];
      if (last && last[1] === p) last[1] = p + 1;
      else out.push([p, p + 1]);
    }
    return out;
  }

  private nodesIn(g: Group): string[] {
    let ids = this.inside.get(g.key);
    if (!ids) {
      ids = [];
      for (const it of g.children) ids.push(...(it.kind === 'node' ? [it.id] : this.nodesIn(it.group)));
      this.inside.set(g.key, ids);
    }
    return ids;
  }
}
