// A small JSON Schema checker for exactly the keywords view.schema.json uses (scripts/gen-contract.mjs
// refuses any other keyword, so nothing in the schema is silently skipped here). The report and widget
// bundles are inlined into saved notebooks: a full validator (ajv and the like) would cost more than the
// rest of the viewer, and compiles code with `new Function`, which strict hosts forbid. Each schema node
// is turned into a closure once, and the path of a value is only spelled out when it is wrong: a 20k-node
// graph is checked on every render. schema-accept.ts answers yes or no first; this walk, which keeps the
// path, runs only to explain a no.

import { accept, accepts, isObject, onFirstUse, present, resolve, type Schema, TYPE_TESTS } from './schema-accept';

export type Key = string | number;
// `what` is spelled only when the error is reported: a failed oneOf branch (a node's `shape` is no null) is
// the common case and never shown
type Err = { path: Key[]; what: () => string } | null;
type Check = (v: unknown) => Err;

/** The first way `value` breaks `schema`, as `path: what` (one line), or null. Never throws. */
export function schemaError(value: unknown, schema: Schema, root: Schema): string | null {
  return accepts(value, schema, root) ? null : explain(value, schema, root);
}

/** schemaError without the yes/no pass first (tests compare the two verdicts). */
export function explain(value: unknown, schema: Schema, root: Schema): string | null {
  stack.length = 0;
  const err = compile(schema, root)(value);
  return err && `${spell(err.path) || 'the document'}: ${err.what()}`;
}

/** The first way an item of `items[from..to)` breaks `item`, spelled with `at` as its path (e.g. `nodes`):
 * the slices of a big array are checked in separate tasks so no single one blocks the page. */
export function itemsError(
  items: unknown[],
  item: Schema,
  root: Schema,
  at: Key[],
  from: number,
  to: number,
): string | null {
  const ok = accept(item, root);
  let i = from;
  const end = Math.min(to, items.length);
  while (i < end && ok(items[i])) i++;
  if (i === end) return null;
  const check = compile(item, root);
  for (; i < end; i++) {
    stack.length = 0;
    stack.push(...at, i);
    const err = check(items[i]);
    if (err) return `${spell(err.path)}: ${err.what()}`;
  }
  return null;
}

// the path to the value being checked; copied only into an error
const stack: Key[] = [];
const fail = (what: () => string): Err => ({ path: stack.slice(), what });
const spell = (path: Key[]) => path.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? k : `.${k}`)).join('');

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function show(v: unknown): string {
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = String(v);
  }
  return s.length > 40 ? `${s.slice(0, 39)}…` : s;
}

function describe(s: Schema): string {
  if (typeof s.$ref === 'string') return s.$ref.split('/').pop() ?? s.$ref;
  if ('const' in s) return show(s.const);
  if (Array.isArray(s.type)) return s.type.join(' or ');
  return typeof s.type === 'string' ? s.type : 'a valid form';
}

const compiled = new WeakMap<Schema, Check>();

function compile(s: Schema, root: Schema): Check {
  const known = compiled.get(s);
  if (known) return known;
  const parts: Check[] = [];
  const ref = s.$ref;
  if (typeof ref === 'string') parts.push(onFirstUse(() => compile(resolve(ref, root), root)));
  if ('const' in s) {
    const c = s.const;
    parts.push((v) => (v === c ? null : fail(() => `expected ${show(c)}, got ${show(v)}`)));
  }
  if (Array.isArray(s.enum)) {
    const values = s.enum;
    parts.push((v) =>
      values.includes(v) ? null : fail(() => `expected one of ${values.map(show).join(', ')}, got ${show(v)}`),
    );
  }
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    const tests = types.map((t) => TYPE_TESTS[t] ?? (() => false));
    parts.push((v) => {
      for (const t of tests) if (t(v)) return null;
      return fail(() => `expected ${types.join(' or ')}, got ${typeOf(v)} ${show(v)}`);
    });
  }
  if (Array.isArray(s.oneOf)) parts.push(oneOf(s, root));
  if ('items' in s || 'minItems' in s || 'maxItems' in s) parts.push(array(s, root));
  if ('properties' in s || 'required' in s || 'additionalProperties' in s) parts.push(object(s, root));
  if (typeof s.minimum === 'number') {
    const min = s.minimum;
    parts.push((v) => (typeof v === 'number' && v < min ? fail(() => `expected at least ${min}, got ${v}`) : null));
  }
  const check: Check =
    parts.length === 1
      ? parts[0]
      : (v) => {
          for (const part of parts) {
            const err = part(v);
            if (err) return err;
          }
          return null;
        };
  compiled.set(s, check);
  return check;
}

function oneOf(s: Schema, root: Schema): Check {
  const forms = s.oneOf as Schema[];
  const branches = forms.map((b) => compile(b, root));
  return (v) => {
    const depth = stack.length;
    let matches = 0;
    let deepest: Err = null; // the branch that got furthest explains best
    for (const branch of branches) {
      const err = branch(v);
      if (err === null) matches++;
      else if (stack.length !== depth) stack.length = depth; // a failed branch leaves its path behind
      if (err && (!deepest || err.path.length > deepest.path.length)) deepest = err;
    }
    if (matches === 1) return null;
    if (matches > 1) return fail(() => 'matches more than one form');
    // if no branch got past `v`, name them all
    if (deepest && deepest.path.length > depth) return deepest;
    return fail(() => `expected ${forms.map(describe).join(' or ')}, got ${typeOf(v)} ${show(v)}`);
  };
}

function array(s: Schema, root: Schema): Check {
  const min = typeof s.minItems === 'number' ? s.minItems : 0;
  const max = typeof s.maxItems === 'number' ? s.maxItems : Number.POSITIVE_INFINITY;
  const item = isObject(s.items) ? compile(s.items, root) : null;
  return (v) => {
    if (!Array.isArray(v)) return null;
    if (v.length < min) return fail(() => `expected at least ${min} items, got ${v.length}`);
    if (v.length > max) return fail(() => `expected at most ${max} items, got ${v.length}`);
    if (item) {
      for (let i = 0; i < v.length; i++) {
        stack.push(i);
        const err = item(v[i]);
        if (err) return err;
        stack.pop();
      }
    }
    return null;
  };
}

function object(s: Schema, root: Schema): Check {
  const props = new Map<string, Check>();
  for (const [k, p] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) props.set(k, compile(p, root));
  const required = (s.required ?? []) as string[];
  const extra = s.additionalProperties;
  const other = isObject(extra) ? compile(extra, root) : null;
  return (v) => {
    if (!isObject(v)) return null;
    for (const k of required) if (!present(v, k)) return fail(() => `missing the field "${k}"`);
    for (const k of Object.keys(v)) {
      const check = props.get(k) ?? other;
      if (!check) {
        if (extra === false) return fail(() => `unknown field ${show(k)}`);
        continue;
      }
      stack.push(k);
      const err = check(v[k]);
      if (err) return err;
      stack.pop();
    }
    return null;
  };
}
