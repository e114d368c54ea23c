// Runs layouts in shared Web Workers made from inlined code (Blob URL): up to two, so the layouts of one
// redraw (sibling groups opened by "expand all") use both cores of a small machine; each request goes to
// the worker with fewer pending. Falls back to the page's own thread when Worker or Blob URLs are
// unavailable or a worker fails, with the layered pass alone (layout-core.ts: dagre lives in the worker only).
// A big View's text is opened (parsed and checked) in a worker too (open-doc.ts); in-thread, in slices.

import type { Packed } from './contract.generated';
import { type LayoutRequest, type LayoutResult, layoutLayered } from './layout-core';
import { OpenJoin, type OpenPart } from './open-doc';
import { nextTask } from './slicer';
import type { View } from './types';
import { type Checked, checkDocInSlices } from './validate';
import { WORKER_SOURCE } from './worker-source.generated';

export interface LayoutClient {
  layout(req: Omit<LayoutRequest, 'id'>): Promise<LayoutResult>;
  /** a View's text parsed and checked: the same verdict as checkDoc */
  open(text: string): Promise<Checked>;
  /** a big packed View unpacked and checked in a worker; null when refused there or without a worker (the
   * page then unpacks it, as it did before: render-output.ts) */
  openPacked(envelope: Packed): Promise<View | null>;
  readonly mode: 'worker' | 'inline';
}

class InlineClient implements LayoutClient {
  readonly mode = 'inline' as const;
  private seq = 0;
  layout(req: Omit<LayoutRequest, 'id'>): Promise<LayoutResult> {
    // Yield first so a big layout never runs inside the caller's event handler.
    return new Promise((resolve) => setTimeout(() => resolve(layoutLayered({ ...req, id: ++this.seq })), 0));
  }
  open(text: string): Promise<Checked> {
    return checkDocInSlices(text, nextTask);
  }
  openPacked(): Promise<View | null> {
    return Promise.resolve(null);
  }
}

interface Opening {
  doc: string | Packed;
  join: OpenJoin;
  resolve: (c: Checked | null) => void;
}

class WorkerClient implements LayoutClient {
  mode: 'worker' | 'inline' = 'worker';
  private seq = 0;
  private pending = new Map<number, { req: LayoutRequest; resolve: (r: LayoutResult) => void }>();
  private opening = new Map<number, Opening>();
  private inline = new InlineClient();
  constructor(
    private worker: Worker,
    private url: string,
  ) {
    worker.onmessage = (e: MessageEvent<LayoutResult | OpenPart>) => {
      if ('kind' in e.data) {
        this.part(e.data);
        return;
      }
      const p = this.pending.get(e.data.id);
      if (!p) return;
      this.pending.delete(e.data.id);
      p.resolve(e.data);
    };
    worker.onerror = (ev: Event) => {
      ev.preventDefault?.();
      this.fail();
    };
  }
  /** called once this worker has failed (the pool then retires its siblings: same code, same page) */
  onFail: (() => void) | null = null;
  fail(): void {
    if (this.mode === 'inline') return;
    this.mode = 'inline';
    try {
      this.worker.terminate();
      URL.revokeObjectURL(this.url);
    } catch {
      /* already gone */
    }
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const p of waiting) void this.inline.layout(p.req).then(p.resolve);
    const opening = [...this.opening.values()];
    this.opening.clear();
    for (const o of opening) this.refused(o);
    this.onFail?.();
  }
  /** requests sent and not yet answered */
  get load(): number {
    return this.pending.size + this.opening.size;
  }
  private part(p: OpenPart): void {
    const o = this.opening.get(p.id);
    if (!o) return;
    o.join.add(p);
    if (!p.done) return;
    this.opening.delete(p.id);
    const view = o.join.view;
    if (view === null) this.refused(o);
    else o.resolve({ ok: true, view: view as View });
  }
  /** refused by the worker (or the worker gone): a text is checked again here, in slices, for the refusal's
   * words (the same verdict); a packed View goes back to the page's own unpacking */
  private refused(o: Opening): void {
    if (typeof o.doc === 'string') void this.inline.open(o.doc).then(o.resolve);
    else o.resolve(null);
  }
  private send(doc: string | Packed): Promise<Checked | null> {
    const id = ++this.seq;
    return new Promise((resolve) => {
      this.opening.set(id, { doc, join: new OpenJoin(), resolve });
      try {
        this.worker.postMessage({ kind: 'open', id, doc });
      } catch {
        this.fail();
      }
    });
  }
  open(text: string): Promise<Checked> {
    if (this.mode === 'inline') return this.inline.open(text);
    return this.send(text) as Promise<Checked>;
  }
  openPacked(envelope: Packed): Promise<View | null> {
    if (this.mode === 'inline') return this.inline.openPacked();
    return this.send(envelope).then((c) => (c?.ok ? c.view : null));
  }
  layout(req: Omit<LayoutRequest, 'id'>): Promise<LayoutResult> {
    if (this.mode === 'inline') return this.inline.layout(req);
    const full = { ...req, id: ++this.seq };
    return new Promise((resolve) => {
      this.pending.set(full.id, { req: full, resolve });
      try {
        this.worker.postMessage(full);
      } catch {
        this.fail();
      }
    });
  }
}

/** Sends each request to the least busy of its workers; when one fails, all fall back to the page thread. */
class PoolClient implements LayoutClient {
  constructor(private workers: WorkerClient[]) {
    for (const w of workers)
      w.onFail = () => {
        for (const other of workers) other.fail();
      };
  }
  get mode(): 'worker' | 'inline' {
    return this.workers.some((w) => w.mode === 'worker') ? 'worker' : 'inline';
  }
  layout(req: Omit<LayoutRequest, 'id'>): Promise<LayoutResult> {
    const live = this.workers.filter((w) => w.mode === 'worker');
    if (!live.length) return this.workers[0].layout(req);
    let pick = live[0];
    for (const w of live) if (w.load < pick.load) pick = w;
    return pick.layout(req);
  }
  private least(): WorkerClient {
    const live = this.workers.filter((w) => w.mode === 'worker');
    let pick = live[0] ?? this.workers[0];
    for (const w of live) if (w.load < pick.load) pick = w;
    return pick;
  }
  open(text: string): Promise<Checked> {
    return this.least().open(text);
  }
  openPacked(envelope: Packed): Promise<View | null> {
    return this.least().openPacked(envelope);
  }
}

let shared: LayoutClient | null = null;

function makeWorker(): WorkerClient | null {
  try {
    if (
      typeof Worker === 'undefined' ||
      typeof Blob === 'undefined' ||
      typeof URL === 'undefined' ||
      !URL.createObjectURL
    ) {
      return null;
    }
    if (!WORKER_SOURCE) return null;
    const url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'text/javascript' }));
    return new WorkerClient(new Worker(url), url);
  } catch {
    return null;
  }
}

/** Two workers when the machine has at least two cores (one stays free for the page otherwise). */
function workerCount(): number {
  const cores = typeof navigator !== 'undefined' ? (navigator.hardwareConcurrency ?? 1) : 1;
  return cores >= 2 ? 2 : 1;
}

function makePool(): LayoutClient | null {
  const first = makeWorker();
  if (!first) return null;
  const all = [first];
  for (let i = 1; i < workerCount(); i++) {
    const w = makeWorker();
    if (w) all.push(w);
  }
  return all.length === 1 ? first : new PoolClient(all);
}

/** The page-wide layout client; `useWorker: false` forces the in-thread path. */
export function getLayoutClient(useWorker = true): LayoutClient {
  if (!useWorker) return new InlineClient();
  if (!shared) shared = makePool() ?? new InlineClient();
  return shared;
}
