// The viewer bundles only the catalogue keys its source looks up (scripts/front-end-keys.mjs): each key the
// front end asks for must be among them, or it would show the key itself instead of the text.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frontEndKeys, sourceFiles } from '../../scripts/front-end-keys.mjs';
import { CATALOGUES } from '../../src/core/locales.generated';
import { fixture, mount } from './helpers';

const ROOT = join(__dirname, '..', '..');
const cat = (lang: string): Record<string, string> =>
  JSON.parse(readFileSync(join(ROOT, 'kernel_pkg', 'pt2e_lens', 'locales', `${lang}.json`), 'utf8'));
const EN = cat('en');
const LANGS = ['en', 'zh-TW'];

describe('the bundled catalogue', () => {
  it('keeps a key spelt whole or built on a head (template, `+`, a literal ending in `.`), not one in a comment', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pl-keys-'));
    const file = join(dir, 'a.ts');
    writeFileSync(
      file,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text is TypeScript source for the key reader
      "t(`ui.legend.badge_${x}`); t('ui.badge.' + k + '_title'); named(t, 'col.', c); t(o ? 'ui.fit' : 'x'); // t('ui.search')",
    );
    const keys = ['ui.legend.badge_obs', 'ui.badge.obs_title', 'col.node', 'ui.fit', 'ui.search', 'ui.legend.int'];
    try {
      expect(frontEndKeys(keys, [file])).toEqual(['ui.legend.badge_obs', 'ui.badge.obs_title', 'col.node', 'ui.fit']);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it('holds every key a translator call in the source names, and every key under a prefix it builds on', () => {
    // a line that calls a translator (`t(`, `tr(`, `this.t(`, `named(t, …)`): its key-shaped literals
    const calls = /\b(?:t|tr|named)\(/;
    const key = /['"`]([a-z]+\.[\w.-]*?)(?:['"`]|\$\{)/g;
    let seen = 0;
    for (const f of sourceFiles(join(ROOT, 'src'))) {
      for (const [i, line] of readFileSync(f, 'utf8').split('\n').entries()) {
        if (!calls.test(line)) continue;
        for (const m of line.matchAll(key)) {
          const k = m[1];
          if (!k.endsWith('.')) {
            if (!(k in EN)) continue; // a literal of another kind on the line (a CSS class, a file name)
            for (const lang of LANGS) expect(CATALOGUES[lang][k], `${f}:${i + 1} ${lang} ${k}`).toBe(cat(lang)[k]);
          } else {
            const under = Object.keys(EN).filter((x) => x.startsWith(k));
            expect(under.length, `${f}:${i + 1} prefix ${k}`).toBeGreaterThan(0);
            for (const x of under)
              for (const lang of LANGS) expect(CATALOGUES[lang][x], `${f}:${i + 1} ${x}`).toBeDefined();
          }
          seen++;
        }
      }
    }
    expect(seen).toBeGreaterThan(100);
  });

  it('leaves out the kernel-only texts (errors, warnings, CLI), and bundles each key in every language', () => {
    for (const k of Object.keys(EN)) if (/^(error|warning|cli)\./.test(k)) expect(CATALOGUES.en[k], k).toBeUndefined();
    expect(Object.keys(CATALOGUES['zh-TW'])).toEqual(Object.keys(CATALOGUES.en));
    expect(Object.keys(CATALOGUES.en).length).toBeLessThan(Object.keys(EN).length / 2);
  });
});

describe('what rendering looks up', () => {
  // every key a render asks the catalogues for, recorded through a proxy over the bundled catalogues
  const asked = new Set<string>();
  const originals = Object.fromEntries(LANGS.map((l) => [l, CATALOGUES[l]]));
  beforeAll(() => {
    for (const l of LANGS)
      CATALOGUES[l] = new Proxy(originals[l], {
        get: (o, k) => {
          if (typeof k === 'string') asked.add(k);
          return o[k as string];
        },
      });
  });
  afterAll(() => Object.assign(CATALOGUES, originals));

  it('finds each key it asks for that the catalogue has (fixtures in both languages, details opened)', async () => {
    for (const name of ['run.json', 'compare.json', 'tables.json', 'accuracy.json', 'real_lowered.json'])
      for (const locale of LANGS) {
        const { el } = await mount(fixture(name), { worker: false, locale });
        for (const tab of el.querySelectorAll<HTMLElement>('.pl-tab')) tab.click();
        el.querySelector('.pl-node')?.dispatchEvent(new MouseEvent('click', { bubbles: true }));
        el.remove();
      }
    const known = [...asked].filter((k) => k in EN);
    expect(known.length).toBeGreaterThan(50);
    for (const k of known) expect(k in originals.en, k).toBe(true);
  });
});
