// Checks a document against the contract (view.schema.json, structurally, every field) before anything
// is drawn: a bad document shows one line, never a broken view. Never throws.
import { schemaError } from './schema-check';
import { SCHEMA_VERSION, type Snapshot, VIEW_SCHEMA, type View } from './types';

export type Checked = { ok: true; view: View } | { ok: false; message: string };

const PREFIX = 'pt2e-lens: ';
const ROOT = VIEW_SCHEMA as Record<string, unknown>;
const AS_VIEW = { $ref: '#/$defs/View' };
const AS_SNAPSHOT = { $ref: '#/$defs/Snapshot' };

function versionMessage(v: unknown): string {
  return `${PREFIX}this output uses schema_version ${String(v)}; this viewer understands ${SCHEMA_VERSION} — upgrade pt2e-lens`;
}

function isObj(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Another schema_version anywhere (the document or a pane's snapshot) gets the upgrade message. */
function otherVersion(doc: Record<string, unknown>): unknown {
  if (doc.schema_version !== SCHEMA_VERSION) return doc.schema_version;
  const panes = Array.isArray(doc.panes) ? doc.panes : [];
  for (const p of panes) {
    if (isObj(p) && isObj(p.snapshot) && p.snapshot.schema_version !== SCHEMA_VERSION) return p.snapshot.schema_version;
  }
  return SCHEMA_VERSION;
}

/** Wrap a bare Snapshot (the schema allows one at top level) into a one-pane graph View. */
export function snapshotView(s: Snapshot): View {
  return {
    format: 'pt2e-lens.view',
    schema_version: SCHEMA_VERSION,
    mode: 'graph',
    title: null,
    panes: [{ label: s.stage ?? 'graph', snapshot: s }],
    diffs: [],
    focus: null,
    notes: [],
    tables: [],
  };
}

export function checkDoc(input: unknown): Checked {
  let doc = input;
  if (doc === undefined || doc === null || (typeof doc === 'string' && doc.trim() === '')) {
    return { ok: false, message: `${PREFIX}nothing to show yet` };
  }
  if (typeof doc === 'string') {
    try {
      doc = JSON.parse(doc);
    } catch (e) {
      return { ok: false, message: `${PREFIX}output is not valid JSON (${(e as Error).message})` };
    }
  }
  if (!isObj(doc)) return { ok: false, message: `${PREFIX}nothing to show (output is not a JSON object)` };
  if (doc.format !== 'pt2e-lens.view' && doc.format !== 'pt2e-lens.snapshot') {
    return { ok: false, message: `${PREFIX}unknown format ${JSON.stringify(doc.format)}; expected "pt2e-lens.view"` };
  }
  const version = otherVersion(doc);
  if (version !== SCHEMA_VERSION) return { ok: false, message: versionMessage(version) };
  const bare = doc.format === 'pt2e-lens.snapshot';
  const err = schemaError(doc, bare ? AS_SNAPSHOT : AS_VIEW, ROOT);
  if (err) return { ok: false, message: `${PREFIX}malformed output: ${err}` };
  return { ok: true, view: bare ? snapshotView(doc as unknown as Snapshot) : (doc as unknown as View) };
}
