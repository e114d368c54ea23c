// @vitest-environment node
// (no DOM here: the node environment spares this file the set-up of jsdom)
import { describe, expect, it } from 'vitest';
import { buildHierarchy, groupKey, initialExpanded } from '../../src/core/groups';
import { HierLayout } from '../../src/core/hier-layout';
import { type LayeredNode, layeredLayout } from '../../src/core/layered-layout';
import { getLayoutClient } from '../../src/core/layout-client';
import { DAGRE_MAX, layoutGraph } from '../../src/core/layout-engine';
import { synthSnapshot } from './fixtures/synth.mjs';

type E = Array<[string, string]>;

/** A PT2E-like graph: a chain of ops, each with a weight (a source feeding it), an observer after every
 * third op, and a residual add every 4 ops (a skip connection over 3 ops). */
function pt2eLike(ops: number): { nodes: LayeredNode[]; edges: E; chain: string[]; skips: number[] } {
  const skips: number[] = [];
  const nodes: LayeredNode[] = [{ id: 'x', w: 64, h: 40 }];
  const edges: E = [];
  const chain = ['x'];
  let prev = 'x';
  let skipFrom = 'x';
  for (let i = 0; i < ops; i++) {
    const op = `op${i}`;
    nodes.push({ id: op, w: 96 + (i % 3) * 16, h: 40 }, { id: `w${i}`, w: 160, h: 40 });
    edges.push([prev, op], [`w${i}`, op]);
    chain.push(op);
    prev = op;
    if (i % 3 === 2) {
      nodes.push({ id: `obs${i}`, w: 128, h: 40 });
      edges.push([prev, `obs${i}`]);
      chain.push(`obs${i}`);
      prev = `obs${i}`;
    }
    if (i % 4 === 3) {
      nodes.push({ id: `add${i}`, w: 80, h: 40 });
      edges.push([prev, `add${i}`], [skipFrom, `add${i}`]);
      skips.push(edges.length - 1);
      chain.push(`add${i}`);
      prev = `add${i}`;
      skipFrom = prev;
    }
  }
  return { nodes, edges, chain, skips };
}

/** A random DAG (edges from lower to higher index), seeded. */
function randomDag(n: number, m: number, seed: number): { nodes: LayeredNode[]; edges: E } {
  let s = seed;
  const rnd = (): number => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
  const nodes = Array.from({ length: n }, (_, i) => ({ id: `v${i}`, w: 40 + Math.floor(rnd() * 10) * 16, h: 40 }));
  const edges: E = [];
  for (let k = 0; k < m; k++) {
    const a = Math.floor(rnd() * (n - 1));
    const b = a + 1 + Math.floor(rnd() * Math.min(6, n - a - 1));
    edges.push([`v${a}`, `v${b}`]);
  }
  return { nodes, edges };
}

function overlaps(nodes: LayeredNode[], pos: Record<string, [number, number]>): string[] {
  const bad: string[] = [];
  const sorted = nodes.slice().sort((a, b) => pos[a.id][1] - pos[b.id][1]);
  for (let i = 0; i < sorted.length; i++)
    for (let j = i + 1; j < sorted.length; j++) {
      const a = sorted[i];
      const b = sorted[j];
      const [ax, ay] = pos[a.id];
      const [bx, by] = pos[b.id];
      if (by - b.h / 2 >= ay + a.h / 2) break; // sorted by y: nothing further down can overlap a
      if (Math.abs(ax - bx) < (a.w + b.w) / 2 - 0.01 && Math.abs(ay - by) < (a.h + b.h) / 2 - 0.01)
        bad.push(`${a.id}/${b.id}`);
    }
  return bad;
}

describe('layered layout (big groups)', () => {
  const cases = { pt2e: pt2eLike(200), dag: randomDag(300, 600, 7) };

  for (const [name, g] of Object.entries(cases)) {
    it(`${name}: no two boxes overlap, all inside [0, width] × [0, height]`, () => {
      const r = layeredLayout(g.nodes, g.edges);
      expect(overlaps(g.nodes, r.pos)).toEqual([]);
      for (const n of g.nodes) {
        const [x, y] = r.pos[n.id];
        expect(x - n.w / 2).toBeGreaterThanOrEqual(-0.01);
        expect(x + n.w / 2).toBeLessThanOrEqual(r.width + 0.01);
        expect(y - n.h / 2).toBeGreaterThanOrEqual(-0.01);
        expect(y + n.h / 2).toBeLessThanOrEqual(r.height + 0.01);
      }
    });

    it(`${name}: every edge goes down, and its route runs from the bottom of its source to the top of its target`, () => {
      const r = layeredLayout(g.nodes, g.edges);
      const size = new Map(g.nodes.map((n) => [n.id, n]));
      g.edges.forEach(([a, b], i) => {
        expect(r.pos[a][1] + size.get(a)!.h / 2, `${a}->${b}`).toBeLessThan(r.pos[b][1] - size.get(b)!.h / 2);
        const route = r.routes[i];
        expect(route[0]).toEqual([r.pos[a][0], r.pos[a][1] + size.get(a)!.h / 2]);
        expect(route[route.length - 1]).toEqual([r.pos[b][0], r.pos[b][1] - size.get(b)!.h / 2]);
        for (let k = 1; k < route.length; k++) expect(route[k][1]).toBeGreaterThanOrEqual(route[k - 1][1]);
      });
    });
  }

  it('keeps the main chain straight: weights, observers and skip connections go beside it', () => {
    const g = pt2eLike(200);
    const r = layeredLayout(g.nodes, g.edges);
    const xs = new Set(g.chain.map((id) => Math.round(r.pos[id][0])));
    expect([...xs]).toHaveLength(1);
    // each skip connection is routed through the ranks it crosses, never through a box of the chain
    const cx = r.pos.x[0];
    expect(g.skips.length).toBe(50);
    for (const i of g.skips) {
      const inner = r.routes[i].slice(1, -1);
      expect(inner.length, g.edges[i].join('->')).toBeGreaterThan(0);
      for (const [px] of inner) expect(Math.abs(px - cx)).toBeGreaterThan(40);
    }
  });

  it('a plain chain is one straight column, in order', () => {
    const nodes = Array.from({ length: 500 }, (_, i) => ({ id: `c${i}`, w: 64 + (i % 5) * 16, h: 40 }));
    const edges: E = nodes.slice(1).map((n, i) => [nodes[i].id, n.id]);
    const r = layeredLayout(nodes, edges);
    for (const n of nodes) expect(r.pos[n.id][0]).toBeCloseTo(r.pos.c0[0], 6);
    for (let i = 1; i < nodes.length; i++) expect(r.pos[`c${i}`][1]).toBeGreaterThan(r.pos[`c${i - 1}`][1]);
    expect(r.width).toBe(128);
  });

  it('is deterministic', () => {
    const g = randomDag(400, 900, 3);
    expect(layeredLayout(g.nodes, g.edges)).toEqual(layeredLayout(g.nodes, g.edges));
  });

  it('survives cycles, self loops, duplicate and dangling edges (group-level graphs have them)', () => {
    const nodes = ['a', 'b', 'c', 'd'].map((id) => ({ id, w: 80, h: 40 }));
    const edges: E = [
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'a'],
      ['c', 'd'],
      ['d', 'd'],
      ['a', 'b'],
      ['a', 'zz'],
    ];
    const r = layeredLayout(nodes, edges);
    expect(overlaps(nodes, r.pos)).toEqual([]);
    expect(r.routes[4]).toEqual([]);
    expect(r.routes[6]).toEqual([]);
    expect(r.routes[5]).toEqual(r.routes[0]);
    // the edge that closes the cycle is drawn upwards, still from its source (top) to its target (bottom)
    const back = r.routes[2];
    expect(back[0]).toEqual([r.pos.c[0], r.pos.c[1] - 20]);
    expect(back[back.length - 1]).toEqual([r.pos.a[0], r.pos.a[1] + 20]);
  });

  it('layoutGraph uses it above DAGRE_MAX children and dagre below', () => {
    const small = pt2eLike(10);
    expect(small.nodes.length).toBeLessThanOrEqual(DAGRE_MAX);
    expect(layoutGraph({ id: 1, ...small }).engine).toBe('dagre');
    const big = pt2eLike(100);
    expect(big.nodes.length).toBeGreaterThan(DAGRE_MAX);
    const r = layoutGraph({ id: 2, ...big });
    expect(r.engine).toBe('layered');
    expect(r.routes).toHaveLength(big.edges.length);
  });

  it('expanding a 400-block section of a 20k graph: sibling boxes apart, inside the section, edges downward', async () => {
    const snap = synthSnapshot(20000);
    const h = buildHierarchy(snap.nodes, snap.edges);
    const hl = new HierLayout(h, new Map(snap.nodes.map((n: any) => [n.id, n])), getLayoutClient(false));
    let big = h.root;
    for (const g of h.groups.values()) if (g.parent && g.children.length > big.children.length) big = g;
    expect(big.children.length).toBe(400);
    const ex = initialExpanded(h, snap.nodes.length, 300);
    for (let g = big; g.parent; g = g.parent) ex.add(g.key);
    const p = await hl.place(ex);
    const sec = p.boxes.get(groupKey(big.key))!;
    const kids = big.children.map((c) => p.boxes.get(c.kind === 'node' ? `n:${c.id}` : groupKey(c.group.key))!);
    const asNodes = kids.map((b) => ({ id: b.key, w: b.w, h: b.h }));
    expect(overlaps(asNodes, Object.fromEntries(kids.map((b) => [b.key, [b.x, b.y] as [number, number]])))).toEqual([]);
    for (const b of kids) {
      expect(b.x - b.w / 2).toBeGreaterThanOrEqual(sec.x - sec.w / 2);
      expect(b.x + b.w / 2).toBeLessThanOrEqual(sec.x + sec.w / 2 + 0.01);
    }
    for (const [a, b] of h.edgesAt.get(big.key) ?? []) expect(p.boxes.get(a)!.y).toBeLessThan(p.boxes.get(b)!.y);
  });
});
