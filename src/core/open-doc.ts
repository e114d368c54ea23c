// A big View opened in the layout worker — its text, or a packed envelope (unpacked there: packed.ts) — parsed,
// size-checked and schema-checked there (checkDoc, the one-task check), then posted back in parts so that no page
// task deserializes more than OPEN_CHUNK items: the document with its snapshots' long arrays emptied first, then
// those arrays' items in order. The page only joins the parts (no parsing, no checking). A document the worker
// refuses is checked again on the page, in slices, for the refusal's exact words (a Refusal's `line` is a function:
// it cannot be posted).
import type { Packed } from './contract.generated';
import { unpack } from './packed';
import { checkDoc } from './validate';

/** items of one snapshot array per message: its deserialization stays a short page task */
export const OPEN_CHUNK = 4000;

export interface OpenRequest {
  kind: 'open';
  id: number;
  /** the View's text, or its packed envelope */
  doc: string | Packed;
}

/** One message of the worker's answer; the last has `done`. `ok: false` (alone): the document is refused. */
export type OpenPart =
  | { kind: 'open'; id: number; ok: false; done: true }
  | { kind: 'open'; id: number; ok: true; shell: unknown; done: boolean }
  | { kind: 'open'; id: number; ok: true; pane: number; key: string; items: unknown[]; done: boolean };

type Obj = Record<string, unknown>;

/** The worker's side: `post` is called with each part, in order. */
export async function openParts(req: OpenRequest, post: (p: OpenPart) => void): Promise<void> {
  let doc: unknown = req.doc;
  if (typeof doc !== 'string') {
    try {
      doc = await unpack(doc as Packed);
    } catch {
      doc = undefined; // damaged: refused below (the page unpacks it again for the words)
    }
  }
  const checked = checkDoc(doc);
  if (!checked.ok) {
    post({ kind: 'open', id: req.id, ok: false, done: true });
    return;
  }
  const view = checked.view as unknown as { panes: Array<{ snapshot: Obj }> };
  const long: Array<[number, string, unknown[]]> = [];
  const panes = view.panes.map((pane, i) => {
    const snap: Obj = { ...pane.snapshot };
    for (const [k, v] of Object.entries(snap))
      if (Array.isArray(v) && v.length > OPEN_CHUNK) {
        long.push([i, k, v]);
        snap[k] = [];
      }
    return { ...pane, snapshot: snap };
  });
  post({ kind: 'open', id: req.id, ok: true, shell: { ...view, panes }, done: long.length === 0 });
  for (const [n, [pane, key, items]] of long.entries())
    for (let i = 0; i < items.length; i += OPEN_CHUNK) {
      const done = n === long.length - 1 && i + OPEN_CHUNK >= items.length;
      post({ kind: 'open', id: req.id, ok: true, pane, key, items: items.slice(i, i + OPEN_CHUNK), done });
    }
}

/** The page's side: joins the parts as they come; `view` once the last has come (null: refused). */
export class OpenJoin {
  private shell: { panes: Array<{ snapshot: Obj }> } | null = null;
  refused = false;
  add(p: OpenPart): void {
    if (!p.ok) this.refused = true;
    else if ('shell' in p) this.shell = p.shell as { panes: Array<{ snapshot: Obj }> };
    else if (this.shell) {
      const into = this.shell.panes[p.pane].snapshot[p.key] as unknown[];
      for (const item of p.items) into.push(item);
    }
  }
  get view(): unknown {
    return this.refused ? null : this.shell;
  }
}
