// @vitest-environment node
// (no DOM here: the node environment spares this file the set-up of jsdom)
// parseJsonInSlices gives exactly JSON.parse's result (or its error), over several tasks for a big text.
import { describe, expect, it } from 'vitest';
import { parseJsonInSlices } from '../../src/core/json-slices';
import { synthView } from './fixtures/synth.mjs';

let pauses = 0;
const pause = (): Promise<void> => {
  pauses++;
  return Promise.resolve();
};
// tiny sizes: every container over 40 characters is taken apart, members parsed 30 characters at a time
const tiny = { sliceMs: 0, big: 40, batch: 30 };

const TEXTS = [
  '{"a": [1, 2, 3, {"b": "x,]}\\"y"}, [4, [5, 6]], null, true, false, -1.5e3], "c": {"d": "\\\\", "e": "\\u00e9,{"}}',
  ' [ {"k": [ "v", "w" ] , "l": {}}, [], {} ,"a long string that is over forty characters, with [brackets] in it"] ',
  '{"__proto__": {"polluted": [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17]}, "x": [{"__proto__": 1}, 2, 3, 4, 5]}',
  '{"dup": [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20], "dup": 2, "tail": "\\\\\\""}',
  '[[[[[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25]]]]]',
  // arrays of objects and of arrays: runs of members are guessed at "}, {" / "], [", some inside strings or
  // nested containers (those guesses must fail and be scanned instead)
  '[{"a": "}, {"}, {"b": [{"c": 1}, {"d": 2}]}, {"e": "x\\"}, {"}, {"f": 1},{"g": 2} , {"h": [3]}, {"i": "}, {\\\\"}, {"j": 4}]',
  '{"m": [[1, [2, 3]], [4, "], ["], [[5], [6]], [7], [8, 9], [10, 11], [12, 13], [14, 15]], "n": [{"o": {"p": [{}, {}]}}, {}, {"q": 1}, {"r": 2}]}',
  '"just a string that is longer than forty characters"',
  '42',
];
const BAD = [
  '{"a": [1, 2,, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]}',
  '{"a": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, ]}',
  '{"a": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]} x',
  '{"a": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16], , "b": 1}',
  '{"a" [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]}',
  '{"a": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}',
  '{"a": "unterminated, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]',
  '[{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}, {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}] [1]',
  '[{"a": 1}, {"b": 2}, {"c": 3}, {"d": 4}, {"e": 5}, {"f": 6}, {"g": 7}, {"h": 8}, {"i": 9},]',
  '[{"a": 1}, {"b": 2}, {"c": 3}, {"d": 4}, {"e": 5}, {"f": 6}, {"g": 7}, {"h": 8}, {"i": 9}}',
  '[{"a": 1}, {"b": 2}, {"c": 3}, {"d": 4}, {"e": 5}, {"f": 6}, {"g": 7}, {"h": 8}, {"i": 9}]]',
  '{"x": [{"a": 1}, {"b": 2}, {"c": 3}, {"d": 4}, {"e": 5}, {"f": 6}, {"g": 7}, {"h": 8}, {"i" 9}]}',
];

function nativeError(text: string): string {
  try {
    JSON.parse(text);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error(`expected invalid JSON: ${text}`);
}

describe('parseJsonInSlices', () => {
  it.each(TEXTS)('gives what JSON.parse gives: %s', async (text) => {
    const got = await parseJsonInSlices(text, pause, tiny);
    expect(got).toStrictEqual(JSON.parse(text));
    expect(JSON.stringify(got)).toBe(JSON.stringify(JSON.parse(text)));
  });

  it('keeps __proto__ an own key, never the prototype', async () => {
    const got = (await parseJsonInSlices(TEXTS[2], pause, tiny)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
    expect(Object.keys(got)).toEqual(['__proto__', 'x']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each(BAD)('throws JSON.parse’s own error on %s', async (text) => {
    await expect(parseJsonInSlices(text, pause, tiny)).rejects.toThrow(nativeError(text));
  });

  it('parses a 5k-node View over many tasks, equal to JSON.parse', async () => {
    const text = JSON.stringify(synthView(5000));
    pauses = 0;
    const got = await parseJsonInSlices(text, pause, { sliceMs: 0 });
    expect(got).toStrictEqual(JSON.parse(text));
    // a pause per parsed batch (~64k characters, most of them guessed runs of nodes): the parse was taken apart
    expect(pauses).toBeGreaterThan((0.9 * text.length) / (1 << 16));
  });
});
