// Bounds on what an opened document may hold (contract.json "limits", the same numbers as
// kernel_pkg/pt2e_lens/schema/bounds.py). A saved output comes from an untrusted notebook: a 1 MB gzip can
// unpack to a GB, a tabular reference chain to 2^40 values, one string to 400 M characters. Each size is
// checked before the next step builds anything, and a breach is one line that names the bound.
import { LIMITS } from './contract.generated';
import { OutputProblem } from './problem';

export type Limits = { -readonly [K in keyof typeof LIMITS]: number };

export class TooBig extends OutputProblem {}

const num = (n: number): string => n.toLocaleString('en');

/** The one line of a breach: `what` is an `output.bound.*` key filled with `n`. */
function tooBig(what: string, n: number, limit: number, name: string): TooBig {
  return new TooBig((t) =>
    t('output.refused', { what: t(`output.bound.${what}`, { n: num(n) }), limit: num(limit), name }),
  );
}

/** A gzip stream whose trailer (ISIZE, the last 4 bytes: its size modulo 2^32) declares more than
 * max_json_bytes is refused before anything is inflated; one whose trailer lies still meets readBounded. */
export function checkDeclaredSize(gzip: Uint8Array, limits: Limits = LIMITS): void {
  const cap = limits.max_json_bytes;
  if (gzip.length < 18) return;
  const n = gzip.length;
  const declared = (gzip[n - 4] | (gzip[n - 3] << 8) | (gzip[n - 2] << 16) | (gzip[n - 1] << 24)) >>> 0;
  // DEFLATE inflates at most ~1032 bytes per byte: more than that is no whole stream's trailer (a truncated
  // stream ends in arbitrary bytes) and is left to readBounded and the stream's own error
  if (declared > cap && declared <= 1032 * n) throw tooBig('unpacks', cap, cap, 'max_json_bytes');
}

/** A gunzipped stream, read chunk by chunk and cancelled one chunk past max_json_bytes. */
export async function readBounded(stream: ReadableStream<Uint8Array>, limits: Limits = LIMITS): Promise<Uint8Array> {
  const cap = limits.max_json_bytes;
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    n += value.length;
    if (n > cap) {
      void reader.cancel().catch(() => undefined);
      throw tooBig('unpacks', cap, cap, 'max_json_bytes');
    }
    chunks.push(value);
  }
  const out = new Uint8Array(n);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

export function checkTextSize(length: number, limits: Limits = LIMITS): void {
  const cap = limits.max_json_bytes;
  if (length > cap) throw tooBig('json_bytes', cap, cap, 'max_json_bytes');
}

function checkString(s: string, maxChars: number): void {
  if (s.length > maxChars) {
    throw tooBig('string', s.length, maxChars, 'max_string_chars');
  }
}

/** A parsed document: at most max_values values, max_depth levels, strings of max_string_chars. Iterative,
 * one step per container (its scalars are checked in its own loop: most values are scalars). */
export function checkTree(doc: unknown, limits: Limits = LIMITS): void {
  for (const _ of checkTreeSteps(doc, limits));
}

/** Containers checked between two chances to pause. */
const TREE_STEP = 1024;

/** checkTree, pausing (yielding) every TREE_STEP containers: a 100k-node document holds millions of values. */
export function* checkTreeSteps(doc: unknown, limits: Limits = LIMITS): Generator<void, void> {
  const { max_values: maxValues, max_depth: maxDepth, max_string_chars: maxChars } = limits;
  if (typeof doc === 'string') checkString(doc, maxChars);
  if (typeof doc !== 'object' || doc === null) return;
  // for-in over a plain object names exactly its own fields when Object.prototype has no enumerable one: then
  // one loop reads names and values (an Object.values array per object took twice the CPU on an open's first,
  // unoptimised, run); any other object takes the own values and every name for-in gives, separately
  const plainForIn = emptyForIn();
  const stack: object[] = [doc];
  const depths: number[] = [1];
  let count = 1;
  let steps = 0;
  const visit = (v: unknown, depth: number): void => {
    if (typeof v === 'string') {
      if (v.length > maxChars) checkString(v, maxChars);
    } else if (typeof v === 'object' && v !== null) {
      stack.push(v);
      depths.push(depth + 1);
    }
  };
  while (stack.length) {
    const x = stack.pop() as Record<string, unknown>;
    const depth = depths.pop() as number;
    if (depth > maxDepth) throw tooBig('depth', maxDepth, maxDepth, 'max_depth');
    if (Array.isArray(x)) {
      count += x.length;
      for (let i = 0; i < x.length; i++) visit(x[i], depth);
    } else if (plainForIn && Object.getPrototypeOf(x) === Object.prototype) {
      for (const k in x) {
        count++;
        if (k.length > maxChars) checkString(k, maxChars);
        visit(x[k], depth);
      }
    } else {
      const children = Object.values(x);
      count += children.length;
      for (const k in x) if (k.length > maxChars) checkString(k, maxChars);
      for (let i = 0; i < children.length; i++) visit(children[i], depth);
    }
    if (count > maxValues) {
      throw tooBig('values', maxValues, maxValues, 'max_values');
    }
    if (++steps % TREE_STEP === 0) yield;
  }
}

function emptyForIn(): boolean {
  for (const _ in {}) return false;
  return true;
}

type Size = [values: number, depth: number, chars: number];

/** The size a tabular layout expands to, from its table of values (each entry measured once, in order: an
 * entry refers only to earlier ones), before anything is expanded. Bad references are left to the decoder. */
export function checkTabular(values: unknown[], root: unknown, limits: Limits = LIMITS): void {
  const sizes: Size[] = [];
  const measure = (x: unknown): Size => {
    if (typeof x === 'string') return [1, 0, x.length + 2];
    if (typeof x !== 'object' || x === null) return [1, 0, 8];
    const sum = (parts: Size[], extra: number): Size => {
      let n = 1;
      let d = 0;
      let c = extra;
      for (const p of parts) {
        n += p[0];
        d = Math.max(d, p[1]);
        c += p[2] + 1;
      }
      return [n, d + 1, c];
    };
    if (Array.isArray(x)) return sum(x.map(measure), 2);
    const o = x as Record<string, unknown>;
    const keys = Object.keys(o);
    const ref = o.$;
    if (keys.length === 1 && typeof ref === 'number' && Number.isInteger(ref) && ref >= 0 && ref < sizes.length) {
      return sizes[ref];
    }
    if ('$cols' in o && Array.isArray(o.$cols)) {
      const names = o.$cols.filter((k): k is string => typeof k === 'string');
      const [n, d, c] = measure(o.$rows);
      const rows = Math.floor(n / Math.max(1, names.length));
      return [n + rows, d, c + rows * names.reduce((a, k) => a + k.length + 4, 0)];
    }
    return sum(
      keys.map((k) => measure(o[k])),
      2 + keys.reduce((a, k) => a + k.length + 4, 0),
    );
  };
  const check = ([n, depth, chars]: Size): void => {
    if (n > limits.max_values) {
      const cap = limits.max_values;
      throw tooBig('expands_values', cap, cap, 'max_values');
    }
    if (depth > limits.max_depth) {
      throw tooBig('expands_depth', limits.max_depth, limits.max_depth, 'max_depth');
    }
    if (chars > limits.max_json_bytes) {
      const cap = limits.max_json_bytes;
      throw tooBig('expands_bytes', cap, cap, 'max_json_bytes');
    }
  };
  for (const entry of values) {
    sizes.push(measure(entry));
    check(sizes[sizes.length - 1]);
  }
  check(measure(root));
}
