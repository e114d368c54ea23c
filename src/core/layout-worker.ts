// Web Worker code: scripts/build.mjs bundles it on its own into a string that layout-client.ts starts from a
// Blob URL, so the viewer needs no separate worker file and works from file://. (report.js, inlined in saved
// outputs, is its own worker instead: src/report/worker-self.ts.)
import { type LayoutRequest, layoutGraph } from './layout-engine';

/** Answers each layout request posted to this worker. */
export function serveLayouts(): void {
  const ctx = self as unknown as {
    onmessage: ((e: MessageEvent<LayoutRequest>) => void) | null;
    postMessage: (m: unknown) => void;
  };
  ctx.onmessage = (e: MessageEvent<LayoutRequest>) => {
    ctx.postMessage(layoutGraph(e.data));
  };
}
