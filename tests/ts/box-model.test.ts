// The renderer-neutral box model (box-model.ts) on real fixtures: what each box says, checked against the JSON
// it came from (roles, sharing groups, overlay values, backend outcomes, diff lists), and that the SVG painter
// draws exactly the model (the canvas painter reads the same model: canvas browser tests check its pixels).
import { describe, expect, it } from 'vitest';
import { BADGE_COLOR, badgesOf, summarize } from '../../src/core/badges';
import {
  type BoxModel,
  boxModel,
  type GroupModel,
  groupModel,
  marksOf,
  type NodeModel,
  nodeModel,
  nodeTip,
  tipOf,
} from '../../src/core/box-model';
import { edgeItems, edgeLook, edgeTitle, intDtype } from '../../src/core/edges';
import { Facts } from '../../src/core/facts';
import { buildHierarchy, groupKey, nodeKey } from '../../src/core/groups';
import { heatFill, makeHeat } from '../../src/core/heat';
import type { Box } from '../../src/core/hier-layout';
import { EN } from '../../src/core/i18n';
import { MARK_ORDER, MARK_STYLE, markCss, markStroke } from '../../src/core/marks';
import { DARK, LIGHT } from '../../src/core/palette';
import { repsOf } from '../../src/core/reps';
import type { Scene } from '../../src/core/scene';
import { groupFill, injectStyles } from '../../src/core/styles';
import type { Overlay, Snapshot } from '../../src/core/types';
import { fixture, mount } from './helpers';

/** A scene of `snap` with every node as a 160×44 box (the model needs no real layout) and top groups closed. */
function sceneOf(snap: Snapshot, o: { overlay?: Overlay; notes?: Record<string, string>; closed?: string[] } = {}) {
  const facts = new Facts(snap);
  const hier = buildHierarchy(snap.nodes, snap.edges);
  const heat = makeHeat(o.overlay);
  const boxes = new Map<string, Box>();
  const closed = new Set(o.closed ?? []);
  const repOf = repsOf(hier.root, new Set([...hier.groups.keys()].filter((k) => !closed.has(k))));
  snap.nodes.forEach((n, i) => {
    const rep = repOf.get(n.id);
    if (rep === nodeKey(n.id))
      boxes.set(rep, { key: rep, kind: 'node', x: 80, y: 22 + i * 60, w: 160, h: 44, id: n.id });
  });
  for (const k of closed)
    boxes.set(groupKey(k), {
      key: groupKey(k),
      kind: 'collapsed',
      x: 0,
      y: 0,
      w: 240,
      h: 62,
      group: hier.groups.get(k),
    });
  const sc: Scene = {
    facts,
    hier,
    placement: {
      boxes,
      route: () => null,
      width: 200,
      height: 60 * snap.nodes.length,
    } as unknown as Scene['placement'],
    repOf,
    notes: o.notes,
    heat,
    t: EN,
    summary: summarize(hier, facts, heat),
    solid: [...boxes.values()],
  };
  return sc;
}

const nodes = (sc: Scene): NodeModel[] =>
  [...sc.placement.boxes.values()].filter((b) => b.kind === 'node').map((b) => nodeModel(sc, b));

describe('box model: what a node box says', () => {
  it('fills by role, an observer by its sharing group (observers[].group), and tips carry the observer stats', () => {
    const snap = fixture('conv_prepared.json').panes[0].snapshot as Snapshot;
    const sc = sceneOf(snap);
    const ms = nodes(sc);
    expect(ms.length).toBe(snap.nodes.length);
    for (const m of ms) {
      const n = snap.nodes.find((x) => x.id === m.id)!;
      expect(m.role).toBe(n.role);
      const obs = snap.observers.find((o) => o.nodes.includes(n.id));
      if (n.role === 'observer' && obs) {
        expect(m.fill).toEqual({ kind: 'sharing', group: obs.group, color: groupFill(obs.group) });
        // the second cue: the group's number, whole, on the box's top edge inside its sides
        const c = m.groupChip!;
        expect([c.text, c.group]).toEqual([String(obs.group), obs.group]);
        expect(c.y < 0 && c.y + c.h > 0 && c.x >= 0 && c.x + c.w <= 160).toBe(true);
      } else {
        expect(m.fill).toEqual({ kind: 'role', role: n.role, color: `var(--pl-${n.role}-fill)` });
        expect(m.groupChip).toBeNull();
      }
      // the label is the target, cut to the box
      expect(n.target.startsWith(m.label.replace(/…$/, ''))).toBe(true);
    }
    const o1 = snap.observers.find((o) => o.id === 'o1')!;
    const tip = nodeTip(sc, o1.nodes[0]);
    expect(tip.some((l) => l.includes(String(o1.min[0])) && l.includes(String(o1.max[0])))).toBe(true);
    expect(tip.some((l) => l.startsWith('scale ') && l.includes(String(o1.scale[0])))).toBe(true);
    // the annotated conv says which specs its inputs carry, and has a filled annotation dot
    const conv = ms.find((m) => m.id === 'conv2d')!;
    expect(conv.annotation?.on).toBe(true);
    expect(nodeTip(sc, 'conv2d').join('\n')).toMatch(/x:s0, conv1_weight:s1/);
  });

  it('an overlay value is the node fill on both themes’ scales, worst = the scale’s first stop; the bar and tip say it', () => {
    const pane = fixture('accuracy.json').panes[0];
    const overlay = pane.overlay as Overlay;
    const sc = sceneOf(pane.snapshot, { overlay });
    const vals = Object.entries(overlay.values).filter(([, v]) => typeof v === 'number') as Array<[string, number]>;
    const worst = vals.reduce((a, b) => (b[1] < a[1] ? b : a));
    const best = vals.reduce((a, b) => (b[1] > a[1] ? b : a));
    const mw = nodeModel(sc, sc.placement.boxes.get(nodeKey(worst[0]))!);
    expect(mw.fill).toMatchObject({
      kind: 'heat',
      goodness: 0,
      light: heatFill(LIGHT.heatFill, 0),
      dark: heatFill(DARK.heatFill, 0),
    });
    expect(mw.heat?.text).toBe(`SQNR: ${worst[1].toFixed(2)} dB`);
    expect(mw.heat?.hue).toBe(0);
    expect(nodeTip(sc, worst[0])).toContain(mw.heat!.text);
    const mb = nodeModel(sc, sc.placement.boxes.get(nodeKey(best[0]))!);
    expect(mb.fill).toMatchObject({ kind: 'heat', goodness: 1 });
    expect(mb.heat?.hue).toBe(120);
    // text clears the bar; a node without a value keeps its role fill and no bar
    expect(mw.textX).toBeGreaterThan(80);
    for (const m of nodes(sc).filter((x) => !(x.id in overlay.values))) {
      expect(m.fill.kind).not.toBe('heat');
      expect(m.heat).toBeNull();
    }
  });

  it('a lowered stage: one outcome pill per node the backend reported, as many of each as backend.counts says', () => {
    const pane = fixture('real_lowered.json').panes.find((p: { snapshot: Snapshot }) => p.snapshot.backend);
    const snap = pane.snapshot as Snapshot;
    const sc = sceneOf(snap);
    const counts: Record<string, number> = {};
    for (const m of nodes(sc)) {
      const want = snap.backend!.nodes[m.id];
      expect(m.outcome?.outcome).toBe(want?.outcome);
      if (!m.outcome) continue;
      counts[m.outcome.outcome] = (counts[m.outcome.outcome] ?? 0) + 1;
      expect(m.outcome.y).toBe(44 - 4);
      expect(tipOf(sc, m.key).split('\n')).toContain(m.outcome.title);
    }
    const drawn = Object.fromEntries(snap.nodes.filter((n) => snap.backend!.nodes[n.id]).map((n) => [n.id, 1]));
    const expected: Record<string, number> = {};
    for (const id of Object.keys(drawn)) {
      const k = snap.backend!.nodes[id].outcome;
      expected[k] = (expected[k] ?? 0) + 1;
    }
    expect(counts).toEqual(expected);
    expect(Object.keys(counts).length).toBeGreaterThan(1);
  });

  it('a closed group: its badges in BADGE_COLOR, left to right without overlap, and the open/close tip', () => {
    const snap = fixture('real_run.json').panes[0].snapshot as Snapshot;
    const hier = buildHierarchy(snap.nodes, snap.edges);
    const top = [...hier.groups.values()].find((g) => g.key && !g.key.includes('.') && g.total > 2)!;
    const sc = sceneOf(snap, { closed: [top.key] });
    const m = boxModel(sc, sc.placement.boxes.get(groupKey(top.key))!) as GroupModel;
    expect(m.kind).toBe('collapsed');
    expect(m.label.startsWith('⊞ ')).toBe(true);
    const want = badgesOf(sc.summary!.get(top.key)!, null, EN);
    expect(m.badges.map((b) => [b.kind, b.text, b.color])).toEqual(
      want.map((b) => [b.kind, b.text, BADGE_COLOR[b.kind]]),
    );
    for (let i = 1; i < m.badges.length; i++)
      expect(m.badges[i].x).toBeGreaterThan(m.badges[i - 1].x + m.badges[i - 1].w);
    expect(tipOf(sc, m.key)).toBe(EN('ui.group.tip_open', { what: `${top.path} · ${top.cls}`, n: top.total }));
    // a group's nodes are not drawn as nodes while it is closed
    expect([...sc.placement.boxes.keys()].some((k) => sc.repOf.get(k.slice(2)) === m.key)).toBe(false);
    const open = groupModel(sc, { ...sc.placement.boxes.get(m.key)!, kind: 'expanded' });
    expect(open.label.startsWith('⊟ ')).toBe(true);
    expect(open.fill.kind).toBe('none');
  });
});

describe('box model: marks', () => {
  it('diff marks only on drawn nodes; a hit or selection inside a closed group marks the group; selection wins', () => {
    const snap = fixture('real_run.json').panes[0].snapshot as Snapshot;
    const hier = buildHierarchy(snap.nodes, snap.edges);
    const top = [...hier.groups.values()].find((g) => g.key && !g.key.includes('.') && g.total > 2)!;
    const sc = sceneOf(snap, { closed: [top.key] });
    const inside = snap.nodes.find((n) => sc.repOf.get(n.id) === groupKey(top.key))!.id;
    const outside = snap.nodes.find((n) => sc.repOf.get(n.id) === nodeKey(n.id))!.id;
    const marks = marksOf(sc.placement.boxes, sc.repOf, {
      diff: { removed: new Set([inside]), added: new Set([outside]) },
      matches: [inside, outside],
      counterparts: [],
      hovered: [],
      selected: inside,
    });
    expect([...marks.get(nodeKey(outside))!].sort()).toEqual(['added', 'match']);
    expect([...marks.get(groupKey(top.key))!].sort()).toEqual(['match', 'selected']);
    expect(marks.has(nodeKey(inside))).toBe(false);
    expect(markStroke(marks.get(groupKey(top.key)))).toBe(MARK_STYLE.selected);
    expect(markStroke(marks.get(nodeKey(outside)))).toBe(MARK_STYLE.match);
  });

  it('the stylesheet’s pl-<mark> rules come from the same table, in the order markStroke resolves', () => {
    const css = markCss();
    let at = -1;
    for (const m of MARK_ORDER) {
      const st = MARK_STYLE[m];
      const i = css.indexOf(`.pl-${m} rect.pl-box`);
      expect(i).toBeGreaterThan(at);
      at = i;
      const rule = css.slice(i, css.indexOf('}', i));
      expect(rule).toContain(
        `stroke:${st.color};stroke-width:${st.width};stroke-dasharray:${st.dash.join(' ') || 'none'}`,
      );
    }
  });
});

describe('box model: edges', () => {
  it('int edges carry their dtype, spec edges their spec colour; widths are the stylesheet’s; SVG paints the looks', async () => {
    for (const name of ['conv_prepared.json', 'conv_converted.json']) {
      const snap = fixture(name).panes[0].snapshot as Snapshot;
      const sc = sceneOf(snap);
      const f = sc.facts;
      const drawn = edgeItems(sc, snap.edges).filter((it) => it.kind === 'edge');
      expect(drawn.length).toBeGreaterThan(5);
      const css = (() => {
        injectStyles(document.body);
        return document.getElementById('pt2e-lens-style')!.textContent!;
      })();
      const counts: Record<string, number> = {};
      for (const it of drawn) {
        if (it.kind !== 'edge') continue;
        const look = edgeLook(it);
        const e = snap.edges.find((x) => x.src === it.src && x.dst === it.dst)!;
        const dtype = intDtype(f, e);
        expect(look.label).toBe(dtype);
        if (dtype) expect(look.cls).toBe('pl-edge pl-int');
        const spec = dtype ? undefined : f.edgeSpec(e.src, e.dst);
        if (spec) expect([look.cls, look.color]).toEqual(['pl-edge pl-spec', f.specColor(spec)]);
        // the stylesheet's rule for exactly these classes gives the width the canvas strokes
        const sel = `.pt2e-lens .${look.cls.split(' ').join('.')}{`;
        const rule = css.slice(css.indexOf(sel), css.indexOf('}', css.indexOf(sel)));
        expect(css.includes(sel), sel).toBe(true);
        expect(rule).toContain(`stroke-width:${look.width}`);
        counts[look.cls] = (counts[look.cls] ?? 0) + 1;
        expect(edgeTitle(it, EN) ?? '').toContain(dtype ?? spec ?? '');
      }
      expect(Object.keys(counts).length).toBeGreaterThan(1);
      const { el, handle } = await mount(fixture(name));
      const svg: Record<string, number> = {};
      for (const p of el.querySelectorAll('path.pl-edge:not(.pl-stub-line)')) {
        const c = p.getAttribute('class')!;
        svg[c] = (svg[c] ?? 0) + 1;
      }
      expect(svg).toEqual(counts);
      handle.destroy();
    }
  });
});

describe('box model: the SVG painter draws the model', () => {
  it('every node element shows its model’s label, sub-label, heat fill and tooltip', async () => {
    const view = fixture('accuracy.json');
    const { el, handle } = await mount(view);
    const gv = handle.panes[0];
    const sc = sceneOf(gv.facts.snap, { overlay: view.panes[0].overlay });
    let heated = 0;
    for (const g of el.querySelectorAll<SVGGElement>('.pl-node')) {
      const id = g.getAttribute('data-id')!;
      const b = gv.placement!.boxes.get(nodeKey(id))!;
      const m: BoxModel = nodeModel({ ...sc, placement: gv.placement! }, b);
      if (m.kind !== 'node') continue;
      expect(g.querySelector('.pl-label')!.textContent).toBe(m.label);
      expect(g.querySelector('.pl-sub')!.textContent).toBe(m.sub);
      expect(g.querySelector(':scope > title')!.textContent).toBe(nodeTip(sc, id).join('\n'));
      if (m.fill.kind === 'heat') {
        heated++;
        expect(g.getAttribute('style')).toBe(`--pl-hl:${m.fill.light};--pl-hd:${m.fill.dark}`);
        expect(g.querySelector('.pl-heat')!.getAttribute('style')).toContain(`hsl(${m.heat!.hue} 72%`);
      }
    }
    expect(heated).toBe(Object.keys(view.panes[0].overlay.values).filter((k) => gv.facts.nodes.has(k)).length);
    handle.destroy();
  });
});
