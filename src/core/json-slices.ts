// JSON.parse of a big document over several page tasks: a 100k-node View is ~40 MB of text, and one
// JSON.parse of it blocks the page for a second or more. A first pass finds the containers longer than
// `big` characters (the snapshots' node and edge arrays, the objects holding them) and the separators of
// their direct members; each run of small members then goes to the native JSON.parse in a batch of
// ~`batch` characters. Inside a big array the scan guesses where a run of ~`batch` characters of members
// ends and lets JSON.parse check the guess (and keeps what it parsed): a 100k-node View's node and edge
// arrays are never walked character by character. The result is the one JSON.parse gives; on anything
// unexpected (invalid JSON included) it is JSON.parse's own result or error, so callers see the same
// message as before.
import { runStepsInSlices } from './slicer';

const BIG = 1 << 18;
const BATCH = 1 << 16;
/** characters scanned between two chances to pause */
const SCAN_STEP = 1 << 17;

interface Span {
  start: number;
  /** one past the closing bracket */
  end: number;
  array: boolean;
  /** positions of the commas between its direct members */
  seps: number[];
  /** its direct members that are big containers themselves, in order */
  kids: Span[];
  /** runs of its members already parsed while scanning (an array's), in order */
  runs: Run[];
}

/** Members `from` (the first one's start) up to the comma at `to`, parsed. */
interface Run {
  from: number;
  to: number;
  values: unknown[];
}

interface Frame {
  start: number;
  array: boolean;
  /** where its commas start in the shared list */
  base: number;
  kids: Span[] | null;
  runs: Run[] | null;
  /** times a guessed run failed to parse (then the frame is scanned to its end) */
  misses: number;
}

class Unexpected extends Error {}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const isBlank = (s: string): boolean => s.trim() === '';

/** One past the closing quote of the string opening at `i` (-1: never closed). */
function stringEnd(text: string, i: number): number {
  let j = i;
  for (;;) {
    j = text.indexOf('"', j + 1);
    if (j < 0) return -1;
    let b = j - 1;
    while (text.charCodeAt(b) === BACKSLASH) b--;
    if ((j - 1 - b) % 2 === 0) return j + 1; // an even run of backslashes: the quote is not escaped
  }
}

// where the member that follows a comma probably starts: after "}, {" in an array of objects, "], [" of arrays
const OBJECTS = /\}\s*,\s*\{/g;
const ARRAYS = /\]\s*,\s*\[/g;

/** The comma ending the members of array `f` that start at `from`, up to about `batch` characters, when a
 * guess parses: they are parsed already. A run that parses (`[` … `]`) is whole members of `f` and ends at one
 * of its own commas (a guess inside a string or a nested container leaves a bracket open or a string
 * unclosed). Null: no guess, or it failed. */
function guessRun(text: string, f: Frame, from: number, batch: number): Run | null {
  let k = from;
  while (k < text.length && isBlankChar(text.charCodeAt(k))) k++;
  const first = text.charCodeAt(k);
  const re = first === 0x7b ? OBJECTS : first === 0x5b ? ARRAYS : null;
  if (!re) return null;
  re.lastIndex = from + batch;
  const m = re.exec(text);
  if (!m) return null;
  const to = m.index + m[0].indexOf(',');
  try {
    return { from, to, values: JSON.parse(`[${text.slice(from, to)}]`) as unknown[] };
  } catch {
    f.misses++;
    return null;
  }
}

const isBlankChar = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const MISSES = 2;

/** The top-level container with its big descendants, or null when the text is no big container. Inside an
 * array past `big / 4` characters, runs of ~`batch` characters of members are guessed and parsed at once
 * (JSON.parse finds their end faster than this loop): only what a guess cannot take is scanned. */
function* scan(text: string, big: number, batch: number): Generator<void, Span | null> {
  const seps: number[] = [];
  const stack: Frame[] = [];
  let root: Span | null = null;
  let closed = false;
  let next = SCAN_STEP;
  const guessAfter = big >> 2;
  for (let i = 0; i < text.length; i++) {
    if (i >= next) {
      yield;
      next = i + SCAN_STEP;
    }
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const j = stringEnd(text, i);
      if (j < 0) throw new Unexpected();
      i = j - 1;
    } else if (c === 0x7b || c === 0x5b) {
      if (closed) throw new Unexpected();
      stack.push({ start: i, array: c === 0x5b, base: seps.length, kids: null, runs: null, misses: 0 });
    } else if (c === 0x7d || c === 0x5d) {
      const f = stack.pop();
      if (!f || f.array !== (c === 0x5d)) throw new Unexpected();
      const parent = stack.length ? stack[stack.length - 1] : null;
      if (i + 1 - f.start >= big || !parent || f.runs) {
        const span = {
          start: f.start,
          end: i + 1,
          array: f.array,
          seps: seps.slice(f.base),
          kids: f.kids ?? [],
          runs: f.runs ?? [],
        };
        if (parent) {
          if (!parent.kids) parent.kids = [];
          parent.kids.push(span);
        } else {
          root = span;
          closed = true;
        }
      }
      seps.length = f.base;
    } else if (c === 0x2c && stack.length) {
      seps.push(i);
      const f = stack[stack.length - 1];
      if (f.array && i - f.start > guessAfter && f.misses < MISSES) {
        // guessed runs from here while they parse; the member after the last one is scanned
        for (let run = guessRun(text, f, i + 1, batch); run; run = guessRun(text, f, i + 1, batch)) {
          if (!f.runs) f.runs = [];
          f.runs.push(run);
          seps.push(run.to);
          i = run.to;
          yield;
          next = i + SCAN_STEP;
        }
      }
    }
  }
  if (stack.length || !root) throw new Unexpected();
  if (!isBlank(text.slice(0, root.start)) || !isBlank(text.slice(root.end))) throw new Unexpected();
  return root.end - root.start >= big ? root : null;
}

/** The key of an object member whose value is the big container `kid` (checked: only blanks around). */
function memberKey(text: string, from: number, to: number, kid: Span): string {
  let i = from;
  while (i < kid.start && isBlank(text[i])) i++;
  if (text.charCodeAt(i) !== QUOTE) throw new Unexpected();
  const j = stringEnd(text, i);
  if (j < 0 || j > kid.start) throw new Unexpected();
  const rest = text.slice(j, kid.start).trim();
  if (rest !== ':' || !isBlank(text.slice(kid.end, to))) throw new Unexpected();
  return JSON.parse(text.slice(i, j)) as string;
}

function setOwn(out: Record<string, unknown>, key: string, value: unknown): void {
  // `__proto__` is an own key in JSON.parse's result, never the prototype
  if (key === '__proto__')
    Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
  else out[key] = value;
}

function* build(text: string, span: Span, batch: number): Generator<void, unknown> {
  const starts = [span.start + 1, ...span.seps.map((p) => p + 1)];
  const ends = [...span.seps, span.end - 1];
  const arr: unknown[] = [];
  const obj: Record<string, unknown> = {};
  let from = -1; // first member of the batch not parsed yet
  const flush = (to: number): void => {
    if (from < 0) return;
    const body = text.slice(starts[from], ends[to - 1]);
    if (span.array) {
      const got = JSON.parse(`[${body}]`) as unknown[];
      if (got.length !== to - from) throw new Unexpected(); // a blank member (`[a, ,b]`) parses as none
      for (const v of got) arr.push(v);
    } else {
      if (isBlank(body)) throw new Unexpected();
      const got = JSON.parse(`{${body}}`) as Record<string, unknown>;
      for (const k of Object.keys(got)) setOwn(obj, k, got[k]);
    }
    from = -1;
  };
  let k = 0;
  let r = 0;
  for (let m = 0; m < starts.length; m++) {
    const run = span.runs[r];
    if (run && run.from === starts[m]) {
      if (run.to !== ends[m]) throw new Unexpected();
      flush(m);
      for (const v of run.values) arr.push(v);
      r++;
      continue;
    }
    const kid = span.kids[k];
    if (kid && kid.start >= starts[m] && kid.end <= ends[m]) {
      flush(m);
      yield;
      const value = yield* build(text, kid, batch);
      if (span.array) {
        if (!isBlank(text.slice(starts[m], kid.start)) || !isBlank(text.slice(kid.end, ends[m])))
          throw new Unexpected();
        arr.push(value);
      } else setOwn(obj, memberKey(text, starts[m], ends[m], kid), value);
      k++;
      continue;
    }
    if (from < 0) from = m;
    if (ends[m] - starts[from] >= batch) {
      flush(m + 1);
      yield;
    }
  }
  flush(starts.length);
  if (k !== span.kids.length || r !== span.runs.length) throw new Unexpected();
  return span.array ? arr : obj;
}

function* parseSteps(text: string, big: number, batch: number): Generator<void, unknown> {
  try {
    const root = yield* scan(text, big, batch);
    if (root) return yield* build(text, root, batch);
  } catch (e) {
    if (!(e instanceof Unexpected) && !(e instanceof SyntaxError)) throw e;
  }
  return JSON.parse(text); // small, or not what the scan expects: the native parse (and its error)
}

/** JSON.parse(text), in page tasks of ~sliceMs (`pause` ends one). `big`/`batch`: sizes in characters. */
export async function parseJsonInSlices(
  text: string,
  pause: () => Promise<void>,
  opts: { sliceMs?: number; big?: number; batch?: number } = {},
): Promise<unknown> {
  return runStepsInSlices(parseSteps(text, opts.big ?? BIG, opts.batch ?? BATCH), pause, opts.sliceMs ?? 25);
}
