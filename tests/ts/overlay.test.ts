import { describe, expect, it } from 'vitest';
import { heatFill } from '../../src/core/heat';
import { LIGHT } from '../../src/core/palette';
import { fixture, mount } from './helpers';

const hue = (c: string) => Number(/hsl\((\d+)/.exec(c)![1]);

describe('per-node overlay (panes[].overlay)', () => {
  it('colours exactly the nodes with a value, best green and worst red, and shows the value', async () => {
    const view = fixture('accuracy.json');
    const ov = view.panes[0].overlay;
    const { el } = await mount(view, { worker: false });
    const bars = [...el.querySelectorAll('.pl-node .pl-heat')];
    expect(bars.map((b) => b.closest('.pl-node')!.getAttribute('data-id')).sort()).toEqual(
      Object.keys(ov.values).sort(),
    );
    const colour = (id: string) => el.querySelector(`[data-id="${id}"] .pl-heat`)!.getAttribute('fill')!;
    expect(hue(colour('conv2d'))).toBe(120); // 31.5 dB, the best
    expect(hue(colour('linear'))).toBe(0); // 12.4 dB, the worst
    expect(hue(colour('add'))).toBeGreaterThan(0);
    expect(hue(colour('add'))).toBeLessThan(120);
    el.querySelector('[data-id="linear"]')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    // two decimals, as the accuracy table shows SQNR
    expect(el.querySelector('.pl-details')!.textContent).toContain('SQNR12.40 dB');
    expect(el.querySelector('.pl-heat-legend')!.textContent).toContain('SQNR (dB): 12.40');
    // the value is the node's fill too: the worst on the scale's first stop, nodes without a value unfilled
    const fillOf = (id: string) =>
      (el.querySelector(`.pl-node[data-id="${id}"]`) as SVGElement).style.getPropertyValue('--pl-hl');
    expect(fillOf('linear')).toBe(heatFill(LIGHT.heatFill, 0));
    expect(el.querySelectorAll('.pl-node.pl-heated').length).toBe(el.querySelectorAll('.pl-heat').length);
    expect(el.querySelector('.pl-heat-legend')!.textContent).toContain('higher is better');
  });

  it('lower-is-better flips the scale; no overlay draws no bars', async () => {
    const view = fixture('accuracy.json');
    view.panes[0].overlay.higher_is_better = false;
    const { el } = await mount(view, { worker: false });
    expect(hue(el.querySelector('[data-id="linear"] .pl-heat')!.getAttribute('fill')!)).toBe(120);
    const plain = await mount(fixture('conv_converted.json'), { worker: false });
    expect(plain.el.querySelectorAll('.pl-heat').length).toBe(0);
    expect(plain.el.querySelector('.pl-heat-legend')).toBeNull();
  });

  it('an exact match (SQNR "Infinity", the contract\'s NonFinite) is the best end of the scale and reads ∞', async () => {
    const view = fixture('accuracy.json');
    view.panes[0].overlay.values.add = 'Infinity';
    const { el } = await mount(view, { worker: false });
    expect(el.querySelector('.pl-message')).toBeNull();
    const colour = (id: string) => el.querySelector(`[data-id="${id}"] .pl-heat`)!.getAttribute('fill')!;
    expect(hue(colour('add'))).toBe(120);
    expect(hue(colour('conv2d'))).toBe(120); // still the best finite value: the scale spans the finite ones
    expect(hue(colour('linear'))).toBe(0);
    el.querySelector('[data-id="add"]')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(el.querySelector('.pl-details')!.textContent).toContain('SQNR∞ dB');
  });

  it('the accuracy table shows an "Infinity" SQNR as ∞, as a number', async () => {
    const view = fixture('real_accuracy.json');
    const table = view.tables[0];
    const col = table.columns.indexOf('sqnr_db');
    table.rows.find((r: unknown[]) => r[0] === 'add')[col] = 'Infinity';
    const { el } = await mount(view, { worker: false });
    const tab = [...el.querySelectorAll('.pl-main-tabs .pl-tab')][1];
    tab.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    const row = [...el.querySelectorAll('table tbody tr')].find((tr) => tr.firstElementChild?.textContent === 'add');
    expect(row!.children[col].textContent).toBe('∞');
    expect(row!.children[col].classList.contains('pl-num')).toBe(true);
  });

  it('details list skipped_by of an annotation', async () => {
    const { el } = await mount(fixture('conv_prepared.json'), { worker: false });
    el.querySelector('[data-id="linear"]')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(el.querySelector('.pl-details')!.textContent).toContain('skipped byEmbeddingQuantizer');
  });
});
