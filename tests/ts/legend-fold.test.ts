// The legend's one toggle folds it, and the choice is remembered for every legend drawn after it.
import { afterEach, describe, expect, it } from 'vitest';
import { translator } from '../../src/core/i18n';
import { STORE_KEY } from '../../src/core/legend-fold';
import { fixture, mount } from './helpers';

afterEach(() => localStorage.removeItem(STORE_KEY));

describe('legend toggle', () => {
  it('folds and opens with one button, remembered by the next view', async () => {
    const { el } = await mount(fixture('conv_prepared.json'), { worker: false });
    const lg = el.querySelector('.pl-legend') as HTMLElement;
    const btn = lg.querySelector('button.pl-legend-toggle') as HTMLButtonElement;
    expect(lg.firstElementChild).toBe(btn);
    expect(btn.getAttribute('aria-expanded')).toBe('true'); // no width known here, no choice made: open
    btn.click();
    expect(lg.classList.contains('pl-legend-folded')).toBe(true);
    expect(btn.getAttribute('aria-expanded')).toBe('false');
    expect(localStorage.getItem(STORE_KEY)).toBe('folded');
    const { el: next } = await mount(fixture('conv_prepared.json'), { worker: false });
    expect(next.querySelector('.pl-legend')!.classList.contains('pl-legend-folded')).toBe(true);
    (next.querySelector('.pl-legend-toggle') as HTMLButtonElement).click();
    expect(localStorage.getItem(STORE_KEY)).toBe('open');
  });

  it('speaks the view’s language', async () => {
    const { el } = await mount(fixture('conv_prepared.json'), { worker: false, locale: 'zh-TW' });
    expect(el.querySelector('.pl-legend-toggle')!.textContent).toContain(translator('zh-TW')('ui.legend.toggle'));
  });
});
