import { describe, expect, it } from 'vitest';
import {
  buildHierarchy,
  groupKey,
  groupOfKey,
  initialExpanded,
  isGroupKey,
  isNodeKey,
  itemKey,
  MAX_CHILDREN,
  nodeKey,
  representative,
} from '../../src/core/groups';
import { repsOf } from '../../src/core/reps';
// @ts-expect-error plain JS fixture generator
import { synthView } from './fixtures/synth.mjs';
import { mount } from './helpers';

describe('module groups', () => {
  it('20k-node snapshot: groups split into sections, every node in exactly one group', () => {
    const snap = synthView(20000).panes[0].snapshot;
    const h = buildHierarchy(snap.nodes, snap.edges);
    expect(h.parentOf.size).toBe(snap.nodes.length);
    for (const g of h.groups.values()) expect(g.children.length).toBeLessThanOrEqual(MAX_CHILDREN);
    expect(h.root.total).toBe(snap.nodes.length);
    // weights (no module stack) sit with their consumer's module
    expect(h.parentOf.get('w1_7')!.key).toBe('layers.7.conv1');
    // a reused leaf module (layers.N.relu called twice, calls not linked) is drawn as its nodes
    expect(h.groups.has('layers.7.relu')).toBe(false);
    expect(h.parentOf.get('relu_7')!.key).toBe('layers.7');
    expect(h.parentOf.get('out_7')!.key).toBe('layers.7');
  });

  it('the box each node is drawn in: the node, or its outermost closed group, as the walk up from the node says', () => {
    const snap = synthView(6000).panes[0].snapshot;
    const h = buildHierarchy(snap.nodes, snap.edges);
    const some = initialExpanded(h, snap.nodes.length, 300);
    for (const g of [...h.groups.keys()].filter((_, i) => i % 3 === 0)) some.add(g);
    for (const ex of [initialExpanded(h, snap.nodes.length, 300), some, new Set(h.groups.keys())]) {
      const reps = repsOf(h.root, ex);
      expect(reps.size).toBe(snap.nodes.length);
      for (const n of snap.nodes) expect(reps.get(n.id), n.id).toBe(representative(h, ex, n.id));
    }
  });

  it('duplicate edges and edges to ids no node has group as the ids say; a repeated id still groups', () => {
    const nodes = [
      { id: 'x', role: 'input', module_stack: [] },
      { id: 'w', role: 'param', module_stack: [] },
      {
        id: 'a',
        role: 'compute',
        module_stack: [
          ['m', 'M'],
          ['m.l', 'Linear'],
        ],
      },
      { id: 'q', role: 'quantize', module_stack: [] },
      {
        id: 'b',
        role: 'compute',
        module_stack: [
          ['m', 'M'],
          ['m.l', 'Linear'],
        ],
      },
    ] as Array<{ id: string; role: 'input' | 'param' | 'compute' | 'quantize'; module_stack: Array<[string, string]> }>;
    const edges = [
      { src: 'x', dst: 'a' },
      { src: 'w', dst: 'a' },
      { src: 'a', dst: 'b' },
      { src: 'a', dst: 'b' },
      { src: 'q', dst: 'b' },
      { src: 'q', dst: 'ghost' }, // a consumer outside the graph: q has no module to join
      { src: 'ghost', dst: 'b' },
    ];
    const h = buildHierarchy(nodes, edges);
    expect([...h.parentOf].map(([k, v]) => `${k}→${v.key}`)).toEqual(['x→', 'w→m.l', 'a→m.l', 'b→m.l', 'q→']);
    expect([...h.groups.keys()]).toEqual(['', 'm', 'm.l']);
    expect([...h.edgesAt]).toEqual([
      [
        '',
        [
          ['n:x', 'g:m'],
          ['n:q', 'g:m'],
        ],
      ],
      [
        'm.l',
        [
          ['n:w', 'n:a'],
          ['n:a', 'n:b'],
        ],
      ],
    ]);
    // no FX graph repeats a name, but a hand-made View may: every node is still drawn once
    const twice = buildHierarchy([...nodes, { ...nodes[2], module_stack: [['k', 'K']] }], edges);
    expect(twice.root.total).toBe(nodes.length + 1);
  });

  // how fast it opens is measured in bench/views.mjs, not asserted here (a wall clock fails on a loaded machine)
  it('a 20k-node graph opens collapsed and a group opens on click', async () => {
    const view = synthView(20000);
    const { el, handle } = await mount(view, { worker: false });
    const svg = el.querySelector('svg')!;
    expect(Number(svg.getAttribute('data-nodes'))).toBeLessThan(10);
    expect(el.querySelectorAll('.pl-node').length).toBeLessThan(10);
    const closed = el.querySelectorAll('.pl-group.pl-collapsed');
    expect(closed.length).toBeGreaterThan(0);
    const layers = el.querySelector('.pl-group.pl-collapsed[data-group="layers"]')!;
    expect(layers.textContent).toContain(`${view.panes[0].snapshot.nodes.length - 2} nodes`);
    layers.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    await handle.panes[0].ready;
    await new Promise((r) => setTimeout(r, 0));
    await (handle.panes[0] as any).busy;
    expect(el.querySelector('.pl-group.pl-expanded[data-group="layers"]')).not.toBeNull();
    expect(el.querySelectorAll('.pl-group.pl-collapsed').length).toBeGreaterThan(closed.length - 1);
  });

  it('a widely shared input is drawn as stubs and left out of layout', async () => {
    const view = synthView(200, { mask: true });
    const snap = view.panes[0].snapshot;
    const h = buildHierarchy(snap.nodes, snap.edges);
    expect([...h.stubbed]).toEqual(['mask']);
    for (const list of h.edgesAt.values()) for (const [a] of list) expect(a).not.toBe('n:mask');
    const { el } = await mount(view, { worker: false });
    const maskEdges = snap.edges.filter((e: any) => e.src === 'mask').length;
    expect(el.querySelectorAll('.pl-stub[data-src="mask"]').length).toBe(maskEdges);
    expect(el.querySelector('.pl-stub .pl-stub-label')!.textContent).toBe('mask');
    expect(el.querySelectorAll('.pl-edge:not(.pl-stub-line)').length).toBe(snap.edges.length - maskEdges);
  });

  it('small graphs open fully expanded', async () => {
    const view = synthView(100);
    const { el } = await mount(view, { worker: false });
    expect(el.querySelectorAll('.pl-node').length).toBe(view.panes[0].snapshot.nodes.length);
    expect(el.querySelectorAll('.pl-group.pl-collapsed').length).toBe(0);
  });
});

describe('box keys', () => {
  it('tell a node box from a group box, whatever the id holds', () => {
    for (const id of ['conv2d', 'g:looks_like_a_group', 'n:', '']) {
      expect(isNodeKey(nodeKey(id))).toBe(true);
      expect(isGroupKey(nodeKey(id))).toBe(false);
    }
    for (const key of ['layer1.0', 'n:odd', '']) {
      expect(isGroupKey(groupKey(key))).toBe(true);
      expect(isNodeKey(groupKey(key))).toBe(false);
      expect(groupOfKey(groupKey(key))).toBe(key);
    }
    expect(itemKey({ kind: 'node', id: 'relu' })).toBe(nodeKey('relu'));
  });
});
