import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, mount } from './helpers';

/** A catalogue as the kernel ships it (the pills' words are compared with it, not spelt here). */
const catalogue = (lang: string): Record<string, string> =>
  JSON.parse(readFileSync(join(__dirname, '..', '..', 'kernel_pkg', 'pt2e_lens', 'locales', `${lang}.json`), 'utf8'));

const HOSTILE = '<img src=x onerror="window.__pwned=1">qconv & <b>relu</b>';

/** The converted fixture as a lowered stage: its snapshot's `backend` field, the way Python writes it. */
function lowered(): any {
  const view = fixture('conv_converted.json');
  const snap = view.panes[0].snapshot;
  snap.stage = 'lowered';
  const annotated = new Set(snap.annotations.map((a: any) => a.node));
  const nodes: Record<string, unknown> = {};
  for (const n of snap.nodes) {
    if (n.role === 'quantize' || n.role === 'dequantize')
      nodes[n.id] = { outcome: 'folded', kernel: 'qconv_pointwise', reason: null, annotated: false };
    else if (n.id === 'conv2d') nodes[n.id] = { outcome: 'int8', kernel: HOSTILE, reason: null, annotated: true };
    else if (n.role === 'compute')
      nodes[n.id] = { outcome: 'fp32', kernel: n.target, reason: 'no fusion pattern', annotated: annotated.has(n.id) };
  }
  const counts: Record<string, number> = {};
  for (const o of Object.values(nodes) as any[]) counts[o.outcome] = (counts[o.outcome] ?? 0) + 1;
  snap.backend = { name: 'inductor', options: { freezing: true }, nodes, counts };
  return view;
}

describe('backend overlay (snapshot.backend of a lowered stage)', () => {
  it('marks exactly the nodes with an outcome, with the outcome the JSON gives', async () => {
    const view = lowered();
    const { el } = await mount(view, { worker: false });
    const marks = [...el.querySelectorAll('.pl-node .pl-outcome')];
    const got = Object.fromEntries(
      marks.map((m) => [m.closest('.pl-node')!.getAttribute('data-id'), m.getAttribute('data-outcome')]),
    );
    const want = Object.fromEntries(
      Object.entries(view.panes[0].snapshot.backend.nodes).map(([k, v]: [string, any]) => [k, v.outcome]),
    );
    expect(got).toEqual(want);
    const legend = el.querySelector('.pl-backend-legend')!.textContent!;
    expect(legend).toContain('inductor');
    expect(legend).toContain(`int8 kernel 1`);
  });

  it("the legend gives the backend's own op counts when the snapshot has them, and none otherwise", async () => {
    const view = lowered();
    expect((await mount(view, { worker: false })).el.querySelector('.pl-backend-ops')).toBeNull();
    view.panes[0].snapshot.backend.ops = { delegated: 42, not_delegated: 11, partitions: 3 };
    const { el } = await mount(view, { worker: false });
    const ops = el.querySelector('.pl-backend-legend .pl-backend-ops')!.textContent!;
    expect(ops).toBe('· ExecuTorch ops: 42 delegated in 3 partitions, 11 not delegated');
  });

  it('a kernel name is text, never markup: in the tooltip and the details drawer', async () => {
    const { el } = await mount(lowered(), { worker: false });
    expect(el.querySelector('img')).toBeNull();
    expect((window as any).__pwned).toBeUndefined();
    const mark = el.querySelector('[data-id="conv2d"] .pl-outcome title')!;
    expect(mark.textContent).toBe(`int8 kernel: ${HOSTILE}`);
    el.querySelector('[data-id="conv2d"]')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    const details = el.querySelector('.pl-details')!;
    expect(details.textContent).toContain(`kernel${HOSTILE}`);
    expect(details.querySelector('img, b')).toBeNull();
    el.querySelector('[data-id="relu"]')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(el.querySelector('.pl-details')!.textContent).toContain('reasonno fusion pattern');
  });

  it('a closed group badges how many of its annotated ops run int8', async () => {
    const view = lowered();
    const { el } = await mount(view, { worker: false, collapseThreshold: 0 });
    const nodes = view.panes[0].snapshot.backend.nodes;
    const groups = [...el.querySelectorAll('[data-int8]')];
    expect(groups.length).toBeGreaterThan(0);
    for (const g of groups) {
      const [n, m] = g.getAttribute('data-int8')!.split('/').map(Number);
      expect(n).toBeLessThanOrEqual(m);
    }
    // the closed groups drawn hold every annotated op between them: one int8 conv of them all
    const annotated = Object.values(nodes).filter((o: any) => o.annotated).length;
    const sum = groups.map((g) => g.getAttribute('data-int8')!.split('/').map(Number));
    expect([sum.reduce((a, x) => a + x[0], 0), sum.reduce((a, x) => a + x[1], 0)]).toEqual([1, annotated]);
    expect(groups.some((g) => g.textContent!.includes('int8 1/'))).toBe(true);
  });

  for (const lang of ['en', 'zh-TW']) {
    it(`the pills and the legend's chips say each outcome in the view's language (${lang})`, async () => {
      const view = lowered();
      view.locale = lang;
      const cat = catalogue(lang);
      const { el } = await mount(view, { worker: false });
      const pills = [...el.querySelectorAll('.pl-node .pl-outcome')];
      expect(new Set(pills.map((p) => p.getAttribute('data-outcome')))).toEqual(new Set(['int8', 'fp32', 'folded']));
      for (const p of pills)
        expect(p.querySelector('text')!.textContent).toBe(cat[`ui.backend.pill.${p.getAttribute('data-outcome')}`]);
      const chips = [...el.querySelectorAll('.pl-backend-legend .pl-outcome-chip')].map((c) => c.textContent);
      expect(chips).toEqual(['int8', 'fp32', 'folded'].map((o) => cat[`ui.backend.pill.${o}`]));
      if (lang !== 'en') expect(cat['ui.backend.pill.folded']).not.toBe(catalogue('en')['ui.backend.pill.folded']);
    });
  }

  it('a stage without a backend field draws no outcome marks', async () => {
    const { el } = await mount(fixture('conv_converted.json'), { worker: false });
    expect(el.querySelectorAll('.pl-outcome').length).toBe(0);
    expect(el.querySelector('.pl-backend-legend')).toBeNull();
  });
});
