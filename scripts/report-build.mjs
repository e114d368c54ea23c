// How report.js (the viewer inlined in every saved output) is bundled, for scripts/build.mjs and
// bench/viewer_weight.mjs: wrapped in `function pt2eLensViewer` so that it can start its layout worker from its
// own text (src/report/worker-self.ts stands in for the generated worker source; docs/bench.md, "Weight").

import { resolve } from 'node:path';

const selfWorker = {
  name: 'report-is-its-own-worker',
  setup(b) {
    b.onResolve({ filter: /\/worker-source\.generated$/ }, () => ({ path: resolve('src/report/worker-self.ts') }));
  },
};

export const REPORT = {
  entryPoints: ['src/report/index.ts'],
  format: 'iife',
  plugins: [selfWorker],
  banner: { js: '(function pt2eLensViewer(){' },
  footer: { js: '})();' },
};
