// Checks a document against the contract (view.schema.json, structurally, every field) before anything
// is drawn: a bad document shows one line, never a broken view. Never throws. A big document's text is opened
// in the layout worker (open-doc.ts); without one, or given an object, it is checked here in slices
// (`checkDocInSlices`), one page task each (JSON.parse itself is one task).
import { checkTextSize, checkTree, checkTreeSteps } from './bounds';
import type { Tr } from './i18n';
import { OutputProblem, prefixed } from './problem';
import { itemsError, type Key, schemaError } from './schema-check';
import { runStepsInSlices, taskStart } from './slicer';
import { READ_VERSIONS, readsVersion, SCHEMA_VERSION, type Snapshot, VIEW_SCHEMA, type View } from './types';

/** `message` is English (logs, callers without a translator); `line` the same in the reader's language. */
export type Checked = { ok: true; view: View } | { ok: false; message: string; line?: (t: Tr) => string };

const ROOT = VIEW_SCHEMA as Record<string, unknown>;
const AS_VIEW = { $ref: '#/$defs/View' };
const AS_SNAPSHOT = { $ref: '#/$defs/Snapshot' };

/** A refusal: one line, English in `message`, in the reader's language from `line`. */
type Refusal = { ok: false; message: string; line: (t: Tr) => string };

/** A breached bound: one line, in the reader's language. */
function refused(e: unknown): Refusal {
  const p = prefixed(e);
  return { ok: false, message: p.message, line: p.line };
}

/** A refusal worded by the catalogues' `output.*` key `key` (problem.ts), with the product's name in front. */
function said(key: string, params?: Record<string, string | number>): Refusal {
  return refused(new OutputProblem((t) => t(key, params)));
}

function isObj(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** A schema_version this viewer does not read, anywhere (the document or a pane's snapshot), gets the upgrade
 * message; null when every one is read. */
function otherVersion(doc: Record<string, unknown>): { got: unknown } | null {
  if (!readsVersion(doc.schema_version)) return { got: doc.schema_version };
  const panes = Array.isArray(doc.panes) ? doc.panes : [];
  for (const p of panes) {
    if (isObj(p) && isObj(p.snapshot) && !readsVersion(p.snapshot.schema_version))
      return { got: p.snapshot.schema_version };
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

type Parsed = Refusal | { ok: true; doc: Record<string, unknown>; bare: boolean };

/** Parse (when given text) and check what comes before the schema: format and schema_version. */
/** `treeChecked`: the caller ran checkTree on this very object already (in slices). */
function parse(input: unknown, treeChecked = false): Parsed {
  let doc = input;
  if (doc === undefined || doc === null || (typeof doc === 'string' && doc.trim() === '')) {
    return said('output.nothing_yet');
  }
  if (typeof doc === 'string') {
    try {
      checkTextSize(doc.length);
    } catch (e) {
      return refused(e);
    }
    try {
      doc = JSON.parse(doc);
    } catch (e) {
      return said('output.not_json', { problem: (e as Error).message });
    }
  }
  try {
    if (!treeChecked) checkTree(doc); // sizes first (strings, values, depth): a crafted output never reaches the schema or the DOM
  } catch (e) {
    return refused(e);
  }
  if (!isObj(doc)) return said('output.not_object');
  if (doc.format !== 'pt2e-lens.view' && doc.format !== 'pt2e-lens.snapshot') {
    return said('output.unknown_format', { got: String(JSON.stringify(doc.format)) });
  }
  const other = otherVersion(doc);
  if (other) return said('output.schema_version', { got: String(other.got), want: READ_VERSIONS });
  return { ok: true, doc, bare: doc.format === 'pt2e-lens.snapshot' };
}

function done(doc: Record<string, unknown>, bare: boolean, err: string | null): Checked {
  if (err) return said('output.malformed', { problem: err });
  return { ok: true, view: bare ? snapshotView(doc as unknown as Snapshot) : (doc as unknown as View) };
}

export function checkDoc(input: unknown): Checked {
  const p = parse(input);
  if (!p.ok) return p;
  return done(p.doc, p.bare, schemaError(p.doc, p.bare ? AS_SNAPSHOT : AS_VIEW, ROOT));
}

/** A document big enough to check (and draw) in slices: over ~SLICED_NODES nodes, or its text over ~1 MB. */
export const SLICED_NODES = 3000;
export function isBigDoc(input: unknown): boolean {
  if (typeof input === 'string') return input.length > 1_000_000;
  if (!isObj(input)) return false;
  const snaps = input.format === 'pt2e-lens.snapshot' ? [input] : Array.isArray(input.panes) ? input.panes : [];
  let n = 0;
  for (const p of snaps) {
    const sn = isObj(p) && isObj(p.snapshot) ? p.snapshot : p;
    if (isObj(sn) && Array.isArray(sn.nodes)) n += sn.nodes.length;
  }
  return n > SLICED_NODES;
}

const SNAPSHOT_DEF = (ROOT.$defs as Record<string, Record<string, unknown>>).Snapshot;
/** The Snapshot's array fields and their item schemas (nodes, edges, observers, …). */
const SNAPSHOT_ARRAYS: Array<[string, Record<string, unknown>]> = Object.entries(
  SNAPSHOT_DEF.properties as Record<string, Record<string, unknown>>,
)
  .filter(([, p]) => p.type === 'array' && isObj(p.items))
  .map(([k, p]) => [k, p.items as Record<string, unknown>]);

const SLICE_MS = 25;
const SLICE_ITEMS = 256;

/** The same verdict as `checkDoc`, reached in page tasks of ~SLICE_MS: `pause` ends a task (the first
 * error found may differ only for a document with several errors). */
export async function checkDocInSlices(input: unknown, pause: () => Promise<void>): Promise<Checked> {
  if (typeof input === 'string' && input.trim() !== '') {
    try {
      checkTextSize(input.length);
      input = JSON.parse(input);
      await pause();
    } catch {
      // too long or not JSON: parse() below says so in its own words
    }
  }
  // the sizes of a parsed document, in slices (millions of values at 100k nodes); parse() checks the rest
  let treeChecked = false;
  if (typeof input === 'object' && input !== null) {
    try {
      await runStepsInSlices(checkTreeSteps(input), pause, SLICE_MS);
    } catch (e) {
      return refused(e);
    }
    treeChecked = true;
  }
  const p = parse(input, treeChecked);
  if (!p.ok) return p;
  await pause();
  const { doc, bare } = p;
  // the document with its snapshots' arrays emptied is checked at once; the arrays' items in slices
  const big: Array<[Key[], unknown[], Record<string, unknown>]> = [];
  const hollow = (sn: Record<string, unknown>, at: Key[]): Record<string, unknown> => {
    const copy = { ...sn };
    for (const [k, item] of SNAPSHOT_ARRAYS) {
      const v = sn[k];
      if (Array.isArray(v) && v.length > SLICE_ITEMS) {
        big.push([[...at, k], v, item]);
        copy[k] = [];
      }
    }
    return copy;
  };
  let shell: Record<string, unknown>;
  if (bare) shell = hollow(doc, []);
  else if (Array.isArray(doc.panes)) {
    const panes = doc.panes.map((pane, i) =>
      isObj(pane) && isObj(pane.snapshot)
        ? { ...pane, snapshot: hollow(pane.snapshot, ['panes', i, 'snapshot']) }
        : pane,
    );
    shell = { ...doc, panes };
  } else shell = doc;
  const err = schemaError(shell, bare ? AS_SNAPSHOT : AS_VIEW, ROOT);
  if (err) return done(doc, bare, err);
  let t0 = taskStart();
  for (const [at, items, item] of big) {
    for (let i = 0; i < items.length; i += SLICE_ITEMS) {
      if (now() - t0 > SLICE_MS) {
        await pause();
        t0 = now();
      }
      const e = itemsError(items, item, ROOT, at, i, i + SLICE_ITEMS);
      if (e) return done(doc, bare, e);
    }
  }
  return done(doc, bare, null);
}

function now(): number {
  return typeof performance !== 'undefined' ? performance.now() : Date.now();
}
