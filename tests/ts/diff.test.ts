import { describe, expect, it } from 'vitest';
import { counterparts, diffMarks } from '../../src/core/compare';
import { fixture, mount } from './helpers';

describe('compare mode', () => {
  it('marks removed nodes of pane i dashed and added nodes of pane i+1 highlighted', async () => {
    const view = fixture('compare.json');
    const d = view.diffs[0];
    expect(d.removed.length).toBeGreaterThan(0);
    expect(d.added.length).toBeGreaterThan(0);
    const { el } = await mount(view, { worker: false });
    const [p0, p1] = [...el.querySelectorAll('.pl-pane')];
    const ids = (root: Element, sel: string) =>
      [...root.querySelectorAll(sel)].map((e) => e.getAttribute('data-id')).sort();
    expect(ids(p0, '.pl-node.pl-removed')).toEqual([...d.removed].sort());
    expect(ids(p1, '.pl-node.pl-added')).toEqual([...d.added].sort());
    expect(ids(p0, '.pl-node.pl-added')).toEqual([]);
    expect(ids(p1, '.pl-node.pl-removed')).toEqual([]);
    expect(getComputedStyle(p0.querySelector('.pl-node.pl-removed rect')!).strokeDasharray).toBe('5 3');
  });

  it('selecting a node marks its counterparts (kept and became) in the other pane', async () => {
    const view = fixture('compare.json');
    const { el } = await mount(view, { worker: false });
    const [p0, p1] = [...el.querySelectorAll('.pl-pane')];
    p0.querySelector('[data-id="relu"]')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(p0.querySelector('[data-id="relu"]')!.classList.contains('pl-selected')).toBe(true);
    expect([...p1.querySelectorAll('.pl-counterpart')].map((e) => e.getAttribute('data-id'))).toEqual(['relu']);
    const obs = 'activation_post_process_2';
    p0.querySelector(`[data-id="${obs}"]`)!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    const became = [...view.diffs[0].became[obs]].sort();
    expect(became.length).toBeGreaterThan(1);
    expect([...p1.querySelectorAll('.pl-counterpart')].map((e) => e.getAttribute('data-id')).sort()).toEqual(became);
    expect(p1.querySelector('.pl-details')!.textContent).toContain(
      became.includes('quantize_per_tensor_default_1') ? 'quantize' : '',
    );
    // and back: from a q node in pane 1 to the observer it came from
    p1.querySelector('[data-id="quantize_per_tensor_default_1"]')!.dispatchEvent(
      new MouseEvent('click', { bubbles: true }),
    );
    expect([...p0.querySelectorAll('.pl-counterpart')].map((e) => e.getAttribute('data-id'))).toEqual([obs]);
  });
});

describe('counterparts across N panes', () => {
  const diffs = [
    { from: 0, to: 1, kept: [['conv', 'conv']], removed: ['w'], added: ['obs'], became: {} },
    { from: 1, to: 2, kept: [['conv', 'conv']], removed: ['obs'], added: ['q', 'dq'], became: { obs: ['q', 'dq'] } },
  ] as any;

  it('follows kept forward and backward, and became one-to-many', () => {
    expect(counterparts(diffs, 3, 0, 'conv').map((s) => [...s])).toEqual([['conv'], ['conv'], ['conv']]);
    expect(counterparts(diffs, 3, 1, 'obs').map((s) => [...s].sort())).toEqual([[], ['obs'], ['dq', 'q']]);
    expect(counterparts(diffs, 3, 2, 'dq').map((s) => [...s])).toEqual([[], ['obs'], ['dq']]);
    expect(counterparts(diffs, 3, 0, 'w').map((s) => [...s])).toEqual([['w'], [], []]);
  });

  it('marks come from the neighbouring diffs', () => {
    expect([...diffMarks(diffs, 3, 0).removed]).toEqual(['w']);
    expect([...diffMarks(diffs, 3, 0).added]).toEqual([]);
    expect([...diffMarks(diffs, 3, 1).added]).toEqual(['obs']);
    expect([...diffMarks(diffs, 3, 1).removed]).toEqual(['obs']);
    expect([...diffMarks(diffs, 3, 2).added]).toEqual(['q', 'dq']);
    expect([...diffMarks(diffs, 3, 2).removed]).toEqual([]);
  });
});
