// Pure logic of the views: closed-group badges counted from the JSON, fit scale, note wrapping, table columns.
import { describe, expect, it } from 'vitest';
import { badgesOf, prepareSummary, summarize, summaryOf } from '../../src/core/badges';
import { noteBox, textWidth, wrapText } from '../../src/core/callout';
import { Facts } from '../../src/core/facts';
import { ancestors, buildHierarchy } from '../../src/core/groups';
import { makeHeat } from '../../src/core/heat';
import { fitScale, GROW_MAX, MIN_HEIGHT, MIN_READABLE, paneHeight } from '../../src/core/pan-zoom';
import { columnOrder, signed } from '../../src/core/tables';
import { zoomedOut } from '../../src/core/zoom-labels';
import { synthView } from './fixtures/synth.mjs';
import { fixture } from './helpers';

describe('closed-group badges', () => {
  it('made ahead in slices: the summaries and order of one recursive walk, taken only for the same facts and overlay', async () => {
    let pauses = 0;
    for (const name of ['real_large.json', 'real_lowered.json', 'real_accuracy.json', 'synth-6k']) {
      const view = name === 'synth-6k' ? synthView(6000) : fixture(name);
      const snap = view.panes[0].snapshot;
      const f = new Facts(snap);
      const hier = buildHierarchy(snap.nodes, snap.edges);
      const heat = makeHeat(view.panes[0].overlay);
      const want = summarize(hier, f, heat);
      // a recursion's order: each group after the groups inside it
      const order: string[] = [];
      const rec = (g: typeof hier.root): void => {
        for (const it of g.children) if (it.kind === 'group') rec(it.group);
        order.push(g.key);
      };
      rec(hier.root);
      expect([...want.keys()]).toEqual(order);
      await prepareSummary(hier, f, heat, async () => void pauses++, 0);
      const got = summaryOf(hier, f, heat);
      expect([...got]).toEqual([...want]);
      expect(summaryOf(hier, f, heat)).toBe(got);
      // other facts (another stage's): made afresh
      expect(summaryOf(hier, new Facts(snap), heat)).not.toBe(got);
    }
    expect(pauses).toBeGreaterThan(2);
  });

  it('count q/dq, observers, annotated and fp32 ops per group as the JSON says (a real converted encoder)', () => {
    const view = fixture('real_large.json');
    const snap = view.panes[0].snapshot;
    const f = new Facts(snap);
    const hier = buildHierarchy(snap.nodes, snap.edges);
    const heat = makeHeat(view.panes[0].overlay);
    const sums = summarize(hier, f, heat);
    // independent count per group: walk every node up its groups
    const want = new Map<string, { q: number; dq: number; ann: number; fp32: number; worst: number }>();
    const annotated = new Set(snap.annotations.filter((a: any) => a.annotated).map((a: any) => a.node));
    for (const n of snap.nodes) {
      for (const g of [hier.root, ...ancestors(hier, n.id)]) {
        const w = want.get(g.key) ?? { q: 0, dq: 0, ann: 0, fp32: 0, worst: Infinity };
        if (n.role === 'quantize') w.q++;
        if (n.role === 'dequantize') w.dq++;
        if (n.role === 'compute' && n.op === 'call_function') annotated.has(n.id) ? w.ann++ : w.fp32++;
        const v = view.panes[0].overlay.values[n.id];
        if (typeof v === 'number') w.worst = Math.min(w.worst, v);
        want.set(g.key, w);
      }
    }
    expect(sums.get('')!.quantize).toBe(snap.qdq.filter((q: any) => q.kind === 'quantize').length);
    expect(sums.get('')!.dequantize).toBe(snap.qdq.filter((q: any) => q.kind === 'dequantize').length);
    for (const [key, w] of want) {
      const s = sums.get(key)!;
      expect([s.quantize, s.dequantize, s.annotated, s.fp32], key).toEqual([w.q, w.dq, w.ann, w.fp32]);
      expect(s.worst ?? Infinity, key).toBe(w.worst);
    }
    // the attention left fp32 (blocks 0, 2, …) has no annotated op; the quantized one (block 1) has
    expect(sums.get('blocks.0.attn')!.annotated).toBe(0);
    expect(sums.get('blocks.0.attn')!.fp32).toBeGreaterThan(0);
    expect(sums.get('blocks.1.attn')!.annotated).toBeGreaterThan(0);
    const kinds = badgesOf(sums.get('blocks.1')!, heat).map((b) => b.kind);
    expect(kinds).toEqual(expect.arrayContaining(['annotated', 'quantize', 'dequantize', 'worst']));
  });

  it('a float graph has no fp32 count (nothing to compare with) and observers count on prepared graphs', () => {
    const run = fixture('real_run.json');
    const exported = run.panes[0].snapshot;
    const s0 = summarize(buildHierarchy(exported.nodes, exported.edges), new Facts(exported));
    expect(s0.get('')!.fp32).toBe(0);
    const prepared = run.panes.find((p: any) => p.label === 'prepared').snapshot;
    const s1 = summarize(buildHierarchy(prepared.nodes, prepared.edges), new Facts(prepared));
    expect(s1.get('')!.observers).toBe(prepared.nodes.filter((n: any) => n.role === 'observer').length);
  });
});

describe('fit scale', () => {
  it('fits small graphs whole and never goes below a readable scale for large ones', () => {
    expect(fitScale(800, 520, 300, 200)).toBeCloseTo(1.3);
    expect(fitScale(800, 520, 700, 400)).toBeCloseTo(800 / 740);
    // a tall graph: full width, not a tiny whole
    expect(fitScale(800, 520, 600, 5000)).toBe(1);
    // the 250 px side panel with a wide graph: pan, do not shrink the text to 5 px
    expect(fitScale(250, 520, 2000, 3000)).toBe(MIN_READABLE);
    // issue 26 point 4: node labels and group titles (12 px) at >= 11 px on screen, so no zoomed-out titles
    expect(12 * MIN_READABLE).toBeGreaterThanOrEqual(11);
    expect(zoomedOut(MIN_READABLE)).toBe(false);
  });

  it('a graph wider than its pane is fitted by its full width only while that keeps text readable', () => {
    // a compare pane of 440 px: a 430 px wide graph shows its whole width at 440 / 470, a 700 px one is panned
    expect(fitScale(440, 520, 430, 2000)).toBeCloseTo(440 / 470);
    expect(fitScale(440, 520, 700, 2000)).toBe(MIN_READABLE);
    expect(fitScale(800, 520, 900, 400)).toBe(MIN_READABLE);
  });
});

describe('pane height', () => {
  it('an output’s pane takes its drawing’s height, up to GROW_MAX; a fixed pane only shrinks', () => {
    // a small drawing: down to it, never below MIN_HEIGHT
    expect(paneHeight(300, 520, true)).toBe(300);
    expect(paneHeight(40, 520, false)).toBe(MIN_HEIGHT);
    // issue 26 point 4: M00-3's stacked compare cut its last two nodes at the bottom of a 520 px pane
    expect(paneHeight(645.2, 520, true)).toBe(646);
    expect(paneHeight(GROW_MAX, 520, true)).toBe(GROW_MAX);
    // a long chain: half of it in a taller pane is still half; the pane keeps its height, its bottom hint says more
    expect(paneHeight(5000, 520, true)).toBe(0);
    // the side panel (its host fixed the height), or a drawing panned sideways anyway: a taller drawing is panned,
    // the bottom edge's hint says so
    expect(paneHeight(645, 480, false)).toBe(0);
    // the drawing's own height already: nothing to set
    expect(paneHeight(520.4, 520, true)).toBe(0);
  });
});

describe('note callouts', () => {
  it('wrap latin text at spaces and Chinese text between characters, within the width', () => {
    const en = wrapText('observer group 3 shares its qparams with the residual add input', 120);
    expect(en.length).toBeGreaterThan(1);
    for (const l of en) expect(textWidth(l)).toBeLessThanOrEqual(120);
    expect(en.join(' ')).toBe('observer group 3 shares its qparams with the residual add input');
    const zh = wrapText('這個 conv2d 與後面的 relu 融合，量化參數共用同一個觀察器', 110);
    expect(zh.length).toBeGreaterThan(1);
    for (const l of zh) expect(textWidth(l)).toBeLessThanOrEqual(110);
    expect(zh.join('').replace(/ /g, '')).toBe('這個conv2d與後面的relu融合，量化參數共用同一個觀察器');
    const box = noteBox('短');
    expect(box.lines).toEqual(['✎ 短']);
    expect(wrapText('x '.repeat(400), 100).length).toBe(6);
  });
});

describe('tables', () => {
  it("observers' numbers come first, other columns keep their order; deltas are signed", () => {
    const t = fixture('real_run.json').tables.find((x: any) => x.name === 'observers');
    const cols = columnOrder(t).map((i) => t.columns[i]);
    expect(cols.slice(0, 7)).toEqual(['id', 'observes', 'min', 'max', 'scale', 'zero_point', 'dtype']);
    expect([...cols].sort()).toEqual([...t.columns].sort());
    expect([signed(2), signed(-2), signed(0)]).toEqual(['+2', '−2', '0']);
  });
});

describe('int8 edges between closed groups', () => {
  it('a bundle of edges between two closed groups is marked int8 exactly when one of its edges is', async () => {
    const { mount } = await import('./helpers');
    const { buildHierarchy, representative } = await import('../../src/core/groups');
    const { intDtype } = await import('../../src/core/edges');
    const view = fixture('real_run.json');
    const { el, handle } = await mount(view, { worker: false, collapseThreshold: 0 });
    const i = view.panes.length - 1;
    const gv = handle.panes[i];
    const snap = view.panes[i].snapshot;
    const hier = buildHierarchy(snap.nodes, snap.edges);
    const f = new Facts(snap);
    const want = new Set<string>();
    for (const e of snap.edges) {
      const a = representative(hier, gv.expanded, e.src);
      const b = representative(hier, gv.expanded, e.dst);
      if (a !== b && (a.startsWith('g:') || b.startsWith('g:')) && intDtype(f, e)) want.add(`${a}>${b}`);
    }
    const pane = el.querySelector(`.pl-pane[data-pane="${i}"]`)!;
    const got = [...pane.querySelectorAll('.pl-edge.pl-agg.pl-int')].map(
      (p) => `${p.getAttribute('data-src')}>${p.getAttribute('data-dst')}`,
    );
    expect(want.size).toBeGreaterThan(0);
    expect(new Set(got)).toEqual(want);
  });
});

describe('fit position', () => {
  it('a graph wider than the pane is shown around its top row, the way it starts', async () => {
    const { topRowX } = await import('../../src/core/pan-zoom');
    const box = (key: string, x: number, y: number, kind: 'node' | 'expanded' = 'node') => [
      key,
      { key, kind, x, y, w: 80, h: 40 },
    ];
    const P: any = {
      boxes: new Map([box('g', 500, 300, 'expanded'), box('a', 700, 20), box('b', 760, 22), box('c', 100, 300)] as any),
      route: () => null,
      width: 1000,
      height: 600,
    };
    expect(topRowX(P)).toBe(730);
  });
});
