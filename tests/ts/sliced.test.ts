import { describe, expect, it } from 'vitest';
import { drawnGraph, prepareDrawn } from '../../src/core/drawn';
import { Facts, factsOf, prepareFacts } from '../../src/core/facts';
import { buildHierarchy, type Hierarchy, itemKey, prepareHierarchy } from '../../src/core/groups';
import { translator } from '../../src/core/i18n';
import { render } from '../../src/core/index';
import { checkDoc, checkDocInSlices, isBigDoc } from '../../src/core/validate';
import { synthSnapshot, synthView } from './fixtures/synth.mjs';
import { fixture, mount } from './helpers';

const big = synthView(20000);
const text = JSON.stringify(big);

/** Counts the page tasks a sliced check ends (each `pause`). */
function counter(): { pause: () => Promise<void>; count: () => number } {
  let n = 0;
  return {
    pause: () => {
      n += 1;
      return new Promise((r) => setTimeout(r, 0));
    },
    count: () => n,
  };
}

/** A copy of the 20k view with one thing broken. */
function broken(edit: (v: any) => void): any {
  const v = JSON.parse(text);
  edit(v);
  return v;
}

/** A hierarchy as plain data (JSON text): groups with their item keys, parents, edges per group, stubs. */
function plain(h: Hierarchy): string {
  return JSON.stringify({
    groups: [...h.groups.values()].map((g) => [
      g.key,
      g.label,
      g.cls,
      g.parent?.key,
      g.depth,
      g.total,
      g.children.map(itemKey),
    ]),
    parentOf: [...h.parentOf].map(([id, g]) => [id, g.key]),
    edgesAt: [...h.edgesAt],
    stubbed: [...h.stubbed],
  });
}

describe('the module hierarchy of a big graph is built in slices', () => {
  it('the drawn arrays and the lookup tables made in slices equal the one-task ones, and are the ones panes get', async () => {
    for (const name of ['real_large.json', 'real_lowered.json', 'real_accuracy.json', 'synth']) {
      const fresh = (): any => (name === 'synth' ? synthView(12000, { mask: true }) : fixture(name)).panes[0].snapshot;
      const one = drawnGraph(fresh(), null);
      const snap = fresh();
      const c = counter();
      const d = await prepareDrawn(snap, c.pause, 0);
      expect(d.nodes).toEqual(one.nodes);
      expect(d.edges).toEqual(one.edges);
      expect([...d.keep]).toEqual([...one.keep]);
      expect([...d.fixed]).toEqual([...one.fixed]);
      expect(drawnGraph(snap, null)).toBe(d);
      const want = new Facts(snap);
      const f = await prepareFacts(snap, c.pause, 0);
      for (const k of [
        'nodes',
        'specs',
        'specIndex',
        'annotation',
        'observer',
        'observedBy',
        'qdq',
        'qdqOfTensor',
        'findings',
      ] as const)
        expect([...f[k]]).toEqual([...want[k]]);
      expect(factsOf(snap)).toBe(f);
      if (name === 'synth') expect(c.count()).toBeGreaterThan(4);
    }
  });

  it('same hierarchy as the one-task build, taken once by the next buildHierarchy of those nodes', async () => {
    const snap = synthSnapshot(6000, { mask: true });
    const want = plain(buildHierarchy(snap.nodes, snap.edges));
    const c = counter();
    await prepareHierarchy(snap.nodes, snap.edges, new Set(), c.pause, 1);
    expect(c.count()).toBeGreaterThan(3);
    const first = buildHierarchy(snap.nodes, snap.edges);
    expect(plain(first) === want).toBe(true);
    expect(first.stubbed.has('mask')).toBe(true);
    // taken once: the next call builds afresh (a new object, equal)
    const again = buildHierarchy(snap.nodes, snap.edges);
    expect(again === first).toBe(false); // (not .not.toBe: it deep-compares the two on the way)
    expect(plain(again) === want).toBe(true);
  });

  it('not taken for other edges or other fixed nodes', async () => {
    const snap = synthSnapshot(2000);
    await prepareHierarchy(snap.nodes, snap.edges, new Set(), counter().pause);
    const fewer = snap.edges.slice(1);
    expect(plain(buildHierarchy(snap.nodes, fewer)) === plain(buildHierarchy(snap.nodes.slice(), fewer))).toBe(true);
    await prepareHierarchy(snap.nodes, snap.edges, new Set(), counter().pause);
    const fixed = new Set(['w1_0']);
    const a = plain(buildHierarchy(snap.nodes, snap.edges, fixed));
    expect(a === plain(buildHierarchy(snap.nodes.slice(), snap.edges, fixed))).toBe(true);
  });
});

describe('big documents are checked in slices, with the same verdict', () => {
  it('only big documents take the sliced path', () => {
    expect(isBigDoc(big)).toBe(true);
    expect(isBigDoc(text)).toBe(true);
    expect(isBigDoc(synthSnapshot(20000))).toBe(true);
    expect(isBigDoc(synthView(500))).toBe(false);
    expect(isBigDoc(JSON.stringify(synthView(500)))).toBe(false);
  });

  it('a valid 20k document: the same view as the one-task check, over several tasks', async () => {
    const c = counter();
    const sliced = await checkDocInSlices(text, c.pause);
    expect(sliced).toEqual(checkDoc(text));
    expect(sliced.ok).toBe(true);
    expect(c.count()).toBeGreaterThan(1);
    const bare = synthSnapshot(20000);
    expect(await checkDocInSlices(bare, c.pause)).toEqual(checkDoc(bare));
  });

  const cases: Record<string, (v: any) => void> = {
    'a node deep in the list': (v) => {
      v.panes[0].snapshot.nodes[15000].role = 'wizard';
    },
    'an edge': (v) => {
      delete v.panes[0].snapshot.edges[12345].dst;
    },
    'a field outside the big arrays': (v) => {
      v.panes[0].snapshot.meta = 'no';
    },
    'the view itself': (v) => {
      v.mode = 'sideways';
    },
    'an unknown field in a node': (v) => {
      v.panes[0].snapshot.nodes[7].colour = 'red';
    },
    'not JSON at all': () => undefined,
    // bounds, checked in slices before the schema (checkTreeSteps)
    'nesting past max_depth in a late node': (v) => {
      let deep: unknown[] = [];
      const top = deep;
      for (let i = 0; i < 80; i++) {
        const next: unknown[] = [];
        deep.push(next);
        deep = next;
      }
      v.panes[0].snapshot.nodes[19000].provenance = top;
    },
    'a string past max_string_chars in a late edge': (v) => {
      v.panes[0].snapshot.edges[18000].src = 'x'.repeat(1_000_001);
    },
  };
  for (const [name, edit] of Object.entries(cases)) {
    it(`a broken document (${name}): the same one-line message`, async () => {
      const input = name === 'not JSON at all' ? `${text.slice(0, 2_000_000)}` : broken(edit);
      const want = checkDoc(input);
      expect(want.ok).toBe(false);
      const got = await checkDocInSlices(input, counter().pause);
      // the same line in each language (`line` is a function: compared by what it says)
      const zh = translator('zh-TW');
      expect(!got.ok && [got.message, got.line?.(zh)]).toEqual(!want.ok && [want.message, want.line?.(zh)]);
    });
  }

  it('render() of a big document returns at once, then draws the collapsed graph', async () => {
    const el = document.createElement('div');
    document.body.appendChild(el);
    const handle = render(el, text, { worker: false });
    const root = el.querySelector('.pt2e-lens')!;
    expect(root.getAttribute('data-state')).toBe('loading');
    expect(root.querySelector('.pl-graph')).toBeNull(); // nothing drawn inside render()'s own task
    await handle.ready;
    expect(root.getAttribute('data-state')).toBe('ready');
    expect(root.querySelector('.pl-loading')).toBeNull();
    expect(root.querySelector('.pl-title')?.textContent).toBe(big.title);
    // collapsed: the top-level group's sections as closed boxes, as the one-task render drew them
    expect(root.querySelectorAll('[data-group]').length).toBeGreaterThan(0);
    expect(handle.panes).toHaveLength(1);
  });

  it('a big broken document shows the one line, as before', async () => {
    const { el } = await mount(
      broken((v) => {
        v.panes[0].snapshot.nodes[15000].role = 'wizard';
      }),
      { worker: false },
    );
    const msg = el.querySelector('[role=alert]')!.textContent!;
    expect(msg).toMatch(/^pt2e-lens: malformed output: panes\[0\]\.snapshot\.nodes\[15000\]\.role: expected one of/);
    expect(el.querySelector('.pt2e-lens')!.getAttribute('data-state')).toBe('error');
  });

  it('destroy() before the check ends: nothing is drawn', async () => {
    const el = document.createElement('div');
    const handle = render(el, text, { worker: false });
    handle.destroy();
    await handle.ready;
    expect(el.querySelector('.pl-graph')).toBeNull();
    expect(handle.panes).toHaveLength(0);
  });
});
