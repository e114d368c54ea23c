// The yes/no half of the schema check (schema-check.ts explains a "no"): the same keywords, the same verdict,
// but no path kept and nothing allocated per value. A 100k-node document is checked on every open and is
// almost always valid, so the walk that can name the broken field runs only when this one says no. A oneOf
// runs only the branches whose `type` admits the value: a node's `shape` (null or an array) or a q/dq's
// `scale` costs one branch, not a failed one and an error object as well.

export type Schema = Record<string, unknown>;
type Accept = (v: unknown) => boolean;

export const TYPE_TESTS: Record<string, (v: unknown) => boolean> = {
  null: (v) => v === null,
  boolean: (v) => typeof v === 'boolean',
  integer: (v) => Number.isInteger(v),
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  string: (v) => typeof v === 'string',
  array: (v) => Array.isArray(v),
  object: (v) => isObject(v),
};

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// an own field: inherited ones (Object.prototype's "constructor", "__proto__") are functions or objects,
// so a primitive value needs no further look (Object.hasOwn is ES2022)
const hasOwn = Object.prototype.hasOwnProperty;

export function present(o: Record<string, unknown>, k: string): boolean {
  const v = o[k];
  if (v === undefined) return false;
  return (typeof v !== 'object' && typeof v !== 'function') || hasOwn.call(o, k);
}

export function resolve(ref: string, root: Schema): Schema {
  const name = ref.replace('#/$defs/', '');
  return (root.$defs as Record<string, Schema> | undefined)?.[name] ?? {};
}

/** `make()`'s function, made when first called: a $ref is resolved on first use (the schema refers to itself). */
export function onFirstUse<R>(make: () => (v: unknown) => R): (v: unknown) => R {
  let f: ((v: unknown) => R) | undefined;
  return (v) => {
    f ??= make();
    return f(v);
  };
}

/** The value passes `s`'s `type` keyword (true when it has none). */
function typeTest(s: Schema, root: Schema): Accept {
  for (let hops = 0; typeof s.$ref === 'string' && s.type === undefined && hops < 8; hops++) s = resolve(s.$ref, root);
  if (s.type === undefined) return () => true;
  const tests = (Array.isArray(s.type) ? (s.type as string[]) : [s.type as string]).map((t) => TYPE_TESTS[t]);
  if (tests.some((t) => t === undefined)) return () => false;
  return tests.length === 1 ? tests[0] : (v) => tests.some((t) => t(v));
}

const compiled = new WeakMap<Schema, Accept>();

/** Whether `value` satisfies `schema`: exactly when schema-check's schemaError finds nothing. */
export function accepts(value: unknown, schema: Schema, root: Schema): boolean {
  return accept(schema, root)(value);
}

export function accept(s: Schema, root: Schema): Accept {
  const known = compiled.get(s);
  if (known) return known;
  const parts: Accept[] = [];
  const ref = s.$ref;
  if (typeof ref === 'string') parts.push(onFirstUse(() => accept(resolve(ref, root), root)));
  if ('const' in s) {
    const c = s.const;
    parts.push((v) => v === c);
  }
  if (Array.isArray(s.enum)) {
    const values = s.enum;
    parts.push((v) => values.includes(v));
  }
  if (s.type !== undefined) parts.push(typeTest({ type: s.type }, root));
  if (Array.isArray(s.oneOf)) parts.push(oneOf(s.oneOf as Schema[], root));
  if ('items' in s || 'minItems' in s || 'maxItems' in s) parts.push(array(s, root));
  if ('properties' in s || 'required' in s || 'additionalProperties' in s) parts.push(object(s, root));
  if (typeof s.minimum === 'number') {
    const min = s.minimum;
    parts.push((v) => typeof v !== 'number' || v >= min);
  }
  const check: Accept =
    parts.length === 0
      ? () => true
      : parts.length === 1
        ? parts[0]
        : (v) => {
            for (const part of parts) if (!part(v)) return false;
            return true;
          };
  compiled.set(s, check);
  return check;
}

function oneOf(forms: Schema[], root: Schema): Accept {
  const guards = forms.map((b) => typeTest(b, root));
  const branches = forms.map((b) => accept(b, root));
  return (v) => {
    let matches = 0;
    for (let i = 0; i < branches.length; i++) {
      if (guards[i](v) && branches[i](v) && ++matches > 1) return false;
    }
    return matches === 1;
  };
}

function array(s: Schema, root: Schema): Accept {
  const min = typeof s.minItems === 'number' ? s.minItems : 0;
  const max = typeof s.maxItems === 'number' ? s.maxItems : Number.POSITIVE_INFINITY;
  const item = isObject(s.items) ? accept(s.items, root) : null;
  return (v) => {
    if (!Array.isArray(v)) return true;
    if (v.length < min || v.length > max) return false;
    if (item) for (let i = 0; i < v.length; i++) if (!item(v[i])) return false;
    return true;
  };
}

function object(s: Schema, root: Schema): Accept {
  const required = (s.required ?? []) as string[];
  // each property's check, and whether it is required: one look-up per own field finds both
  const props = new Map<string, { check: Accept; required: boolean }>();
  for (const [k, p] of Object.entries((s.properties ?? {}) as Record<string, Schema>))
    props.set(k, { check: accept(p, root), required: required.includes(k) });
  const extra = s.additionalProperties;
  const other = isObject(extra) ? accept(extra, root) : null;
  const closed = extra === false;
  return (v) => {
    if (!isObject(v)) return true;
    let seen = 0;
    for (const k of Object.keys(v)) {
      const p = props.get(k);
      const x = v[k];
      if (p) {
        if (p.required && x !== undefined) seen++;
        if (!p.check(x)) return false;
      } else if (other) {
        if (!other(x)) return false;
      } else if (closed) return false;
    }
    // every required field seen own and defined: present; otherwise (one missing, inherited, undefined, or
    // without a property schema) present() decides, as the explaining walk does
    if (seen !== required.length) for (const k of required) if (!present(v, k)) return false;
    return true;
  };
}
