// The packed transport seen from the front end: envelopes written by pt2e_lens.schema.packed.pack
// (tests/ts/fixtures/make_packed.py) unpack to exactly the View they were made from, draw like it,
// and anything damaged shows one line in the output instead of a blank.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/core/contract.generated';
import { renderOutput } from '../../src/core/index';
import { unpack } from '../../src/core/packed';
import { decodeTabular } from '../../src/core/tabular';
import { fixture } from './helpers';

const SOURCES = ['real_run.json', 'real_accuracy.json', 'tables.json'];

async function show(data: unknown): Promise<HTMLElement> {
  const el = document.createElement('div');
  document.body.appendChild(el);
  await renderOutput(el, data, { worker: false }).ready;
  return el;
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const envelope = (over: Record<string, unknown>) => ({ ...fixture('packed/tables.json'), ...over });

describe('packed views', () => {
  it.each(SOURCES)('%s: unpacks to exactly the View pack() was given', async (name) => {
    const view = await unpack(fixture(`packed/${name}`));
    expect(JSON.stringify(view)).toBe(JSON.stringify(fixture(name)));
  });

  it('a packed Run draws the same as its plain View (0.1 outputs still draw too), from an object or text', async () => {
    const plain = await show(fixture('real_run.json'));
    const packed = await show(fixture('packed/real_run.json'));
    const text = await show(JSON.stringify(fixture('packed/real_run.json')));
    const nodes = (el: HTMLElement) => [...el.querySelectorAll('.pl-node')].map((n) => n.getAttribute('data-id'));
    expect(nodes(plain).length).toBeGreaterThan(10);
    expect(nodes(packed)).toEqual(nodes(plain));
    expect(nodes(text)).toEqual(nodes(plain));
    expect(packed.querySelector('.pl-message')).toBeNull();
  });

  it.each([
    ['not base64', envelope({ data: 'not base64!' }), 'its data is not base64'],
    ['truncated', envelope({ data: fixture('packed/tables.json').data.slice(0, 40) }), 'gzip'],
    ['not gzip', envelope({ data: b64(new TextEncoder().encode('plain text')) }), 'gzip'],
    ['not JSON inside', envelope({ data: b64(gzipSync('{nope')) }), 'a damaged packed View'],
    ['a bad reference', envelope({ data: b64(gzipSync('{"values":[],"root":{"$":3}}')) }), 'a bad reference'],
    ['unknown encoding', envelope({ encoding: 'brotli' }), 'envelope: encoding'],
    ['missing data', { format: 'pt2e-lens.packed', encoding: 'gzip+base64', schema_version: 1 }, 'data'],
    ['future version', envelope({ schema_version: 3 }), 'upgrade pt2e-lens'],
    ['broken text', '{"format":"pt2e-lens.packed", "data": ', 'a damaged packed View'],
  ])('%s: one line in the output', async (_, data, why) => {
    const el = await show(data);
    const msg = el.querySelectorAll('.pl-message');
    expect(msg.length).toBe(1);
    expect(msg[0].textContent).toContain(why);
    expect(msg[0].textContent).toMatch(/^pt2e-lens: /);
    expect(msg[0].textContent).not.toContain('\n');
    expect(el.querySelector('.pt2e-lens')?.getAttribute('data-state')).toBe('error');
  });

  it('the tabular layout refuses cycles, forward references and unbounded expansion', () => {
    expect(() => decodeTabular({ values: [{ $: 0 }], root: { $: 0 } })).toThrow('a bad reference');
    expect(() => decodeTabular({ values: [[1], { $: 1 }], root: { $: 1 } })).toThrow('a bad reference');
    const values: unknown[] = [[1, 2]];
    for (let i = 0; i < 40; i++) values.push([{ $: i }, { $: i }]);
    expect(() => decodeTabular({ values, root: { $: 40 } }, { ...LIMITS, max_values: 100_000 })).toThrow(
      'expands to more than',
    );
    expect(
      decodeTabular({ values: [[1, 2]], root: { a: { $: 0 }, b: { $cols: ['x', 'y'], $rows: [{ $: 0 }, [3, 4]] } } }),
    ).toEqual({
      a: [1, 2],
      b: [
        { x: 1, y: 3 },
        { x: 2, y: 4 },
      ],
    });
  });
});
