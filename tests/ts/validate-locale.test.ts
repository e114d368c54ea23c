// What validate.ts refuses (empty, not JSON, not an object, another format or schema_version, a document that
// breaks the schema) is one line in the reader's language: the catalogues' output.* keys, English in `message`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOGUES } from '../../src/core/locales.generated';
import { checkDoc, checkDocInSlices } from '../../src/core/validate';
import { synthView } from './fixtures/synth.mjs';
import { fixture, mount } from './helpers';

const cat = (lang: string): Record<string, string> =>
  JSON.parse(readFileSync(join(__dirname, '..', '..', 'kernel_pkg', 'pt2e_lens', 'locales', `${lang}.json`), 'utf8'));
const CJK = /[\u4e00-\u9fff]/;
const badRole = () => {
  const d = fixture('conv_prepared.json');
  d.panes[0].snapshot.nodes[0].role = 'boss';
  return d;
};

// input, its key, the English line it always showed (so logs and callers reading `message` see no change)
const cases: Array<[string, () => unknown, string, RegExp]> = [
  ['nothing', () => '', 'output.nothing_yet', /^pt2e-lens: nothing to show yet$/],
  ['not JSON', () => 'not json {', 'output.not_json', /^pt2e-lens: output is not valid JSON \(.+\)$/],
  ['not an object', () => 42, 'output.not_object', /^pt2e-lens: nothing to show \(output is not a JSON object\)$/],
  [
    'another format',
    () => ({ format: 'something-else', schema_version: 1 }),
    'output.unknown_format',
    /^pt2e-lens: unknown format "something-else"; expected "pt2e-lens.view"$/,
  ],
  [
    'a future schema_version',
    () => fixture('future.json'),
    'output.schema_version',
    /^pt2e-lens: this output uses schema_version 3; this viewer understands 1, 2 — upgrade pt2e-lens$/,
  ],
  ['a schema breach', badRole, 'output.malformed', /^pt2e-lens: malformed output: .*nodes\[0\]\.role: expected one of/],
];

/** The catalogue text of `key` in `lang` up to its first placeholder. */
const head = (lang: string, key: string) => cat(lang)[key].split(/\{\w+\}/)[0];

describe('validate.ts refusals in the reader’s language', () => {
  it('the keys are bundled, with the same placeholders in en and zh-TW', () => {
    const slots = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const [, , key] of cases) {
      expect(CATALOGUES.en[key], key).toBe(cat('en')[key]);
      expect(CATALOGUES['zh-TW'][key], key).toBe(cat('zh-TW')[key]);
      expect(slots(cat('zh-TW')[key]), key).toEqual(slots(cat('en')[key]));
      expect(cat('zh-TW')[key], key).toMatch(CJK);
    }
  });

  it.each(cases)(
    '%s: English in `message` and on an English page, Traditional Chinese on a zh-TW one',
    async (_what, input, key, english) => {
      const r = checkDoc(input());
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.message).toMatch(english);
      const en = await mount(input(), { worker: false });
      expect(en.el.querySelector('.pl-message')?.textContent).toBe(r.message);
      const zh = await mount(input(), { worker: false, locale: 'zh-TW' });
      const line = zh.el.querySelector('.pl-message')?.textContent ?? '';
      expect(line.startsWith(`pt2e-lens: ${head('zh-TW', key)}`), line).toBe(true);
      expect(line).toMatch(CJK);
      expect(line).not.toBe(r.message);
      expect(line).not.toContain('\n');
      expect(zh.el.querySelector('svg')).toBeNull();
    },
  );

  it('the sliced check of a big document words its refusal the same way', async () => {
    const big = synthView(4000);
    big.panes[0].snapshot.nodes[3500].role = 'wizard';
    const r = await checkDocInSlices(big, () => Promise.resolve());
    expect(r.ok).toBe(false);
    if (r.ok || !r.line) throw new Error('expected a refusal with a line');
    expect(r.message).toMatch(/^pt2e-lens: malformed output: panes\[0\]\.snapshot\.nodes\[3500\]\.role/);
    const zh = r.line((k, p) => cat('zh-TW')[k].replace(/\{(\w+)\}/g, (_, n) => String(p?.[n])));
    expect(zh.startsWith(`pt2e-lens: ${head('zh-TW', 'output.malformed')}`)).toBe(true);
    expect(zh).toContain('panes[0].snapshot.nodes[3500].role');
  });
});
