// @vitest-environment node
// (no DOM here: the node environment spares this file the set-up of jsdom)
import { describe, expect, it } from 'vitest';
import { accepts } from '../../src/core/schema-accept';
import { explain } from '../../src/core/schema-check';
import { VIEW_SCHEMA } from '../../src/core/types';
import { checkDoc, checkDocInSlices } from '../../src/core/validate';
import { synthView } from './fixtures/synth.mjs';
import { fixture } from './helpers';

const ROOT = VIEW_SCHEMA as Record<string, unknown>;
const ANY = { $ref: '#/$defs/View' };
const pause = () => new Promise<void>((r) => setTimeout(r, 0));

/** A small seeded generator: the same mutations on every run. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

// values a mutation puts in place of one: each kind the schema tells apart
const POOL: unknown[] = [
  null,
  0,
  3,
  -1,
  1.5,
  Number.NaN,
  'x',
  'NaN',
  '',
  true,
  [],
  [1],
  [null],
  ['a', 'b'],
  {},
  { a: 1 },
];

/** Every container in `doc` with one of its keys or indices: the places a mutation can hit. */
function places(doc: unknown): Array<[Record<string, unknown> | unknown[], string | number]> {
  const out: Array<[Record<string, unknown> | unknown[], string | number]> = [];
  const walk = (x: unknown) => {
    if (typeof x !== 'object' || x === null) return;
    const at = x as Record<string | number, unknown>;
    for (const [k, v] of Object.entries(at)) {
      out.push([at, Array.isArray(x) ? Number(k) : k]);
      walk(v);
    }
  };
  walk(doc);
  return out;
}

describe('the yes/no schema pass', () => {
  it('says yes exactly when the explaining walk finds nothing, over 3,000 mutated documents', () => {
    const next = rng(15);
    let refused = 0;
    for (const name of ['conv_prepared.json', 'conv_converted.json', 'compare.json', 'run.json', 'real_lowered.json']) {
      const base = JSON.stringify(fixture(name));
      for (let n = 0; n < 600; n++) {
        const doc = JSON.parse(base);
        const spots = places(doc);
        for (let m = 0; m < 1 + Math.floor(next() * 2); m++) {
          const [at, key] = spots[Math.floor(next() * spots.length)];
          const r = next();
          if (r < 0.15 && !Array.isArray(at)) delete at[key as string];
          else if (r < 0.25 && !Array.isArray(at)) at[`stray${n}`] = 1;
          else (at as Record<string | number, unknown>)[key] = POOL[Math.floor(next() * POOL.length)];
        }
        const why = explain(doc, ANY, ROOT);
        expect([name, n, accepts(doc, ANY, ROOT)]).toEqual([name, n, why === null]);
        if (why) refused++;
      }
    }
    expect(refused).toBeGreaterThan(1500); // most mutations break the document: both verdicts are exercised
  });

  it("each form of a oneOf, neither, and an object with both forms' fields", () => {
    const doc = fixture('conv_prepared.json');
    const spec = doc.panes[0].snapshot.specs[0];
    for (const v of [null, { edge: ['a', 'b'] }, { node: 'a' }, { node: 'a', edge: ['a', 'b'] }, { edge: ['a'] }, 1]) {
      spec.shared_with = v;
      expect(accepts(doc, ANY, ROOT)).toBe(explain(doc, ANY, ROOT) === null);
    }
  });

  it('a required field undefined, inherited, or named "constructor": the same verdict', () => {
    const doc = fixture('conv_prepared.json');
    const nodes = doc.panes[0].snapshot.nodes;
    const node = nodes[0];
    const cases = [
      { ...node, id: undefined },
      Object.assign(Object.create({ id: 'x' }), { ...node, id: undefined }),
      Object.assign(Object.create({ id: 'x' }), Object.fromEntries(Object.entries(node).filter(([k]) => k !== 'id'))),
      JSON.parse('{"constructor": 1, "__proto__": {"id": "x"}}'),
    ];
    for (const c of cases) {
      nodes[0] = c;
      expect(accepts(doc, ANY, ROOT)).toBe(explain(doc, ANY, ROOT) === null);
    }
  });
});

// the lines a bad document got before the yes/no pass (main at 51cb594), in one task and in slices
const REFUSED: Array<[string, (d: any) => void, string]> = [
  [
    'a node shape of text',
    (d) => (d.panes[0].snapshot.nodes[2].shape = 'big'),
    'pt2e-lens: malformed output: panes[0].snapshot.nodes[2].shape: expected null or array, got string "big"',
  ],
  [
    'a q/dq scale of text',
    (d) => (d.panes[0].snapshot.qdq[0].scale = ['x']),
    'pt2e-lens: malformed output: panes[0].snapshot.qdq[0].scale[0]: expected number or null, got string "x"',
  ],
  ['a late node role', (d) => (d.panes[0].snapshot.nodes.at(-3).role = 'boss'), 'NODE_ROLE'],
  [
    'a stray field in an edge',
    (d) => (d.panes[0].snapshot.edges[1].weight = 2),
    'pt2e-lens: malformed output: panes[0].snapshot.edges[1]: unknown field "weight"',
  ],
  [
    'a negative arg',
    (d) => (d.panes[0].snapshot.edges[0].arg = -1),
    'pt2e-lens: malformed output: panes[0].snapshot.edges[0].arg: expected at least 0, got -1',
  ],
  [
    'a spec shared with both forms',
    (d) => (d.panes[0].snapshot.specs[0].shared_with = { node: 'a', edge: ['a', 'b'] }),
    'pt2e-lens: malformed output: panes[0].snapshot.specs[0].shared_with: expected null or EdgeOrNode, got object {"node":"a","edge":["a","b"]}',
  ],
];

describe('a bad document is refused with the same one line', () => {
  // the late node's index differs between the two documents
  const late = (doc: any, line: string) => line.replace('NODE_ROLE', lateRole(doc.panes[0].snapshot.nodes.length - 3));
  const lateRole = (i: number) =>
    `pt2e-lens: malformed output: panes[0].snapshot.nodes[${i}].role: expected one of "input", "param", "compute", "observer", "quantize", "dequantize", "output", got "boss"`;

  it.each(REFUSED)('%s (small, one task)', (_what, edit, line) => {
    const doc = fixture('conv_converted.json');
    const want = late(doc, line);
    edit(doc);
    const r = checkDoc(doc);
    expect(r.ok ? '' : r.message).toBe(want);
  });

  it.each(REFUSED)('%s (big: its nodes and edges checked in slices)', async (_what, edit, line) => {
    const doc = synthView(4000);
    const small = fixture('conv_converted.json').panes[0].snapshot;
    Object.assign(doc.panes[0].snapshot, { qdq: small.qdq, specs: small.specs });
    const want = late(doc, line);
    edit(doc);
    const r = await checkDocInSlices(JSON.stringify(doc), pause);
    expect(r.ok ? '' : r.message).toBe(want);
  });
});
