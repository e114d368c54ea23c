// Runs layouts in shared Web Workers made from inlined code (Blob URL): up to two, so the layouts of one
// redraw (sibling groups opened by "expand all") use both cores of a small machine; each request goes to
// the worker with fewer pending. Falls back to the page's own thread when Worker or Blob URLs are
// unavailable or a worker fails, with the layered pass alone (layout-core.ts: dagre lives in the worker only).
import { type LayoutRequest, type LayoutResult, layoutLayered } from './layout-core';
import { WORKER_SOURCE } from './worker-source.generated';

export interface LayoutClient {
  layout(req: Omit<LayoutRequest, 'id'>): Promise<LayoutResult>;
  readonly mode: 'worker' | 'inline';
}

class InlineClient implements LayoutClient {
  readonly mode = 'inline' as const;
  private seq = 0;
  layout(req: Omit<LayoutRequest, 'id'>): Promise<LayoutResult> {
    // Yield first so a big layout never runs inside the caller's event handler.
    return new Promise((resolve) => setTimeout(() => resolve(layoutLayered({ ...req, id: ++this.seq })), 0));
  }
}

class WorkerClient implements LayoutClient {
  mode: 'worker' | 'inline' = 'worker';
  private seq = 0;
  private pending = new Map<number, { req: LayoutRequest; resolve: (r: LayoutResult) => void }>();
  private inline = new InlineClient();
  constructor(
    private worker: Worker,
    private url: string,
  ) {
    worker.onmessage = (e: MessageEvent<LayoutResult>) => {
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
    this.onFail?.();
  }
  /** requests sent and not yet answered */
  get load(): number {
    return this.pending.size;
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
