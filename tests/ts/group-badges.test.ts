// A closed group's badges are made once per group per view (group-badges.ts): the layout's closed-group size, the
// SVG-or-canvas weight of each redraw and the painters' box model used to make them each time. badgesOf is
// wrapped to count its calls per summary while a real fixture is drawn, a group opened and closed again.
import { describe, expect, it, vi } from 'vitest';
import type { Summary } from '../../src/core/badges';
import { fixture, mount } from './helpers';

const calls = new Map<Summary, number>();
vi.mock('../../src/core/badges', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/core/badges')>();
  return {
    ...real,
    badgesOf: (s: Summary, ...rest: Parameters<typeof real.badgesOf> extends [unknown, ...infer R] ? R : never) => {
      calls.set(s, (calls.get(s) ?? 0) + 1);
      return real.badgesOf(s, ...rest);
    },
  };
});

describe('closed-group badges', () => {
  it('are made once per group, however often the view lays out and draws', async () => {
    calls.clear();
    // 367 nodes: the graph opens with its top-level groups closed, each with badges
    const { el, handle } = await mount(fixture('real_large.json'), { worker: false });
    const gv = handle.panes[0];
    const closed = [...gv.placement!.boxes.values()].filter((b) => b.kind === 'collapsed');
    expect(closed.length).toBeGreaterThan(1);
    const chips = el.querySelectorAll('.pl-group.pl-collapsed .pl-gbadge');
    expect(chips.length).toBeGreaterThan(0); // the badges were drawn
    expect(calls.size).toBeGreaterThan(0);
    expect(Math.max(...calls.values())).toBe(1);
    const key = closed[0].group!.key;
    await gv.setOpen(key, true);
    await gv.setOpen(key, false);
    expect(Math.max(...calls.values())).toBe(1);
    // one call per group that was ever closed on screen (the inner groups of the one opened included)
    expect(calls.size).toBeLessThanOrEqual(gv.hier!.groups.size);
    handle.destroy();
  });
});
