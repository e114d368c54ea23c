// @vitest-environment node
// (no DOM here: the node environment spares this file the set-up of jsdom)
import { describe, expect, it } from 'vitest';
import { drawnGraph } from '../../src/core/drawn';
import { factsOf } from '../../src/core/facts';
import { sceneTexts } from '../../src/core/frame';
import { buildHierarchy } from '../../src/core/groups';
import { HierLayout } from '../../src/core/hier-layout';
import { EN } from '../../src/core/i18n';
import { getLayoutClient } from '../../src/core/layout-client';
import { repsOf } from '../../src/core/reps';
import type { Scene } from '../../src/core/scene';
import { zoomLabelSteps, zoomLabels } from '../../src/core/zoom-labels';
// @ts-expect-error plain JS fixture generator
import { synthView } from './fixtures/synth.mjs';
import { fixture } from './helpers';

async function scene(n: number | object, open: (h: ReturnType<typeof buildHierarchy>) => Set<string>): Promise<Scene> {
  const snap = typeof n === 'number' ? synthView(n).panes[0].snapshot : n;
  const { nodes, edges } = drawnGraph(snap);
  const h = buildHierarchy(nodes, edges);
  const ex = open(h);
  const placement = await new HierLayout(h, new Map(nodes.map((x) => [x.id, x])), getLayoutClient(false)).place(ex);
  const solid = [...placement.boxes.values()].filter((b) => b.kind !== 'expanded');
  return { facts: factsOf(snap), hier: h, placement, repOf: repsOf(h.root, ex), solid, heat: null, t: EN } as Scene;
}

describe('zoom labels (semantic zoom)', () => {
  it('in steps, as a full draw runs them: the same titles as in one go, none overlapping another', async () => {
    const sc = await scene(6000, (h) => new Set(h.groups.keys()));
    const k = Math.min(800 / sc.placement.width, 500 / sc.placement.height);
    const once = zoomLabels(sc.placement, sceneTexts(sc), sc.placement.boxes.values(), k);
    const steps = zoomLabelSteps(sc.placement, sceneTexts(sc), sc.placement.boxes.values(), k);
    let pauses = 0;
    let r = steps.next();
    for (; !r.done; r = steps.next()) pauses++;
    const groups = [...sc.placement.boxes.values()].filter((b) => b.kind !== 'node').length;
    expect(pauses).toBeGreaterThanOrEqual(Math.floor(groups / 512)); // it can pause: ~every 512 groups
    expect(r.value).toEqual(once);
    expect(once.length).toBeGreaterThan(0);
    const ps = once.map((l) => l.plate);
    for (let i = 0; i < ps.length; i++)
      for (let j = i + 1; j < ps.length; j++) {
        const [a, b] = [ps[i], ps[j]];
        expect(a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h, `${i} / ${j}`).toBe(false);
      }
    // zoomed in far enough, the boxes' own titles read: no zoom labels
    expect(zoomLabels(sc.placement, sceneTexts(sc), sc.placement.boxes.values(), 1)).toEqual([]);
  });

  it('a title reaching past its own box covers no node (issue 26 point 4)', async () => {
    // a real Run's converted graph, every group closed: a narrow closed group's title spilled over a node beside it
    const sc = await scene(fixture('real_run.json').panes.at(-1).snapshot, () => new Set());
    const boxes = [...sc.placement.boxes.values()];
    const nodes = boxes.filter((b) => b.kind === 'node');
    const meets = (a: { x: number; y: number; w: number; h: number }, b: (typeof boxes)[0]) =>
      a.x < b.x + b.w / 2 && b.x - b.w / 2 < a.x + a.w && a.y < b.y + b.h / 2 && b.y - b.h / 2 < a.y + a.h;
    for (const k of [0.5, 0.3, 0.15]) {
      const ls = zoomLabels(sc.placement, sceneTexts(sc), boxes, k);
      expect(ls.length).toBeGreaterThan(0);
      for (const l of ls) {
        const own = sc.placement.boxes.get(l.key)!;
        const [left, right] = [own.x - own.w / 2, own.x + own.w / 2];
        const parts = [
          { ...l.plate, w: Math.max(0, left - l.plate.x) },
          { ...l.plate, x: right, w: Math.max(0, l.plate.x + l.plate.w - right) },
        ].filter((r) => r.w > 0);
        for (const r of parts)
          for (const n of nodes) expect(meets(r, n), `${l.text} over ${n.key} at ${k}`).toBe(false);
      }
    }
  });
});
