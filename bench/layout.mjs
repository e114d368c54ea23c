// Layout timings on synthetic snapshots (tests/ts/fixtures/synth.mjs), in Node, same code as the viewer:
// hierarchical (collapsed open, expand of the biggest group, expand all) vs one flat layout of every node
// (the layered pass: dagre only lays out groups of up to DAGRE_MAX children).
//   node bench/layout.mjs [sizes…]      (default 1000 5000 20000; medians of 3 runs)

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { synthView } from '../tests/ts/fixtures/synth.mjs';

const entry = `
export { buildHierarchy, initialExpanded } from './src/core/groups';
export { HierLayout } from './src/core/hier-layout';
export { getLayoutClient } from './src/core/layout-client';
export { layoutGraph } from './src/core/layout-engine';
`;
const dir = mkdtempSync(join(tmpdir(), 'pt2e-lens-bench-'));
const out = join(dir, 'core.mjs');
await build({
  stdin: { contents: entry, resolveDir: process.cwd(), loader: 'ts' },
  bundle: true,
  format: 'esm',
  platform: 'node',
  outfile: out,
  logLevel: 'warning',
});
const core = await import(pathToFileURL(out).href);

const sizes = process.argv.slice(2).map(Number).filter(Boolean);
const now = () => performance.now();
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);

async function hierarchical(snap) {
  const nodes = new Map(snap.nodes.map((n) => [n.id, n]));
  const t0 = now();
  const h = core.buildHierarchy(snap.nodes, snap.edges);
  const t1 = now();
  const hl = new core.HierLayout(h, nodes, core.getLayoutClient(false));
  const ex = core.initialExpanded(h, snap.nodes.length, 300);
  const p0 = await hl.place(ex);
  const t2 = now();
  // biggest group = the group with most direct children (what one click can cost)
  let big = null;
  for (const g of h.groups.values()) if (g.parent && (!big || g.children.length > big.children.length)) big = g;
  const path = [];
  for (let g = big; g?.parent; g = g.parent) path.unshift(g.key);
  for (const k of path.slice(0, -1)) ex.add(k);
  await hl.place(ex);
  const t3 = now();
  ex.add(big.key);
  const p1 = await hl.place(ex);
  const t4 = now();
  let all = null;
  if (snap.nodes.length <= 50000) {
    const t5 = now();
    await hl.place(new Set(h.groups.keys()));
    all = now() - t5;
  }
  return {
    group: t1 - t0,
    initial: t2 - t1,
    expand: t4 - t3,
    all,
    bigKey: big.key,
    bigChildren: big.children.length,
    shown0: p0.boxes.size,
    shown1: p1.boxes.size,
  };
}

function flat(snap) {
  const t0 = now();
  const r = core.layoutGraph({
    id: 0,
    nodes: snap.nodes.map((n) => ({ id: n.id, w: 120, h: 40 })),
    edges: snap.edges.map((e) => [e.src, e.dst]),
  });
  return { ms: now() - t0, ok: r.engine !== 'fallback', error: r.error };
}

console.log(`node ${process.version}, ${(await import('node:os')).cpus().length} cpus; medians of 3\n`);
console.log(
  '| nodes | groups build | initial (collapsed) | expand biggest group | expand all | flat, one layout | flat / initial | flat / expand all |',
);
console.log('|---|---|---|---|---|---|---|---|');
const cases = (sizes.length ? sizes : [1000, 5000, 20000]).map((n) => [n, false]);
if (!sizes.length) cases.push([20000, true]);
for (const [n, mask] of cases) {
  const snap = synthView(n, { mask }).panes[0].snapshot;
  const runs = [];
  for (let i = 0; i < 3; i++) runs.push(await hierarchical(snap));
  const m = (k) => median(runs.map((r) => r[k]));
  const f = flat(snap);
  const flatCell = f.ok ? fmt(f.ms) : `failed after ${fmt(f.ms)} (${String(f.error).slice(0, 40)})`;
  const ratio = (x) => (f.ok && x ? `${(f.ms / x).toFixed(0)}×` : '—');
  console.log(
    `| ${snap.nodes.length}${mask ? ' + shared mask' : ''} | ${fmt(m('group'))} | ${fmt(m('initial'))} (${runs[0].shown0} boxes) | ${fmt(m('expand'))} (\`${runs[0].bigKey}\`, ${runs[0].bigChildren} children) | ${runs[0].all === null ? '—' : fmt(m('all'))} | ${flatCell} | ${ratio(m('initial'))} | ${ratio(m('all'))} |`,
  );
}
