// The report bundle is its own layout worker. scripts/build.mjs wraps report.js in `function pt2eLensViewer`
// and gives layout-client.ts this module in place of worker-source.generated.ts, so the worker starts from the
// viewer's own text: dagre and the layered pass are in a saved output once, as code, not again in a string
// (docs/bench.md, "Weight"). The widget, VS Code and JupyterLab bundles keep the generated worker source.
import { serveLayouts } from '../core/layout-worker';

declare const pt2eLensViewer: () => void;

// in a worker (no document) the bundle answers layout requests; on a page it draws the outputs (index.ts)
if (typeof document === 'undefined') serveLayouts();

export const WORKER_SOURCE: string = `(${pt2eLensViewer})()`;
