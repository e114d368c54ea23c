// Web Worker code: scripts/build.mjs bundles it on its own into a string that layout-client.ts starts from a
// Blob URL, so the viewer needs no separate worker file and works from file://. (report.js, inlined in saved
// outputs, is its own worker instead: src/report/worker-self.ts.) It answers layout requests and opens big
// Views (open-doc.ts: a text or a packed envelope, parsed and checked here, posted back in parts).
import { type LayoutRequest, layoutGraph } from './layout-engine';
import { type OpenRequest, openParts } from './open-doc';

/** Answers each layout request, and each open request, posted to this worker. */
export function serveLayouts(): void {
  const ctx = self as unknown as {
    onmessage: ((e: MessageEvent<LayoutRequest | OpenRequest>) => void) | null;
    postMessage: (m: unknown) => void;
  };
  ctx.onmessage = (e: MessageEvent<LayoutRequest | OpenRequest>) => {
    const req = e.data;
    if ('kind' in req && req.kind === 'open') void openParts(req, (p) => ctx.postMessage(p));
    else ctx.postMessage(layoutGraph(req as LayoutRequest));
  };
}
