import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { locales, resolveLocale, translator } from '../../src/core/i18n';
import { fixture, mount } from './helpers';

const DIR = join(__dirname, '..', '..', 'kernel_pkg', 'pt2e_lens', 'locales');
const files = readdirSync(DIR).filter((f) => f.endsWith('.json'));
const cats: Record<string, Record<string, string>> = Object.fromEntries(
  files.map((f) => [f.slice(0, -5), JSON.parse(readFileSync(join(DIR, f), 'utf8'))]),
);
const holes = (s: string): string[] => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('catalogues', () => {
  it('every catalogue has the same keys and the same {placeholders} per key as English', () => {
    expect(Object.keys(cats).sort()).toEqual(['en', 'zh-TW']);
    const en = cats.en;
    for (const [lang, cat] of Object.entries(cats)) {
      expect(Object.keys(cat).sort(), lang).toEqual(Object.keys(en).sort());
      for (const k of Object.keys(en)) expect(holes(cat[k]), `${lang} ${k}`).toEqual(holes(en[k]));
    }
  });

  it('the core bundles the files on disk: each language, each bundled key with its text', () => {
    // which keys: those the front end looks up (scripts/front-end-keys.mjs; tests/ts/locale-bundle.test.ts)
    expect(locales()).toEqual(Object.keys(cats).sort());
    for (const lang of locales()) {
      const t = translator(lang);
      for (const [k, v] of Object.entries(cats[lang])) expect([k, v]).toContain(t(k));
      expect(t('ui.fit')).toBe(cats[lang]['ui.fit']);
    }
  });

  it('resolves what hosts report as their language', () => {
    expect(resolveLocale('zh-TW')).toBe('zh-TW');
    expect(resolveLocale('zh_tw')).toBe('zh-TW');
    expect(resolveLocale('zh-Hant-TW')).toBe('zh-TW');
    expect(resolveLocale('en-US')).toBe('en');
    expect(resolveLocale('fr')).toBe('en');
    expect(resolveLocale(undefined)).toBe('en');
    expect(translator('zh-TW')('ui.rows', { n: 3, total: 9 })).toBe('3 / 9 列');
  });
});

describe('the view in its locale', () => {
  it('zh-TW: tabs, toolbar, status line, legend and details speak Chinese; the root carries lang', async () => {
    const view = fixture('run.json');
    const { el } = await mount(view, { worker: false, locale: 'zh-TW' });
    const zh = cats['zh-TW'];
    expect(el.querySelector('.pt2e-lens')!.getAttribute('lang')).toBe('zh-TW');
    const main = [...el.querySelectorAll('.pl-main-tabs .pl-tab')].map((t) => t.textContent);
    expect(main).toEqual(['圖', '標註', 'Observer', 'Q/DQ', 'Decomposition', 'op 差異']);
    const btns = [...el.querySelectorAll('.pl-toolbar .pl-btn')].map((b) => b.textContent);
    // PNG / SVG are format names; the export group's label speaks Chinese. The closed minimap's toggle sits in
    // the toolbar (jsdom lays nothing out: the graph is larger than its zero-sized pane, so the map is offered)
    expect(btns).toEqual([
      zh['ui.fit'],
      zh['ui.collapse_all'],
      zh['ui.minimap_toggle'],
      zh['ui.expand_all'],
      'PNG',
      'SVG',
    ]);
    expect(el.querySelector('.pl-export-label')!.textContent).toBe(`${zh['ui.views.export']}:`);
    expect(el.querySelector('input[type="search"]')!.getAttribute('placeholder')).toBe(zh['ui.search']);
    expect(el.querySelector('.pl-toolbar .pl-status')!.textContent).toMatch(
      /個節點 · 顯示 \d+ 個節點、\d+ 個收合的群組$/,
    );
    expect(el.querySelector('.pl-legend')!.textContent).toContain(zh['ui.legend.selected']);
    el.querySelector('.pl-node')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(el.querySelector('.pl-details dt')!.textContent).toBe(zh['ui.details.target']);
  });

  it('the locale comes from the page when the host gives none; English by default', async () => {
    const view = fixture('run.json');
    const host = document.createElement('section');
    host.setAttribute('lang', 'zh-TW');
    document.body.appendChild(host);
    const el = document.createElement('div');
    host.appendChild(el);
    const { render } = await import('../../src/core/index');
    await render(el, view, { worker: false }).ready;
    expect(el.querySelector('.pl-main-tabs .pl-tab')!.textContent).toBe('圖');
    const { el: en } = await mount(view, { worker: false });
    expect(en.querySelector('.pl-main-tabs .pl-tab')!.textContent).toBe('Graph');
  });
});
