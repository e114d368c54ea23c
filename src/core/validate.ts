// Checks `format` / `schema_version` before anything is drawn. Never throws.
import { SCHEMA_VERSION, type Snapshot, type View } from './types';

export type Checked = { ok: true; view: View } | { ok: false; message: string };

const PREFIX = 'pt2e-lens: ';

function versionMessage(v: unknown): string {
  return `${PREFIX}this output uses schema_version ${String(v)}; this viewer understands ${SCHEMA_VERSION} — upgrade pt2e-lens`;
}

function isObj(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function checkSnapshot(s: unknown, where: string): string | null {
  if (!isObj(s)) return `${PREFIX}malformed output: ${where} is not an object`;
  if (s.format !== 'pt2e-lens.snapshot')
    return `${PREFIX}malformed output: ${where} has format ${JSON.stringify(s.format)}`;
  if (s.schema_version !== SCHEMA_VERSION) return versionMessage(s.schema_version);
  for (const k of ['nodes', 'edges', 'specs', 'annotations', 'observers', 'qdq', 'findings']) {
    if (!Array.isArray(s[k])) return `${PREFIX}malformed output: ${where}.${k} is not a list`;
  }
  return null;
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
  if (doc.schema_version !== SCHEMA_VERSION) return { ok: false, message: versionMessage(doc.schema_version) };
  if (doc.format === 'pt2e-lens.snapshot') {
    const err = checkSnapshot(doc, 'snapshot');
    return err ? { ok: false, message: err } : { ok: true, view: snapshotView(doc as unknown as Snapshot) };
  }
  if (!['graph', 'compare', 'run', 'table'].includes(doc.mode as string)) {
    return { ok: false, message: `${PREFIX}unknown mode ${JSON.stringify(doc.mode)}` };
  }
  if (!Array.isArray(doc.panes)) return { ok: false, message: `${PREFIX}malformed output: panes is not a list` };
  for (let i = 0; i < doc.panes.length; i++) {
    const p = doc.panes[i];
    if (!isObj(p)) return { ok: false, message: `${PREFIX}malformed output: panes[${i}] is not an object` };
    const err = checkSnapshot(p.snapshot, `panes[${i}].snapshot`);
    if (err) return { ok: false, message: err };
  }
  const view = doc as unknown as View;
  return {
    ok: true,
    view: {
      ...view,
      diffs: Array.isArray(view.diffs) ? view.diffs : [],
      notes: Array.isArray(view.notes) ? view.notes : [],
      tables: Array.isArray(view.tables) ? view.tables : [],
      focus: Array.isArray(view.focus) ? view.focus : null,
    },
  };
}
