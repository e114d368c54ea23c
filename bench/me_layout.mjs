// Model Explorer's own layout worker (the bundled web_app/worker-*.js of `ai-edge-model-explorer`), run in
// Node on a graph written by bench/me_graphs.py: the anchor for bench/views.mjs. One graph per process.
//   node bench/me_layout.mjs WEB_APP_DIR GRAPH.me.json      → one JSON line {initial, expand, expandAll, …} (ms)
// The worker gets `self`, `postMessage` and an OffscreenCanvas stand-in whose measureText gives 7 px per
// character (label widths feed the node sizes; the layout work is the same). Messages are the ones ME's UI
// sends: PROCESS_GRAPH_REQ with initialLayout, then EXPAND_OR_COLLAPSE_GROUP_NODE_REQ for the group with
// the most children (its ancestors opened first, untimed), then the same request with no group: expand all.
// Only the worker is timed: ME's WebGL drawing of the result is not part of these figures.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import vm from 'node:vm';

// the WorkerEventType enum of ME's common/worker_events.ts
const PROCESS_GRAPH_REQ = 0;
const EXPAND_OR_COLLAPSE_GROUP_NODE_REQ = 2;

const [webApp, graphFile] = process.argv.slice(2);
const workerFile = readdirSync(webApp).find((f) => /^worker-.*\.js$/.test(f));
if (!workerFile) throw new Error(`no worker-*.js in ${webApp}`);

let handler = null;
let last = null;
const ctx2d = {
  font: '10px sans-serif',
  measureText: (t) => ({ width: String(t).length * 7, actualBoundingBoxAscent: 8, actualBoundingBoxDescent: 2 }),
  fillText() {},
  clearRect() {},
};
Object.assign(globalThis, {
  self: globalThis,
  postMessage: (m) => {
    last = m;
  },
  OffscreenCanvas: class {
    getContext() {
      return ctx2d;
    }
  },
});
const addListener = globalThis.addEventListener;
globalThis.addEventListener = (type, fn) => {
  if (type === 'message') handler = fn;
  else addListener?.(type, fn);
};
const silent = console.log;
console.log = () => undefined; // the worker logs progress
vm.runInThisContext(readFileSync(join(webApp, workerFile), 'utf8'), { filename: workerFile });
if (!handler) throw new Error('the ME worker registered no message handler');

const cpu = {}; // process CPU ms per step: not inflated by waiting for a core on a busy machine
const send = (data, step) => {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  handler({ data });
  const c = process.cpuUsage(c0);
  if (step) cpu[step] = (c.user + c.system) / 1000;
  return performance.now() - t0;
};
const common = { showOnNodeItemTypes: {}, nodeDataProviderRuns: {}, paneId: 'p', rendererId: 'p' };
const graph = JSON.parse(readFileSync(graphFile, 'utf8'));
const initial = send(
  {
    ...common,
    eventType: PROCESS_GRAPH_REQ,
    graph,
    initialLayout: true,
    groupNodeChildrenCountThreshold: 1000,
  },
  'initial',
);
const mg = last.modelGraph;
const groups = Object.values(mg.nodesById).filter((n) => n.nodeType === 1 || Array.isArray(n.nsChildrenIds));
let big = null;
for (const g of groups) if (!big || (g.nsChildrenIds?.length ?? 0) > (big.nsChildrenIds?.length ?? 0)) big = g;
const expandReq = (groupNodeId, all = false) => ({
  ...common,
  eventType: EXPAND_OR_COLLAPSE_GROUP_NODE_REQ,
  modelGraphId: mg.id,
  groupNodeId,
  expand: true,
  all,
});
// open the ancestors of the biggest group (untimed), then the group itself
const path = [];
for (let g = mg.nodesById[big.nsParentId]; g; g = mg.nodesById[g.nsParentId]) path.unshift(g.id);
for (const id of path) send(expandReq(id));
const expand = send(expandReq(big.id), 'expand');
const expandAll = send(expandReq(undefined, true), 'expandAll');
console.log = silent;
console.log(
  JSON.stringify({
    nodes: graph.nodes.length,
    groups: groups.length,
    initial,
    expand,
    expandKey: big.id,
    expandChildren: big.nsChildrenIds?.length ?? 0,
    expandAll,
    cpuInitial: cpu.initial,
    cpuExpand: cpu.expand,
    cpuExpandAll: cpu.expandAll,
  }),
);
