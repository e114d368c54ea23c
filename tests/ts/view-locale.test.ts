// A View's own `locale` (made under pl.set_locale): the front end draws in it unless the host passes one.
import { describe, expect, it } from 'vitest';
import { translator } from '../../src/core/i18n';
import { fixture, mount } from './helpers';

const zh = translator('zh-TW');

describe("the view's locale", () => {
  it('a view made in zh-TW draws in zh-TW on an English page', async () => {
    const view = { ...fixture('run.json'), locale: 'zh-TW' };
    const { el } = await mount(view, { worker: false });
    expect(el.querySelector('.pt2e-lens')!.getAttribute('lang')).toBe('zh-TW');
    expect(el.querySelector('.pl-toolbar .pl-btn')!.textContent).toBe(zh('ui.fit'));
  });

  it("the view's locale beats the page's language, the host's option beats both", async () => {
    const host = document.createElement('section');
    host.setAttribute('lang', 'en');
    document.body.appendChild(host);
    const { render } = await import('../../src/core/index');
    const el = host.appendChild(document.createElement('div'));
    await render(el, { ...fixture('run.json'), locale: 'zh-TW' }, { worker: false }).ready;
    expect(el.querySelector('.pl-main-tabs .pl-tab')!.textContent).toBe(zh('ui.tab.graph'));
    const { el: forced } = await mount({ ...fixture('run.json'), locale: 'zh-TW' }, { worker: false, locale: 'en' });
    expect(forced.querySelector('.pl-main-tabs .pl-tab')!.textContent).toBe('Graph');
  });

  it('a locale that is not a string is a malformed document, not a crash', async () => {
    const { el } = await mount({ ...fixture('run.json'), locale: 7 }, { worker: false });
    expect(el.querySelector('.pt2e-lens')!.getAttribute('data-state')).toBe('error');
    expect(el.textContent).toContain('locale');
  });
});
