// The contract's single definition is kernel_pkg/pt2e_lens/schema/ (two JSON Schemas + contract.json).
// This script turns it into what must not be written by hand a second time:
//   src/core/contract.generated.ts        View/Snapshot types, MIME_TYPE, SCHEMA_VERSION, the schema for validate.ts
//   src/lab/panel/protocol.generated.ts   comm protocol types, PROTOCOL_VERSION, COMM_TARGET
//   the field tables in docs/contract.md and docs/protocol.md (between the "generated" markers)
// Usage: node scripts/gen-contract.mjs          (write)
//        node scripts/gen-contract.mjs --check  (exit 1 with one line if anything is stale)

import { readFileSync, writeFileSync } from 'node:fs';

const DIR = 'kernel_pkg/pt2e_lens/schema';
const read = (f) => JSON.parse(readFileSync(`${DIR}/${f}`, 'utf8'));
const view = read('view.schema.json');
const protocol = read('protocol.schema.json');
const constants = read('contract.json');
const limits = Object.fromEntries(Object.entries(constants.limits).filter(([k]) => !k.startsWith('$')));

// TS names that differ from the schema's: `Node` and `Event` would shadow the DOM's.
const RENAME = { Node: 'GraphNode', Event: 'KernelEvent' };
const tsName = (def) => RENAME[def] ?? def;

// Every keyword the generator (and src/core/validate.ts) understands; anything else is an error here,
// so a schema edit can never be silently ignored by the front end.
const KEYWORDS = new Set([
  '$schema',
  '$id',
  '$comment',
  '$defs',
  '$ref',
  'title',
  'description',
  'type',
  'const',
  'enum',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'minItems',
  'maxItems',
  'minimum',
  'oneOf',
]);

function checkKeywords(s, where) {
  if (typeof s !== 'object' || s === null) return;
  for (const [k, v] of Object.entries(s)) {
    if (!KEYWORDS.has(k)) throw new Error(`${where}: the keyword ${k} is not supported by scripts/gen-contract.mjs`);
    if (k === '$defs' || k === 'properties') for (const [n, d] of Object.entries(v)) checkKeywords(d, `${where}/${n}`);
    else if (k === 'items' || k === 'additionalProperties') checkKeywords(v, `${where}/${k}`);
    else if (k === 'oneOf') for (const [i, d] of v.entries()) checkKeywords(d, `${where}/oneOf/${i}`);
  }
}

const lit = (v) =>
  typeof v === 'string' ? `'${v.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'` : JSON.stringify(v);
const PRIM = { string: 'string', integer: 'number', number: 'number', boolean: 'boolean', null: 'null' };
const DOC_PRIM = { ...PRIM, integer: 'integer' }; // the docs keep JSON's integer
const doc = (d, indent) => (d ? `${indent}/** ${d.replaceAll('*/', '*\\/')} */\n` : '');
const wrap = (t) => (/[|&]/.test(t) ? `(${t})` : t);

// schema → TS type expression; `refs` maps an external schema file to how its names are imported
function ts(s, ctx, indent = '') {
  if (s.$ref) {
    const [file, path] = s.$ref.split('#');
    const def = path.replace('/$defs/', '');
    const name = ctx.doc ? def : tsName(def); // the docs keep the schema's names
    if (file) ctx.imports.add(name);
    return name;
  }
  if ('const' in s) return lit(s.const);
  if (s.enum) return s.enum.map(lit).join(' | ');
  if (s.oneOf) return s.oneOf.map((x) => ts(x, ctx, indent)).join(' | ');
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (types.length === 1 && types[0] === 'array') {
    const item = ts(s.items ?? {}, ctx, indent);
    if (s.minItems !== undefined && s.minItems === s.maxItems && s.minItems <= 4)
      return `[${Array(s.minItems).fill(item).join(', ')}]`;
    return `${wrap(item)}[]`;
  }
  if (types.length === 1 && types[0] === 'object') return objectBody(s, ctx, indent);
  if (types.length) return types.map((t) => (ctx.doc ? DOC_PRIM : PRIM)[t] ?? 'unknown').join(' | ');
  return 'unknown';
}

function objectBody(s, ctx, indent) {
  const props = Object.entries(s.properties ?? {});
  const extra = s.additionalProperties;
  if (!props.length && typeof extra === 'object') return `Record<string, ${ts(extra, ctx, indent)}>`;
  const inner = `${indent}  `;
  const lines = props.map(([k, p]) => {
    const key = /^[A-Za-z_$][\w$]*$/.test(k) ? k : lit(k);
    const opt = (s.required ?? []).includes(k) ? '' : '?';
    return `${doc(p.description, inner)}${inner}${key}${opt}: ${ts(p, ctx, inner)};\n`;
  });
  if (extra !== false) lines.push(`${inner}[k: string]: unknown;\n`);
  return `{\n${lines.join('')}${indent}}`;
}

const isObject = (s) => s.type === 'object' && s.properties;
const upper = (n) => n.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase();

function declarations(schema, ctx) {
  checkKeywords(schema, schema.$id);
  let out = '';
  for (const [def, s] of Object.entries(schema.$defs)) {
    const name = tsName(def);
    out += doc(s.description, '');
    if ('const' in s && !s.type) out += `export type ${name} = ${lit(s.const)};\n`;
    else if (isObject(s)) out += `export interface ${name} ${objectBody(s, ctx, '')}\n`;
    else out += `export type ${name} = ${ts(s, ctx)};\n`;
    if (s.enum) out += `export const ${upper(name)}_VALUES: readonly ${name}[] = [${s.enum.map(lit).join(', ')}];\n`;
    out += '\n';
  }
  return out;
}

const HEADER =
  '// Generated by scripts/gen-contract.mjs from kernel_pkg/pt2e_lens/schema/: do not edit.\n' +
  '// Change the schema and run `npm run build:contract`.\n';

const DOC_ONLY = new Set(['description', '$comment', 'title', '$schema', '$id']);

// the schema without its doc-only keywords (a *property* named `title` stays: only keywords go)
function checkingOnly(s) {
  if (Array.isArray(s)) return s.map(checkingOnly);
  if (typeof s !== 'object' || s === null) return s;
  const out = {};
  for (const [k, v] of Object.entries(s)) {
    if (DOC_ONLY.has(k)) continue;
    out[k] =
      k === 'properties' || k === '$defs'
        ? Object.fromEntries(Object.entries(v).map(([n, d]) => [n, checkingOnly(d)]))
        : checkingOnly(v);
  }
  return out;
}

function coreFile() {
  const ctx = { imports: new Set() };
  const body = declarations(view, ctx);
  return (
    `${HEADER}\n` +
    `export const MIME_TYPE = ${lit(constants.mime_type)};\n` +
    `export const SCHEMA_VERSION = ${view.$defs.SchemaVersion.enum.at(-1)};\n` +
    '/** What an opened document may hold (contract.json "limits"; Python reads the same numbers). */\n' +
    `export const LIMITS = ${JSON.stringify(limits)} as const;\n\n` +
    body +
    '/** The schema itself, for src/core/validate.ts (only what checking needs: it is inlined in saved notebooks). */\n' +
    `export const VIEW_SCHEMA: unknown = ${JSON.stringify(checkingOnly(view))};\n`
  );
}

function protocolFile() {
  const ctx = { imports: new Set() };
  const body = declarations(protocol, ctx);
  const names = [...ctx.imports].sort();
  return (
    `${HEADER}\n` +
    `import type { ${names.join(', ')} } from '../../core/types';\n\n` +
    `export const COMM_TARGET = ${lit(constants.comm_target)};\n` +
    `export const PROTOCOL_VERSION = ${protocol.$defs.ProtocolVersion.const};\n\n` +
    body
  );
}

// docs: one table per object definition, between <!-- generated:NAME --> and <!-- /generated:NAME -->
const cell = (t) => String(t).replaceAll('|', '\\|').replaceAll('\n', ' ');
function typeText(s) {
  const ctx = { imports: new Set(), doc: true };
  return ts(s, ctx, '').replace(/\s+/g, ' ');
}
function fieldTables(schema, defs) {
  let out = '';
  for (const def of defs) {
    const s = schema.$defs[def];
    out += `\n### ${def}\n${s.description ? `${s.description}\n` : ''}\n`;
    if (s.oneOf?.every((x) => 'const' in x)) {
      out += '| value | meaning |\n|---|---|\n';
      for (const x of s.oneOf) out += `| \`${cell(JSON.stringify(x.const))}\` | ${cell(x.description ?? '')} |\n`;
      continue;
    }
    if (!isObject(s)) {
      out += `\`${cell(typeText(s))}\`\n`;
      continue;
    }
    out += '| field | type | meaning |\n|---|---|---|\n';
    for (const [k, p] of Object.entries(s.properties)) {
      const opt = (s.required ?? []).includes(k) ? '' : ' (optional)';
      out += `| \`${k}\`${opt} | \`${cell(typeText(p))}\` | ${cell(p.description ?? '')} |\n`;
    }
  }
  return out;
}
function requestTable() {
  let out = '\n| type | fields | meaning |\n|---|---|---|\n';
  for (const { $ref } of protocol.$defs.Request.oneOf) {
    const s = protocol.$defs[$ref.split('/').pop()];
    const fields = Object.entries(s.properties)
      .filter(([k]) => k !== 'type' && k !== 'id')
      .map(([k, p]) => `\`${k}${(s.required ?? []).includes(k) ? '' : '?'}: ${cell(typeText(p))}\``);
    out += `| \`${s.properties.type.const}\` | ${fields.join(', ') || '—'} | ${cell(s.description ?? '')} |\n`;
  }
  return out;
}

function splice(text, name, content, file) {
  const open = `<!-- generated:${name} by scripts/gen-contract.mjs -->`;
  const close = `<!-- /generated:${name} -->`;
  const a = text.indexOf(open);
  const b = text.indexOf(close);
  if (a < 0 || b < a) throw new Error(`${file} lacks the markers ${open} … ${close}`);
  return `${text.slice(0, a + open.length)}\n${content}\n${text.slice(b)}`;
}

const viewDefs = Object.keys(view.$defs);
const protocolDefs = Object.keys(protocol.$defs).filter((d) => !d.endsWith('Request') && d !== 'RequestId');
function generate() {
  return {
    'src/core/contract.generated.ts': coreFile(),
    'src/lab/panel/protocol.generated.ts': protocolFile(),
    'docs/contract.md': splice(
      readFileSync('docs/contract.md', 'utf8'),
      'fields',
      fieldTables(view, viewDefs),
      'docs/contract.md',
    ),
    'docs/protocol.md': splice(
      splice(readFileSync('docs/protocol.md', 'utf8'), 'requests', requestTable(), 'docs/protocol.md'),
      'messages',
      fieldTables(protocol, protocolDefs),
      'docs/protocol.md',
    ),
  };
}

let outputs;
try {
  outputs = generate();
} catch (e) {
  console.error(e.message); // one line: which schema, which keyword or marker
  process.exit(1);
}

// the VS Code manifest must be plain JSON: checked, not generated
const renderers = JSON.parse(readFileSync('extension/vscode/package.json', 'utf8')).contributes.notebookRenderer;
if (!renderers.every((r) => r.mimeTypes.includes(constants.mime_type))) {
  console.error(`extension/vscode/package.json: its notebookRenderer mimeTypes must list ${constants.mime_type}`);
  process.exit(1);
}

if (process.argv.includes('--check')) {
  const stale = Object.entries(outputs)
    .filter(([f, text]) => {
      try {
        return readFileSync(f, 'utf8') !== text;
      } catch {
        return true;
      }
    })
    .map(([f]) => f);
  if (stale.length) {
    console.error(`${stale.join(', ')} out of date with kernel_pkg/pt2e_lens/schema/: run \`npm run build:contract\``);
    process.exit(1);
  }
} else {
  for (const [f, text] of Object.entries(outputs)) writeFileSync(f, text);
}
