// Bombs in an untrusted notebook: every size is bounded before it is decoded (contract.json "limits", read
// by both sides), and a breach is one line in the output that names the bound. Small but representative
// bombs; where a real-sized one would cost the test a GB, the bound is lowered instead.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { checkDeclaredSize, checkTabular, checkTree, readBounded } from '../../src/core/bounds';
import { LIMITS } from '../../src/core/contract.generated';
import { renderOutput } from '../../src/core/index';
import { decodeTabular } from '../../src/core/tabular';
import { checkDoc } from '../../src/core/validate';
import { fixture } from './helpers';

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const packed = (doc: unknown, encoding = 'gzip+base64') => ({
  format: 'pt2e-lens.packed',
  encoding,
  schema_version: 1,
  data: b64(gzipSync(typeof doc === 'string' ? doc : JSON.stringify(doc))),
});

async function message(data: unknown): Promise<string> {
  const el = document.createElement('div');
  document.body.appendChild(el);
  await renderOutput(el, data, { worker: false }).ready;
  const msg = el.querySelectorAll('.pl-message');
  expect(msg.length).toBe(1);
  const text = msg[0].textContent ?? '';
  expect(text).toMatch(/^pt2e-lens: /);
  expect(text).not.toContain('\n');
  return text;
}

/** 2^depth values from depth+1 entries, each twice the one before. */
const doubling = (depth: number) => ({
  values: [[1, 2], ...Array.from({ length: depth }, (_, i) => [{ $: i }, { $: i }])],
  root: { $: depth },
});

describe('bounds on untrusted outputs', () => {
  it("the limits are the contract's numbers", () => {
    expect(LIMITS).toEqual({
      max_json_bytes: 134217728,
      max_values: 20000000,
      max_string_chars: 1000000,
      max_depth: 64,
    });
  });

  it('a valid View with a title over max_string_chars is refused unopened', async () => {
    const view = { ...(fixture('real_run.json') as object), title: 'x'.repeat(LIMITS.max_string_chars + 1) };
    const text = await message(packed(view));
    expect(text).toContain('max_string_chars');
  });

  it('a gzip bomb stops one chunk past max_json_bytes (lowered here) and says so, not "not valid gzip"', async () => {
    const bomb = gzipSync(new Uint8Array(8_000_000)); // 8 MB of zeros in ~8 kB
    const stream = new Response(bomb as BodyInit).body?.pipeThrough(new DecompressionStream('gzip'));
    const limits = { ...LIMITS, max_json_bytes: 1_000_000 };
    await expect(readBounded(stream as ReadableStream<Uint8Array>, limits)).rejects.toThrow(
      'unpacks to more than 1,000,000 bytes',
    );
  });

  it('a gzip bomb whose trailer declares more than max_json_bytes is refused before inflating', () => {
    const bomb = gzipSync(new Uint8Array(8_000_000));
    const limits = { ...LIMITS, max_json_bytes: 1_000_000 };
    expect(() => checkDeclaredSize(bomb, limits)).toThrow('unpacks to more than 1,000,000 bytes');
    const liar = new Uint8Array(bomb);
    liar.set([0xe8, 0x03, 0, 0], liar.length - 4); // declares 1,000 bytes: left to readBounded
    expect(() => checkDeclaredSize(liar, limits)).not.toThrow();
    expect(() => checkDeclaredSize(gzipSync('{"a": 1}'), limits)).not.toThrow();
  });

  it('a gzip bomb over the real bound is one line in the output', async () => {
    const bomb = gzipSync(new Uint8Array(LIMITS.max_json_bytes + 1024));
    const data = { format: 'pt2e-lens.packed', encoding: 'gzip+base64', schema_version: 1, data: b64(bomb) };
    expect(await message(data)).toContain('max_json_bytes');
  });

  it('a tabular chain of 2^40 values is measured, not expanded', async () => {
    expect(() => decodeTabular(doubling(40))).toThrow('expands to more than 20,000,000 values');
    expect(() => checkTabular(doubling(40).values, { $: 40 })).toThrow('max_values');
    expect(await message(packed(doubling(40), 'tabular+gzip+base64'))).toContain('max_values');
  });

  it('a reference chain deeper than max_depth is refused before the decoder recurses', () => {
    const values: unknown[] = [[1]];
    for (let i = 0; i < 200; i++) values.push([{ $: i }]);
    expect(() => decodeTabular({ values, root: { $: 200 } })).toThrow('max_depth');
  });

  it('a plain View nested 800 deep, or with too many values, is one line', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 800; i++) deep = [deep];
    const view = { ...(fixture('real_run.json') as object), title: null, notes: deep };
    const checked = checkDoc(view);
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.message).toContain('max_depth');
    expect(() => checkTree(new Array(101).fill(0), { ...LIMITS, max_values: 100 })).toThrow('max_values');
  });

  it('values, names and depth are counted alike in plain objects and in objects with a prototype', () => {
    // the fewest values a bound allows for a doc: the first limit that refuses, minus one
    const fewest = (doc: unknown, key: 'max_values' | 'max_depth' | 'max_string_chars'): number => {
      let n = 1;
      for (;;) {
        try {
          checkTree(doc, { ...LIMITS, [key]: n });
          return n;
        } catch {
          n++;
        }
      }
    };
    const plain = { a: 1, b: 'xyz', c: [{ d: null, e: 'long name here' }, [2, 3]], long_field_name: { f: true } };
    const proto = Object.assign(Object.create({ inherited_name_of_30_chars__: 1, g: { h: 1 } }), plain);
    const bare = Object.assign(Object.create(null), plain);
    for (const key of ['max_values', 'max_depth', 'max_string_chars'] as const) {
      const want = fewest(plain, key);
      expect([key, fewest(bare, key)]).toEqual([key, want]);
      // an inherited field's value is not counted, its name is checked (for-in gives it)
      expect([key, fewest(proto, key)]).toEqual([key, key === 'max_string_chars' ? 28 : want]);
    }
    expect(fewest(plain, 'max_values')).toBe(12);
    expect(fewest(plain, 'max_depth')).toBe(3);
    expect(fewest(plain, 'max_string_chars')).toBe(15);
  });

  it('a real View passes every bound', () => {
    expect(() => checkTree(fixture('real_run.json'))).not.toThrow();
    expect(checkDoc(fixture('real_run.json')).ok).toBe(true);
  });
});
