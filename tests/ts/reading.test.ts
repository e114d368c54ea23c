// Issue 15's reading points: findings grouped by rule below the graph, search filters and stepping, compare
// panes that move together, the details drawer's `why` lines and identifier breaks.
import { describe, expect, it } from 'vitest';
import { alignView } from '../../src/core/compare-sync';
import { Facts } from '../../src/core/facts';
import { groupFindings } from '../../src/core/findings-list';
import { nodeKey } from '../../src/core/groups';
import { makeHeat } from '../../src/core/heat';
import { parseQuery, searchNodes, worstNode } from '../../src/core/search';
import { fixture, mount, paneIdle } from './helpers';

const click = (e: Element) => e.dispatchEvent(new MouseEvent('click', { bubbles: true }));

/** conv_prepared with one fp32-island finding per node (the way 251 of them arrive on a big model) */
function manyFindings(): any {
  const view = fixture('conv_prepared.json');
  const snap = view.panes[0].snapshot;
  for (const n of snap.nodes)
    snap.findings.push({ kind: 'fp32-island', message: `${n.id} runs in fp32`, nodes: [n.id] });
  return view;
}

describe('findings: one line per rule, below the graph', () => {
  it('groups by kind in first-seen order and keeps every finding', () => {
    const view = manyFindings();
    const fs = view.panes[0].snapshot.findings;
    const groups = groupFindings(fs);
    expect(groups.map((g) => g.kind)).toEqual([...new Set(fs.map((f: any) => f.kind))]);
    expect(groups.reduce((s, g) => s + g.findings.length, 0)).toBe(fs.length);
  });

  it('draws one closed line per kind after the graph; an entry centres and selects its node', async () => {
    const view = manyFindings();
    const snap = view.panes[0].snapshot;
    const { el, handle } = await mount(view, { worker: false });
    const pane = el.querySelector('.pl-pane')!;
    const kids = [...pane.children].map((c) => c.className);
    expect(kids.indexOf('pl-findings')).toBeGreaterThan(kids.indexOf('pl-graph'));
    const lines = [...pane.querySelectorAll('.pl-findings > details')] as HTMLDetailsElement[];
    expect(lines.map((d) => d.dataset.kind)).toEqual(['overwritten', 'fp32-island']);
    const island = lines[1];
    expect(island.open).toBe(false);
    expect(island.querySelector('summary')!.textContent).toContain(`${snap.nodes.length} × fp32-island`);
    expect(island.querySelectorAll('li').length).toBe(0); // built when opened
    island.open = true;
    island.dispatchEvent(new Event('toggle'));
    const links = [...island.querySelectorAll('button.pl-flink')];
    expect(links.map((b) => b.textContent)).toEqual(snap.nodes.map((n: any) => n.id));
    const target = snap.nodes[snap.nodes.length - 2].id;
    click(links[snap.nodes.length - 2]);
    await new Promise((r) => setTimeout(r, 0));
    const gv = handle.panes[0];
    expect(gv.selected).toBe(target);
    expect(pane.querySelector('.pl-drawer')!.hasAttribute('hidden')).toBe(false);
    expect(pane.querySelector(`.pl-node[data-id="${target}"]`)!.classList.contains('pl-selected')).toBe(true);
  });
});

describe('search filters', () => {
  const view = fixture('compare.json');
  const snap = view.panes[0].snapshot;
  const f = new Facts(snap);

  it('parses words, key:value filters and overlay thresholds', () => {
    expect(parseQuery('conv role:observer SQNR<30 group:2')).toEqual({
      words: ['conv'],
      filters: [
        { key: 'role', value: 'observer' },
        { key: 'overlay', name: 'sqnr', op: '<', value: 30 },
        { key: 'group', value: '2' },
      ],
    });
    expect(parseQuery('nope:x').words).toEqual(['nope:x']);
  });

  it('role, module, group, dtype and quantizer select what the JSON says', () => {
    const ids = (q: string) => searchNodes(snap.nodes, f, null, q);
    expect(ids('role:observer')).toEqual(snap.nodes.filter((n: any) => n.role === 'observer').map((n: any) => n.id));
    expect(ids('module:features.conv1')).toEqual(
      snap.nodes
        .filter((n: any) => n.module_stack.some(([p]: string[]) => p === 'features.conv1'))
        .map((n: any) => n.id),
    );
    const o = snap.observers[2];
    const inGroup = new Set(snap.observers.filter((x: any) => x.group === o.group).flatMap((x: any) => [x.observes]));
    const got = ids(`group:${o.group}`);
    // the group's observer nodes and the tensors they observe
    for (const n of snap.nodes.filter((n: any) => n.observer && f.observer.get(n.observer)!.group === o.group))
      expect(got).toContain(n.id);
    for (const t of inGroup) if (t) expect(got).toContain(t);
    const annotated = snap.annotations.filter((a: any) => a.quantizer === 'XNNPACKQuantizer').map((a: any) => a.node);
    expect(new Set(ids('quantizer:xnnpack'))).toEqual(new Set(annotated));
    expect(ids('dtype:float32 role:param').length).toBe(
      snap.nodes.filter((n: any) => n.role === 'param' && n.dtype === 'float32').length,
    );
    expect(ids('')).toEqual([]);
  });

  it('sqnr<N uses the overlay; the worst node is the lowest SQNR', () => {
    const acc = fixture('accuracy.json');
    const s = acc.panes[0].snapshot;
    const heat = makeHeat(acc.panes[0].overlay);
    const vals = Object.entries(acc.panes[0].overlay.values as Record<string, number>).filter(
      ([, v]) => typeof v === 'number',
    );
    const below = vals.filter(([, v]) => v < 25).map(([k]) => k);
    expect(new Set(searchNodes(s.nodes, new Facts(s), heat, 'sqnr<25'))).toEqual(new Set(below));
    const min = vals.reduce((a, b) => (b[1] < a[1] ? b : a));
    expect(worstNode(s.nodes, heat)).toBe(min[0]);
  });

  it('Enter steps through the hits, selecting and centring each', async () => {
    const { el, handle } = await mount(fixture('conv_prepared.json'), { worker: false });
    const input = el.querySelector('.pl-toolbar input') as HTMLInputElement;
    input.value = 'role:observer';
    const gv = handle.panes[0];
    const hits = gv.search(input.value);
    expect(hits.length).toBeGreaterThan(2);
    for (const want of [hits[0], hits[1], hits[2]]) {
      input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));
      await new Promise((r) => setTimeout(r, 0));
      expect(gv.selected).toBe(want);
    }
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', shiftKey: true }));
    await new Promise((r) => setTimeout(r, 0));
    expect(gv.selected).toBe(hits[1]);
    expect(el.querySelector('.pl-results .pl-status')!.textContent).toBe(`2 of ${hits.length}`);
  });

  it('a pane with an overlay has a Worst button that selects the worst node', async () => {
    const acc = fixture('accuracy.json');
    const { el, handle } = await mount(acc, { worker: false });
    const b = el.querySelector('button.pl-worst')!;
    expect(b.textContent).toBe('Worst SQNR');
    click(b);
    await new Promise((r) => setTimeout(r, 0));
    expect(handle.panes[0].selected).toBe(worstNode(acc.panes[0].snapshot.nodes, makeHeat(acc.panes[0].overlay)));
  });
});

describe('compare panes move together', () => {
  it('opening or closing a group in one pane does the same in the other', async () => {
    const { handle } = await mount(fixture('compare.json'), { worker: false, collapseThreshold: 0 });
    const [a, b] = handle.panes;
    const key = 'features';
    expect(a.expanded.has(key)).toBe(b.expanded.has(key));
    const was = a.expanded.has(key);
    await a.toggle(key);
    // pane b follows a's toggle: its redraw began as a's ended; settled once drawn
    await paneIdle(b);
    expect(a.expanded.has(key)).toBe(!was);
    expect(b.expanded.has(key)).toBe(!was);
  });

  it('a pan moves the other pane by the same screen amount, a zoom scales it to the same scale about the same point', async () => {
    const view = fixture('compare.json');
    const { handle } = await mount(view, { worker: false });
    const [a, b] = handle.panes;
    const pz = a.panZoom!;
    const mate = view.diffs[0].kept.find(([x]: string[]) => x === 'conv2d_1')[1];
    const mb = b.placement!.boxes.get(nodeKey(mate))!;
    const onScreen = (): [number, number] => {
      const t = b.panZoom!.t;
      return [t.x + mb.x * t.k, t.y + mb.y * t.k];
    };
    // a drag 40 px right and 25 px up in pane a
    const [x0, y0] = onScreen();
    let before = { ...pz.t };
    pz.t = { ...before, x: before.x + 40, y: before.y - 25 };
    for (const f of pz.onUserMove) f(before);
    expect(onScreen()[0]).toBeCloseTo(x0 + 40);
    expect(onScreen()[1]).toBeCloseTo(y0 - 25);
    // a wheel zoom ×1.5 about screen point (300, 200) in pane a
    before = { ...pz.t };
    const [px, py, r] = [300, 200, 1.5];
    pz.t = { k: before.k * r, x: px - (px - before.x) * r, y: py - (py - before.y) * r };
    const [x1, y1] = onScreen();
    const rb = pz.t.k / b.panZoom!.t.k;
    for (const f of pz.onUserMove) f(before);
    expect(b.panZoom!.t.k).toBeCloseTo(pz.t.k);
    expect(onScreen()[0]).toBeCloseTo(px + (x1 - px) * rb);
    expect(onScreen()[1]).toBeCloseTo(py + (y1 - py) * rb);
    // alignView (a pane whose view does not match yet): the counterpart of the centre node at the same screen point
    const box = a.placement!.boxes.get(nodeKey('conv2d_1'))!;
    pz.t = { k: 1.1, x: 400 - box.x * 1.1, y: 260 - box.y * 1.1 };
    alignView(a, b, (id) => (id === 'conv2d_1' ? [mate] : []));
    const tb = b.panZoom!.t;
    expect(tb.k).toBeCloseTo(1.1);
    expect(tb.x + mb.x * tb.k).toBeCloseTo(400);
    expect(tb.y + mb.y * tb.k).toBeCloseTo(260);
    // and back
    alignView(b, a, (id) => (id === mate ? ['conv2d_1'] : []));
    expect(a.panZoom!.t.x + box.x * a.panZoom!.t.k).toBeCloseTo(400);
  });

  it('selecting in one pane selects and reveals the counterpart in the other', async () => {
    const view = fixture('compare.json');
    const { el, handle } = await mount(view, { worker: false });
    const [a] = handle.panes;
    await a.select('conv2d_1', { notify: true });
    await new Promise((r) => setTimeout(r, 0));
    const other = el.querySelectorAll('.pl-pane')[1];
    const mate = view.diffs[0].kept.find(([x]: string[]) => x === 'conv2d_1')[1];
    expect(other.querySelector(`.pl-node[data-id="${mate}"]`)!.classList.contains('pl-counterpart')).toBe(true);
    expect(other.querySelector('.pl-drawer')!.hasAttribute('hidden')).toBe(false);
  });
});

describe('details drawer', () => {
  it("shows a node's why lines and lets identifiers break at _ and . only", async () => {
    const view = fixture('conv_prepared.json');
    const n = view.panes[0].snapshot.nodes.find((x: any) => x.role === 'observer');
    n.why = ['observes the conv2d output', 'shares group 1 with the add input'];
    const { el, handle } = await mount(view, { worker: false });
    await handle.panes[0].select(n.id);
    const det = el.querySelector('.pl-details')!;
    expect([...det.querySelectorAll('.pl-why li')].map((li) => li.textContent)).toEqual(n.why);
    const h4 = det.querySelector('h4')!;
    expect(h4.textContent).toContain(n.id);
    // a <wbr> after every _ of the name, nowhere else
    expect(h4.querySelectorAll('wbr').length).toBe((n.id.match(/[_.]/g) ?? []).length);
  });
});

describe('_guards_fn', () => {
  it('is hidden unless a focus names it', async () => {
    const view = fixture('real_compare.json');
    expect(view.panes[0].snapshot.nodes.some((n: any) => n.id === '_guards_fn')).toBe(true);
    const { el } = await mount(view, { worker: false });
    expect(el.querySelector('.pl-node[data-id="_guards_fn"]')).toBeNull();
    expect(el.querySelector('.pl-node[data-id="conv2d"]')).not.toBeNull();
    const asked = fixture('real_compare.json');
    asked.focus = [['_guards_fn', 'x'], ['x']];
    const shown = await mount(asked, { worker: false });
    expect(shown.el.querySelector('.pl-pane[data-pane="0"] .pl-node[data-id="_guards_fn"]')).not.toBeNull();
  });
});
