import { describe, expect, it, vi } from 'vitest';
import { buildHierarchy, initialExpanded } from '../../src/core/groups';
import { HierLayout } from '../../src/core/hier-layout';
import { getLayoutClient } from '../../src/core/layout-client';
import { layoutLayered } from '../../src/core/layout-core';
import { layoutGraph } from '../../src/core/layout-engine';
import { synthSnapshot } from './fixtures/synth.mjs';
import { countBy, fixture, mount } from './helpers';

/** Blob URLs as a page has them (jsdom has none): the worker pool makes one per worker. Returns the undo. */
function stubBlobUrls(): () => void {
  const url = URL as unknown as Record<string, unknown>;
  const saved = { create: url.createObjectURL, revoke: url.revokeObjectURL };
  url.createObjectURL = () => 'blob:layout';
  url.revokeObjectURL = () => undefined;
  return () => {
    url.createObjectURL = saved.create;
    url.revokeObjectURL = saved.revoke;
  };
}

describe('layout', () => {
  it('places every node and keeps edges going down (rank order)', () => {
    const nodes = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, w: 80, h: 40 }));
    const edges: Array<[string, string]> = [
      ['a', 'b'],
      ['a', 'c'],
      ['b', 'd'],
      ['c', 'd'],
      ['d', 'e'],
    ];
    const r = layoutGraph({ id: 1, nodes, edges });
    expect(r.engine).toBe('dagre');
    for (const n of nodes) expect(r.pos[n.id]).toEqual([expect.any(Number), expect.any(Number)]);
    for (const [a, b] of edges) expect(r.pos[a][1]).toBeLessThan(r.pos[b][1]);
    expect(r.pos.b[1]).toBe(r.pos.c[1]); // same rank
    expect(r.pos.b[0]).not.toBe(r.pos.c[0]);
    expect(r.width).toBeGreaterThan(80);
  });

  it('hierarchical layout of the conv net: every node placed inside its group box, edges in rank order', async () => {
    const snap = fixture('conv_prepared.json').panes[0].snapshot;
    const h = buildHierarchy(snap.nodes, snap.edges);
    const nodes = new Map<string, any>(snap.nodes.map((n: any) => [n.id, n]));
    const hl = new HierLayout(h, nodes, getLayoutClient(false));
    const p = await hl.place(initialExpanded(h, snap.nodes.length, 300));
    for (const n of snap.nodes) {
      const b = p.boxes.get(`n:${n.id}`)!;
      expect(b, n.id).toBeDefined();
      for (let g = h.parentOf.get(n.id)!; g.parent; g = g.parent) {
        const gb = p.boxes.get(`g:${g.key}`)!;
        expect(b.x - b.w / 2).toBeGreaterThanOrEqual(gb.x - gb.w / 2);
        expect(b.x + b.w / 2).toBeLessThanOrEqual(gb.x + gb.w / 2);
        expect(b.y - b.h / 2).toBeGreaterThanOrEqual(gb.y - gb.h / 2);
        expect(b.y + b.h / 2).toBeLessThanOrEqual(gb.y + gb.h / 2);
      }
    }
    for (const e of snap.edges) {
      expect(p.boxes.get(`n:${e.src}`)!.y, `${e.src}->${e.dst}`).toBeLessThan(p.boxes.get(`n:${e.dst}`)!.y);
    }
  });

  it('gives each laid-out edge its route in absolute terms: from the source box to the target box, kept per placement', async () => {
    const snap = synthSnapshot(2000);
    const h = buildHierarchy(snap.nodes, snap.edges);
    const hl = new HierLayout(h, new Map<string, any>(snap.nodes.map((n: any) => [n.id, n])), getLayoutClient(false));
    const all = new Set(h.groups.keys());
    const p = await hl.place(all);
    const abs = (g: any, ka: string, kb: string) => {
      const r = p.route(g, ka, kb);
      return r ? r.pts.map(([x, y]) => [r.ox + x, r.oy + y]) : null;
    };
    // on a box's border (dagre ends a route where it meets the box), within rounding
    const onBorder = ([x, y]: number[], b: { x: number; y: number; w: number; h: number }) =>
      Math.abs(x - b.x) <= b.w / 2 + 0.5 &&
      Math.abs(y - b.y) <= b.h / 2 + 0.5 &&
      (Math.abs(Math.abs(x - b.x) - b.w / 2) < 0.5 || Math.abs(Math.abs(y - b.y) - b.h / 2) < 0.5);
    const before = new Map<string, number[][] | null>();
    let many = 0;
    for (const g of h.groups.values()) {
      const es = h.edgesAt.get(g.key) ?? [];
      if (es.length > 16) many++;
      for (const [ka, kb] of es) {
        const pts = abs(g, ka, kb);
        expect(pts, `${ka} -> ${kb}`).not.toBeNull();
        expect(onBorder(pts![0], p.boxes.get(ka)!), `${ka} start`).toBe(true);
        expect(onBorder(pts![pts!.length - 1], p.boxes.get(kb)!), `${kb} end`).toBe(true);
        before.set(`${ka} ${kb}`, pts);
      }
    }
    expect(many).toBeGreaterThan(0); // both lookups: a scan of a few edges, the index of a group with many
    expect(before.size).toBeGreaterThan(1000);
    // no route inside a closed group, and a later pass (another layout of the groups) leaves this one as it was
    const top = await hl.place(new Set(['']));
    const closed = [...h.groups.values()].find((g) => g.parent && (h.edgesAt.get(g.key) ?? []).length)!;
    const [ka, kb] = h.edgesAt.get(closed.key)![0];
    expect(top.route(closed, ka, kb)).toBeNull();
    for (const g of h.groups.values())
      for (const [a, b] of h.edgesAt.get(g.key) ?? []) expect(abs(g, a, b)).toEqual(before.get(`${a} ${b}`));
  });

  it('draws one node element per JSON node, with the JSON role', async () => {
    for (const name of ['conv_prepared.json', 'conv_converted.json']) {
      const view = fixture(name);
      const { el } = await mount(view, { worker: false });
      const drawn = [...el.querySelectorAll('.pl-node')].map((g) => g.getAttribute('data-role')!);
      expect(countBy(drawn, (r) => r)).toEqual(countBy(view.panes[0].snapshot.nodes, (n: any) => n.role));
      expect(el.querySelectorAll('.pl-edge').length).toBe(view.panes[0].snapshot.edges.length);
    }
  });

  it('lays out in the page thread when Worker is missing, refused (CSP) or failing, with the layered pass', async () => {
    const req = {
      nodes: ['a', 'b', 'c'].map((id) => ({ id, w: 80, h: 40 })),
      edges: [
        ['a', 'b'],
        ['a', 'c'],
      ] as Array<[string, string]>,
    };
    const want = layoutLayered({ id: 1, ...req }).pos;
    class Refused {
      constructor() {
        throw new Error('Content-Security-Policy refuses blob: workers');
      }
    }
    class Failing {
      onerror: ((e: Event) => void) | null = null;
      onmessage: unknown = null;
      postMessage() {
        setTimeout(() => this.onerror?.(new Event('error')), 0);
      }
      terminate() {}
    }
    const restore = stubBlobUrls();
    try {
      for (const worker of [undefined, Refused, Failing]) {
        vi.resetModules(); // a fresh page-wide client for each case
        vi.stubGlobal('Worker', worker);
        const fresh = await import('../../src/core/layout-client');
        const client = fresh.getLayoutClient();
        expect((await client.layout(req)).pos, String(worker?.name)).toEqual(want);
        expect(client.mode).toBe('inline');
      }
    } finally {
      vi.unstubAllGlobals();
      restore();
    }
  });
  it('spreads layouts over two workers on a 2-core machine, the least busy first, same results', async () => {
    const req = (k: number) => ({
      nodes: ['a', 'b', 'c'].map((id) => ({ id: `${id}${k}`, w: 80 + k * 16, h: 40 })),
      edges: [[`a${k}`, `b${k}`]] as Array<[string, string]>,
    });
    const got: number[] = [];
    let made = 0;
    class FakeWorker {
      onmessage: ((e: { data: unknown }) => void) | null = null;
      onerror: unknown = null;
      me = made++;
      postMessage(m: any) {
        got.push(this.me);
        setTimeout(() => this.onmessage?.({ data: layoutGraph(m) }), 5);
      }
      terminate() {}
    }
    const restore = stubBlobUrls();
    try {
      vi.resetModules();
      vi.stubGlobal('Worker', FakeWorker);
      vi.stubGlobal('navigator', { ...navigator, hardwareConcurrency: 2 });
      const fresh = await import('../../src/core/layout-client');
      const client = fresh.getLayoutClient();
      const rs = await Promise.all([0, 1, 2, 3].map((k) => client.layout(req(k))));
      expect(made).toBe(2);
      expect(got).toEqual([0, 1, 0, 1]);
      for (const [k, r] of rs.entries()) expect(r.pos).toEqual(layoutGraph({ id: 0, ...req(k) }).pos);
      expect(client.mode).toBe('worker');
    } finally {
      vi.unstubAllGlobals();
      restore();
    }
  });
});
