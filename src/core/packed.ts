// The packed transport of a View (docs/contract.md, "Packed transport"): a saved output carries the View's
// JSON (in the tabular layout, tabular.ts) gzip-compressed in base64 inside a small envelope, opened here
// with the browser's DecompressionStream.
// A plain View (pt2e-lens 0.1 outputs) passes through untouched: render() checks it as before.
import { checkDeclaredSize, checkTextSize, checkTree, readBounded, TooBig } from './bounds';
import { LIMITS, type Packed, VIEW_SCHEMA } from './contract.generated';
import type { Tr } from './i18n';
import { OutputProblem, PREFIX, prefixed } from './problem';
import { schemaError } from './schema-check';
import { decodeTabular } from './tabular';
import { READ_VERSIONS, readsVersion } from './types';

const ROOT = VIEW_SCHEMA as Record<string, unknown>;
const AS_PACKED = { $ref: '#/$defs/Packed' };
export const PACKED_FORMAT = 'pt2e-lens.packed';

/** JSON text that starts like an envelope: parsed here; anything else is left to render() (which says why). */
const LOOKS_PACKED = /^\s*\{\s*"format"\s*:\s*"pt2e-lens\.packed"/;

export function isPacked(x: unknown): x is Packed {
  return typeof x === 'object' && x !== null && (x as { format?: unknown }).format === PACKED_FORMAT;
}

/** An envelope as an object (parsed from text if the text is one), else null. Throws one line on bad JSON. */
export function envelopeOf(input: unknown): Packed | null {
  if (typeof input === 'string') {
    if (!LOOKS_PACKED.test(input)) return null;
    try {
      checkTextSize(input.length);
      input = JSON.parse(input);
    } catch (e) {
      throw damaged(() => (e as Error).message);
    }
  }
  return isPacked(input) ? input : null;
}

function bytesOf(base64: string): Uint8Array {
  let bin: string;
  try {
    bin = atob(base64);
  } catch {
    throw damaged((t) => t('output.not_base64'));
  }
  bounded(() => checkTextSize(bin.length)); // gzip never makes its input longer than the JSON it holds
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** The compressed bytes in 16 kB slices, one per pull: the decompressor gets the next slice only when its
 * output was read, so a bomb (1 MB → 1 GB) never inflates much past the reader's byte budget. */
function slices(bytes: Uint8Array, size = 1 << 14): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(c) {
        if (at >= bytes.length) {
          c.close();
          return;
        }
        c.enqueue(bytes.subarray(at, at + size));
        at += size;
      },
    },
    { highWaterMark: 0 },
  );
}

async function gunzip(bytes: Uint8Array): Promise<string> {
  if (typeof DecompressionStream === 'undefined') {
    throw new OutputProblem((t) => PREFIX + t('output.no_decompression'));
  }
  const stream = slices(bytes).pipeThrough(
    new DecompressionStream('gzip') as ReadableWritablePair<Uint8Array, Uint8Array>,
  );
  try {
    // read with a byte budget: a 1 GB bomb stops at max_json_bytes instead of taking the tab down
    return new TextDecoder().decode(await readBounded(stream));
  } catch (e) {
    if (e instanceof TooBig) throw prefixed(e);
    // the browser only says "Failed to fetch" or the like: name what is wrong instead
    throw damaged((t) => t('output.not_gzip'));
  }
}

/** The document inside an envelope, parsed; throws an Error whose message is the one line to show. */
export async function unpack(envelope: Packed): Promise<unknown> {
  const version = (envelope as { schema_version?: unknown }).schema_version;
  if (!readsVersion(version)) {
    throw new OutputProblem((t) => PREFIX + t('output.schema_version', { got: String(version), want: READ_VERSIONS }));
  }
  const err = schemaError(envelope, AS_PACKED, ROOT);
  if (err) throw damaged((t) => t('output.envelope', { problem: err }));
  bounded(() => checkTextSize(envelope.data.length));
  const bytes = bytesOf(envelope.data);
  bounded(() => checkDeclaredSize(bytes)); // a bomb that says its size: refused before inflating
  const text = await gunzip(bytes);
  try {
    const doc: unknown = JSON.parse(text);
    checkTree(doc, LIMITS);
    return envelope.encoding === 'tabular+gzip+base64' ? decodeTabular(doc) : doc;
  } catch (e) {
    if (e instanceof TooBig) throw prefixed(e); // not damaged: too big, and which bound
    throw damaged(() => (e as Error).message);
  }
}

/** Runs a bound check; its breach becomes the one line to show. */
function bounded(check: () => void): void {
  try {
    check();
  } catch (e) {
    throw prefixed(e);
  }
}

/** `pt2e-lens: a damaged packed View (…); re-run the cell`, the part in brackets worded by `problem`. */
function damaged(problem: (t: Tr) => string): OutputProblem {
  return new OutputProblem((t) => PREFIX + t('output.damaged', { problem: problem(t) }));
}
