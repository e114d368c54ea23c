// Views written by pt2e_lens itself on torchao-quantized example models (tests/ts/fixtures/make_real.py).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countBy, fixture, mount } from './helpers';

const has = (n: string) => existsSync(join(__dirname, 'fixtures', n));
const click = (e: Element) => e.dispatchEvent(new MouseEvent('click', { bubbles: true }));
const settle = () => new Promise((r) => setTimeout(r, 0));

describe.skipIf(!has('real_run.json'))('real pt2e_lens output', () => {
  it('run view: every stage draws the JSON nodes by role; converted shows int edges out of quantize nodes', async () => {
    const view = fixture('real_run.json');
    const { el, handle } = await mount(view, { worker: false });
    const tabs = [...el.querySelectorAll('.pl-stage-tabs .pl-tab')];
    expect(tabs.map((t) => t.textContent)).toEqual(view.panes.map((p: any) => p.label));
    for (let i = 0; i < view.panes.length; i++) {
      click(tabs[i]);
      await Promise.all(handle.panes.filter(Boolean).map((p) => p.ready));
      await settle();
      const pane = [...el.querySelectorAll('.pl-pane')].find((p) => (p as HTMLElement).style.display !== 'none')!;
      const snap = view.panes[i].snapshot;
      const drawn = [...pane.querySelectorAll('.pl-node')].map((n) => n.getAttribute('data-role')!);
      if (snap.nodes.length <= 300)
        expect(
          countBy(drawn, (r) => r),
          view.panes[i].label,
          // torch.export's _guards_fn is hidden unless a focus names it (graph-view.ts isGuards)
        ).toEqual(
          countBy(
            snap.nodes.filter((n: any) => n.target !== '_guards_fn'),
            (n: any) => n.role,
          ),
        );
      const quantize = new Set(snap.qdq.filter((q: any) => q.kind === 'quantize').map((q: any) => q.node));
      const dequantize = new Set(snap.qdq.filter((q: any) => q.kind === 'dequantize').map((q: any) => q.node));
      expect(pane.querySelectorAll('.pl-edge.pl-int').length).toBe(
        snap.edges.filter((e: any) => quantize.has(e.src) || (dequantize.has(e.dst) && e.arg === 0)).length,
      );
    }
    expect(view.panes.some((p: any) => p.snapshot.qdq.length > 0)).toBe(true);
  });

  it('compare view: diff marks are the JSON diff lists', async () => {
    const view = fixture('real_compare.json');
    const { el } = await mount(view, { worker: false });
    const [p0, p1] = [...el.querySelectorAll('.pl-pane')];
    const ids = (root: Element, sel: string) =>
      [...root.querySelectorAll(sel)].map((e) => e.getAttribute('data-id')).sort();
    expect(ids(p0, '.pl-node.pl-removed')).toEqual([...view.diffs[0].removed].sort());
    expect(ids(p1, '.pl-node.pl-added')).toEqual([...view.diffs[0].added].sort());
  });

  it('accuracy view: an overlay bar on each node with a value', async () => {
    const view = fixture('real_accuracy.json');
    const pane = view.panes.find((p: any) => p.overlay);
    expect(pane).toBeDefined();
    const { el } = await mount(view, { worker: false });
    const ids = new Set(pane.snapshot.nodes.map((n: any) => n.id));
    const valued = Object.entries(pane.overlay.values).filter(([id, v]) => ids.has(id) && Number.isFinite(v as number));
    expect(el.querySelectorAll('.pl-node .pl-heat').length).toBe(valued.length);
  });
});
