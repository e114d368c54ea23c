// A bound breach and a damaged packed View are one line in the output, worded in the View's or page's language
// (the text/html mount point says the View's `lang`; a host passes its own `locale`): the catalogues' output.* keys.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/core/contract.generated';
import { renderOutput } from '../../src/core/index';
import { CATALOGUES } from '../../src/core/locales.generated';
import { fixture } from './helpers';

const zh = CATALOGUES['zh-TW'];
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const packed = (doc: unknown) => ({
  format: 'pt2e-lens.packed',
  encoding: 'gzip+base64',
  schema_version: 1,
  data: b64(gzipSync(JSON.stringify(doc))),
});
const notGzip = { ...packed({}), data: b64(new Uint8Array([1, 2, 3, 4])) };
const tooLongTitle = () =>
  packed({ ...(fixture('real_run.json') as object), title: 'x'.repeat(LIMITS.max_string_chars + 1) });

/** The one line an output shows, drawn inside an element of language `lang` (or with the host's `locale`). */
async function line(data: unknown, lang: string | null, locale?: string): Promise<string> {
  const host = document.createElement('div');
  if (lang) host.setAttribute('lang', lang);
  const el = document.createElement('div');
  host.appendChild(el);
  document.body.appendChild(host);
  await renderOutput(el, data, { worker: false, locale }).ready;
  const msg = el.querySelectorAll('.pl-message');
  expect(msg.length).toBe(1);
  return msg[0].textContent ?? '';
}

describe('output problems in the reader’s language', () => {
  it('a damaged packed View: English on an English page, zh-TW where the View or the host says zh-TW', async () => {
    const en = await line(notGzip, 'en');
    expect(en).toBe('pt2e-lens: a damaged packed View (its data is not valid gzip); re-run the cell');
    const want = `pt2e-lens: ${zh['output.damaged'].replace('{problem}', zh['output.not_gzip'])}`;
    expect(await line(notGzip, 'zh-TW')).toBe(want);
    expect(await line(notGzip, 'en', 'zh-TW')).toBe(want); // the host's choice wins over the page
    expect(want).toMatch(/[\u4e00-\u9fff]/);
  });

  it('a breached bound names the bound in zh-TW too', async () => {
    const text = await line(tooLongTitle(), 'zh-TW');
    expect(text).toContain('max_string_chars');
    expect(text).toContain('契約限制');
    expect(text).not.toMatch(/refused unopened|has a string of/);
    expect(await line(tooLongTitle(), null)).toContain('it is refused unopened');
  });

  it('a not-base64 envelope, and a plain View over a bound (checked before the schema), in zh-TW', async () => {
    const bad = await line({ ...packed({}), data: 'not base64!' }, 'zh-TW');
    expect(bad).toContain(zh['output.not_base64']);
    const deep = JSON.parse(`${'['.repeat(800)}${']'.repeat(800)}`);
    const plain = await line(deep, 'zh-TW');
    expect(plain).toContain('max_depth');
    expect(plain).toContain(zh['output.bound.depth'].replace('{n}', String(LIMITS.max_depth)));
  });
});
