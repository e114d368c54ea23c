import { describe, expect, it } from 'vitest';
import { fixture, mount } from './helpers';

describe('untrusted model text', () => {
  it('shows hostile names as literal text and creates no element from them', async () => {
    const view = fixture('hostile.json');
    const { el } = await mount(view, { worker: false });
    const text = el.textContent ?? '';
    expect(text).toContain('<img src=x onerror=alert(1)>');
    expect(text).toContain('<script>alert(2)</script>');
    expect(text).toContain('<svg onload=alert(3)>');
    expect(text).toContain('<img src=y onerror=alert(4)>');
    expect(text).toContain('<img src=z onerror=alert(5)>');
    expect(el.querySelectorAll('img').length).toBe(0);
    expect(el.querySelectorAll('script').length).toBe(0);
    expect(el.querySelectorAll('b, i').length).toBe(0);
    expect(el.querySelectorAll('svg:not(.pl-btn-icon)').length).toBe(1); // the graph's; the toolbar's icons are ours
    expect(el.querySelectorAll('[onerror], [onload]').length).toBe(0);
    const group = el.querySelector('.pl-group .pl-glabel')!;
    expect(group.textContent).toContain('<img src=x onerror=alert(1)>');
  });

  it('tables escape too', async () => {
    const view = fixture('hostile.json');
    const { el } = await mount({ ...view, mode: 'table' }, { worker: false });
    expect(el.querySelector('td')!.textContent).toBe('<img src=x onerror=alert(1)>');
    expect(el.querySelector('th')!.textContent).toBe('<b>c</b>');
    expect(el.querySelectorAll('img, b').length).toBe(0);
  });
});
