// Web Worker entry: bundled on its own (scripts/build.mjs) into a string that layout-client.ts starts
// from a Blob URL, so the viewer needs no separate worker file and works from file://.
import { type LayoutRequest, layoutGraph } from './layout-engine';

const ctx = self as unknown as {
  onmessage: ((e: MessageEvent<LayoutRequest>) => void) | null;
  postMessage: (m: unknown) => void;
};

ctx.onmessage = (e: MessageEvent<LayoutRequest>) => {
  ctx.postMessage(layoutGraph(e.data));
};
