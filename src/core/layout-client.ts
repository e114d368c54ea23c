// Runs layouts in one shared Web Worker made from inlined code (Blob URL); falls back to the page's
// own thread when Worker or Blob URLs are unavailable or the worker fails.
import { type LayoutRequest, type LayoutResult, layoutGraph } from './layout-engine';
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
    return new Promise((resolve) => setTimeout(() => resolve(layoutGraph({ ...req, id: ++this.seq })), 0));
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
  private fail(): void {
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

let shared: LayoutClient | null = null;

function makeWorker(): LayoutClient | null {
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

/** The page-wide layout client; `useWorker: false` forces the in-thread path. */
export function getLayoutClient(useWorker = true): LayoutClient {
  if (!useWorker) return new InlineClient();
  if (!shared) shared = makeWorker() ?? new InlineClient();
  return shared;
}
