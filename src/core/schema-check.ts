// A small JSON Schema interpreter for exactly the keywords view.schema.json uses (scripts/gen-contract.mjs
// refuses any other keyword, so nothing in the schema is silently skipped here). The report and widget
// bundles are inlined into saved notebooks: a full validator (ajv and the like) would cost more than the
// rest of the viewer, and compiles code at run time, which strict hosts forbid.

type Schema = Record<string, unknown>;

/** The first way `value` breaks `schema`, as `path: what` (one line), or null. Never throws. */
export function schemaError(value: unknown, schema: Schema, root: Schema, path = ''): string | null {
  const err = check(value, schema, root, path);
  return err && `${err.path || 'the document'}: ${err.what}`;
}

type Err = { path: string; what: string } | null;

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function hasType(v: unknown, t: string): boolean {
  const actual = typeOf(v);
  if (t === 'number') return (actual === 'number' || actual === 'integer') && Number.isFinite(v as number);
  return actual === t;
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

function resolve(ref: string, root: Schema): Schema {
  const name = ref.replace('#/$defs/', '');
  return (root.$defs as Record<string, Schema> | undefined)?.[name] ?? {};
}

function check(v: unknown, s: Schema, root: Schema, path: string): Err {
  if (typeof s.$ref === 'string') {
    const err = check(v, resolve(s.$ref, root), root, path);
    if (err) return err;
  }
  if ('const' in s && v !== s.const) return { path, what: `expected ${show(s.const)}, got ${show(v)}` };
  if (Array.isArray(s.enum) && !s.enum.includes(v))
    return { path, what: `expected one of ${s.enum.map(show).join(', ')}, got ${show(v)}` };
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    if (!types.some((t) => hasType(v, t)))
      return { path, what: `expected ${types.join(' or ')}, got ${typeOf(v)} ${show(v)}` };
  }
  if (Array.isArray(s.oneOf)) {
    const errors = (s.oneOf as Schema[]).map((b) => check(v, b, root, path));
    const matches = errors.filter((e) => e === null).length;
    if (matches > 1) return { path, what: 'matches more than one form' };
    if (matches === 0) {
      // the branch that got furthest explains best; if none got past `v`, name them all
      const deepest = errors.reduce((a, b) => ((b?.path.length ?? 0) > (a?.path.length ?? 0) ? b : a));
      if (deepest && deepest.path.length > path.length) return deepest;
      const forms = (s.oneOf as Schema[]).map(describe).join(' or ');
      return { path, what: `expected ${forms}, got ${typeOf(v)} ${show(v)}` };
    }
  }
  if (Array.isArray(v)) return checkArray(v, s, root, path);
  if (typeOf(v) === 'object') return checkObject(v as Record<string, unknown>, s, root, path);
  if (typeof s.minimum === 'number' && typeof v === 'number' && v < s.minimum)
    return { path, what: `expected at least ${s.minimum}, got ${v}` };
  return null;
}

function checkArray(v: unknown[], s: Schema, root: Schema, path: string): Err {
  if (typeof s.minItems === 'number' && v.length < s.minItems)
    return { path, what: `expected at least ${s.minItems} items, got ${v.length}` };
  if (typeof s.maxItems === 'number' && v.length > s.maxItems)
    return { path, what: `expected at most ${s.maxItems} items, got ${v.length}` };
  if (typeof s.items === 'object' && s.items !== null) {
    for (let i = 0; i < v.length; i++) {
      const err = check(v[i], s.items as Schema, root, `${path}[${i}]`);
      if (err) return err;
    }
  }
  return null;
}

// own keys only: a document's "constructor" must not find Object.prototype's (Object.hasOwn is ES2022)
const own = (o: object, k: string) => Object.getOwnPropertyDescriptor(o, k) !== undefined;

function checkObject(v: Record<string, unknown>, s: Schema, root: Schema, path: string): Err {
  const props = (s.properties ?? {}) as Record<string, Schema>;
  const dot = (k: string) => (path ? `${path}.${k}` : k);
  for (const k of (s.required ?? []) as string[]) {
    if (!own(v, k)) return { path, what: `missing the field "${k}"` };
  }
  for (const [k, value] of Object.entries(v)) {
    const sub = own(props, k) ? props[k] : s.additionalProperties;
    if (sub === false) return { path, what: `unknown field ${show(k)}` };
    if (typeof sub === 'object' && sub !== null) {
      const err = check(value, sub as Schema, root, dot(k));
      if (err) return err;
    }
  }
  return null;
}
