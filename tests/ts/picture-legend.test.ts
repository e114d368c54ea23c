// The static picture (issue 18.2): its legend says what the live legend says, in the view's language, and a
// canvas-drawn pane (more boxes than SVG draws) gets its closed-group overview, saying so; model text in either
// stays text (a module class named `<img onerror=…>`).
import { describe, expect, it } from 'vitest';
import { CANVAS_THRESHOLD } from '../../src/core/canvas-index';
import { translator } from '../../src/core/i18n';
import { picture } from '../../src/core/picture';
import { legendPicture } from '../../src/core/picture-legend';
import { overviewExpanded } from '../../src/core/reps';
import { synthView } from '../ts/fixtures/synth.mjs';
import { fixture, mount } from './helpers';

const HOSTILE = '<img src=x onerror=alert(1)>';
const zh = translator('zh-TW');

/** The picture as a reader's browser parses it (an SVG document: nothing in it may become an element). */
function parsed(svg: string): Document {
  const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
  expect(doc.querySelector('parsererror')).toBeNull();
  return doc;
}

describe('the picture’s legend', () => {
  it('says how many specs a big Run folds into one chip, not the list behind it (folded or opened)', async () => {
    const view = fixture('conv_converted.json');
    const snap = view.panes[0].snapshot;
    const base = snap.specs[0];
    for (let i = snap.specs.length; i < 9; i++) snap.specs.push({ ...base, id: `s${i}` });
    const { el } = await mount(view, { worker: false, locale: 'zh-TW' });
    const live = el.querySelector('.pl-graph > .pl-legend') as HTMLElement;
    const chip = live.querySelector('.pl-legend-specfold') as HTMLButtonElement;
    expect(chip.textContent).toBe(`▸ ${zh('ui.legend.specs', { n: 9 })}`);
    for (const open of [false, true]) {
      if (open) chip.click();
      expect(chip.getAttribute('aria-expanded')).toBe(String(open));
      const text = legendPicture(live, 400)!.g.textContent ?? '';
      expect(text).toContain(zh('ui.legend.specs', { n: 9 }));
      expect(text).not.toContain('▸');
      expect(text).not.toContain('s8 ');
    }
  });

  it('redraws every item of the live legend but the pointer’s marks, in zh-TW, hostile text as text', async () => {
    const view = fixture('hostile.json');
    // an overlay named like markup: its name is a legend item's text
    const ids = view.panes[0].snapshot.nodes.map((n: { id: string }) => n.id);
    const values = Object.fromEntries(ids.map((id: string, i: number) => [id, i]));
    view.panes[0].overlay = { name: HOSTILE, unit: null, higher_is_better: false, values };
    const { el } = await mount(view, { worker: false, locale: 'zh-TW' });
    const live = el.querySelector('.pl-graph > .pl-legend') as Element;
    const drawn = legendPicture(live, 400);
    expect(drawn).not.toBeNull();
    const text = drawn!.g.textContent ?? '';
    for (const r of new Set(view.panes[0].snapshot.nodes.map((n: { role: string }) => n.role)))
      expect(text).toContain(zh(`ui.role.${r}`));
    expect(text).toContain(zh('ui.legend.closed_group'));
    expect(text).toContain(HOSTILE);
    expect(text).not.toContain(zh('ui.legend.selected')); // nothing is selected in a picture
    expect(text).not.toContain(zh('ui.legend.toggle'));
    const svg = new XMLSerializer().serializeToString(drawn!.g);
    expect(svg).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(parsed(svg).querySelectorAll('img, [onerror]').length).toBe(0);
    // wrapped into rows within the width it was given
    const xs = [...drawn!.g.children].map((it) =>
      Number(/translate\((\d+)/.exec(it.getAttribute('transform') ?? '')?.[1]),
    );
    expect(xs.every((x) => x >= 0 && x < 400)).toBe(true);
    expect(xs.filter((x) => x === 0).length).toBeGreaterThan(1);
    expect(drawn!.height).toBeGreaterThan(16);
  });
});

describe('the picture of a canvas-drawn pane', () => {
  it('is the closed-group overview with its counts and the legend, says so, and escapes module names', async () => {
    const view = synthView(2000);
    for (const n of view.panes[0].snapshot.nodes)
      for (const fr of n.module_stack) if (fr[1] === 'Sequential') fr[1] = HOSTILE;
    view.locale = 'zh-TW';
    const { el, handle } = await mount(view, { worker: false, locale: 'zh-TW' });
    const gv = handle.panes[0];
    // a level of groups opens whole or not at all: the 200 blocks under `layers` do not fit in 100 boxes
    expect([...overviewExpanded(gv.hier!, 100)]).toEqual(['']);
    expect([...overviewExpanded(gv.hier!)].sort()).toEqual(['', 'layers']);
    expect(el.querySelector('.pl-overview')).toBeNull();
    gv.expanded = new Set(gv.hier!.groups.keys());
    await gv.redraw();
    expect(gv.canvasMode).toBe(true);
    const ov = el.querySelector('.pl-overview') as SVGSVGElement;
    // the closed groups are the overview's: as the pane opened (its top-level groups closed), or a level deeper
    const closed = [...ov.querySelectorAll('.pl-group.pl-collapsed')].map((g) => g.getAttribute('data-group'));
    const ex = overviewExpanded(gv.hier!);
    const top = [...gv.hier!.groups.values()].filter((g) => g.parent && ex.has(g.parent.key) && !ex.has(g.key));
    expect(closed.sort()).toEqual(top.map((g) => g.key).sort());
    expect(closed.length).toBeGreaterThan(0);
    const svg = picture(el) as string;
    expect(svg.length).toBeLessThan(400_000);
    const doc = parsed(svg);
    expect(doc.querySelectorAll('img, [onerror]').length).toBe(0);
    expect(svg).toContain('&lt;img src=x'); // the group's label (truncated as the live one is)
    const shown = doc.querySelectorAll('.pl-node').length + doc.querySelectorAll('.pl-group').length;
    expect(shown).toBeLessThan(CANVAS_THRESHOLD);
    const caption = zh('ui.picture.overview', {
      shown: ov.querySelectorAll('.pl-node, .pl-collapsed').length,
      total: gv.nodes.length,
    });
    expect(doc.documentElement.textContent).toContain(caption);
    // the closed blocks carry their counts, as the canvas's closed groups do (badges draw from them)
    const blocks = [...doc.querySelectorAll('g[data-group][data-fp32]')];
    expect(blocks.length).toBe(closed.length);
    expect(doc.querySelector('.pl-picture-legend')?.textContent).toContain(zh('ui.legend.closed_group'));
    // nothing in a picture can be clicked: its closed groups say what a reader without scripts can do
    const words = doc.documentElement.textContent ?? '';
    expect(words).not.toContain('點一下');
    const n = blocks[0].getAttribute('data-total') as string;
    expect(words).toContain(zh('ui.picture.group_sub', { n }));
    // back to a scene SVG draws: the overview goes
    gv.expanded = new Set(['']);
    await gv.redraw();
    expect(gv.canvasMode).toBe(false);
    expect(el.querySelector('.pl-overview')).toBeNull();
  });
});

describe('the picture of a flat graph over the canvas threshold (no module groups)', () => {
  it('is its numbered sections, closed, saying what a reader without scripts can do', async () => {
    const view = synthView(2000);
    for (const n of view.panes[0].snapshot.nodes) {
      n.module_stack = [];
      n.module_path = '';
    }
    view.locale = 'zh-TW';
    const { el, handle } = await mount(view, { worker: false, locale: 'zh-TW' });
    const gv = handle.panes[0];
    gv.expanded = new Set(gv.hier!.groups.keys()); // "expand all": every node drawn, on the canvas
    await gv.redraw();
    expect(gv.canvasMode).toBe(true);
    const sections = [...gv.hier!.groups.values()].filter((g) => g.synthetic);
    expect(sections.length).toBe(Math.ceil(gv.nodes.length / 400));
    const svg = picture(el) as string;
    expect(svg.length).toBeLessThan(400_000);
    const doc = parsed(svg);
    const closed = [...doc.querySelectorAll('g[data-group]')].map((g) => g.getAttribute('data-group'));
    expect(closed.sort()).toEqual(sections.map((g) => g.key).sort());
    const words = doc.documentElement.textContent ?? '';
    expect(words).not.toContain('點一下');
    expect(words).toContain(zh('ui.picture.group_sub', { n: 400 }));
  });
});
