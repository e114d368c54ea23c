// Decodes the `tabular` layout of a packed View (kernel_pkg/pt2e_lens/schema/tabular.py, docs/contract.md):
// `{"values": [...], "root": ...}` where `{"$": i}` stands for values[i] (an entry refers only to earlier
// ones) and `{"$cols": keys, "$rows": columns}` for a list of objects. Each reference is expanded into a
// fresh copy, so the View render() gets is plain JSON data, as if parsed from the original text.

import { checkTabular, type Limits } from './bounds';
import { LIMITS } from './contract.generated';

type Json = unknown;

export function decodeTabular(data: Json, limits: Limits = LIMITS): Json {
  if (typeof data !== 'object' || data === null || !Array.isArray((data as { values?: unknown }).values)) {
    throw new Error('expected {"values": [...], "root": ...}');
  }
  const values = (data as { values: Json[] }).values;
  // the expansion's size is measured from the table of values first: a crafted chain is refused unexpanded
  checkTabular(values, (data as { root?: Json }).root, limits);
  const maxNodes = limits.max_values;
  let budget = maxNodes;
  const expand = (x: Json, limit: number): Json => {
    if (--budget < 0) throw new Error(`it expands to more than ${maxNodes} values`);
    if (Array.isArray(x)) return x.map((v) => expand(v, limit));
    if (typeof x !== 'object' || x === null) return x;
    const o = x as Record<string, Json>;
    if ('$' in o) {
      const i = o.$;
      if (Object.keys(o).length !== 1 || typeof i !== 'number' || !Number.isInteger(i) || i < 0 || i >= limit) {
        throw new Error('a bad reference');
      }
      return expand(values[i], i);
    }
    if ('$cols' in o) {
      const keys = o.$cols;
      const rows = expand(o.$rows, limit);
      if (
        !Array.isArray(keys) ||
        !keys.every((k) => typeof k === 'string') ||
        Object.keys(o).length !== 2 ||
        !Array.isArray(rows) ||
        rows.length !== keys.length ||
        !rows.every(Array.isArray)
      ) {
        throw new Error('a bad column table');
      }
      const cols = rows as Json[][];
      const n = cols.length ? cols[0].length : 0;
      if (cols.some((c) => c.length !== n)) throw new Error('columns of different lengths');
      const out: Record<string, Json>[] = [];
      for (let r = 0; r < n; r++) {
        const row: Record<string, Json> = {};
        for (let k = 0; k < keys.length; k++) row[keys[k] as string] = cols[k][r];
        out.push(row);
      }
      return out;
    }
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(o)) out[k] = expand(v, limit);
    return out;
  };
  try {
    return expand((data as { root?: Json }).root, values.length);
  } catch (e) {
    if (e instanceof RangeError) throw new Error('nested too deep');
    throw e;
  }
}
