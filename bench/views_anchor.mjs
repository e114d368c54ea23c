// Model Explorer as the anchor for bench/views.mjs. When a venv with `ai-edge-model-explorer` exists
// ($PT2E_LENS_ME_PYTHON, default .bench-venv/bin/python; see docs/bench.md), ME's own layout worker is timed on
// the same real graphs in the same run (bench/me_graphs.py + bench/me_layout.mjs, fresh process per repeat,
// interleaved with ours). Otherwise the reference figures of the project's anchor notes are printed, labelled
// as not measured in this run. ME's figures are its worker alone: its WebGL drawing is not included.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

// ME reference figures (ME 0.1.34 layout worker headless, same kind of machine): graph → [ME graph, nodes,
// initial layout s, expand-all layout s]
const REFERENCE = {
  'resnet-250': ['resnet 250', 4760, 0.66, 3.98],
  'synth-5k': ['resnet 250', 4760, 0.66, 3.98],
  'transformer-100': ['tf 106', 4984, 0.78, 5.99],
  'resnet-1000': ['resnet 1000', 19010, 2.59, 13.4],
  'synth-20k': ['resnet 1000', 19010, 2.59, 13.4],
};
// a synthetic graph is anchored on the real resnet of its size (ME cannot read a pt2e-lens View)
const ME_GRAPH = { 'synth-5k': 'resnet-250', 'synth-20k': 'resnet-1000' };

export const meGraphOf = (name) => ME_GRAPH[name] ?? name;

/** Write ME's graphs of the real bench graphs into `dir`; null (with the reason printed) without an ME venv. */
export function meSetup(dir, names) {
  const py = process.env.PT2E_LENS_ME_PYTHON ?? join(ROOT, '.bench-venv/bin/python');
  if (!existsSync(py)) {
    console.log(`no Model Explorer venv (${py} missing): ME's reference figures are printed instead`);
    return null;
  }
  const wanted = [...new Set(names.map((n) => ME_GRAPH[n] ?? n))].filter((n) => REFERENCE[n]);
  const r = spawnSync(py, [join(ROOT, 'bench/me_graphs.py'), dir, ...wanted], { encoding: 'utf8' });
  if (r.status !== 0) {
    console.log(`bench/me_graphs.py failed (${r.stderr.trim().split('\n').pop()}): ME's reference figures instead`);
    return null;
  }
  const webApp = r.stdout.split('\n')[0].replace(/^web_app /, '');
  return { dir, webApp, graphs: new Set(wanted) };
}

/** ME's worker on the graph matching `name`, in a fresh Node process; null when there is none. */
export function meMeasure(setup, name) {
  const g = ME_GRAPH[name] ?? name;
  if (!setup?.graphs.has(g)) return null;
  const r = spawnSync(
    process.execPath,
    [join(ROOT, 'bench/me_layout.mjs'), setup.webApp, join(setup.dir, `${g}.me.json`)],
    {
      encoding: 'utf8',
    },
  );
  if (r.status !== 0) return { error: r.stderr.trim().split('\n').pop() };
  return { graph: g, ...JSON.parse(r.stdout.trim().split('\n').pop()) };
}

const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);

export function anchorTable(results) {
  const measured = Object.values(results).some((r) => r.me);
  const lines = [];
  if (measured) {
    lines.push(
      "Model Explorer's layout worker, measured in this run, interleaved with ours (medians of the runs shown). Its worker",
      "only: ME's WebGL drawing is not included, our drawing and paint are. ME's wall time on a busy machine is inflated",
      'far more than its CPU time (a single-threaded Node process waiting for a core), so ours is also divided by ME CPU',
      'time — the ratio that is fairer to ME. "layout" = our layout-worker time alone.',
      '',
      '| graph | ME graph (nodes), runs | ME initial: wall (CPU) | ours interactive ÷ ME wall / ÷ ME CPU | ME expand biggest group: wall (CPU) | ours expand ÷ ME wall / ÷ ME CPU / layout ÷ ME CPU | ME expand all: wall (CPU) | ours expand all drawn ÷ ME wall / ÷ ME CPU / layout ÷ ME CPU |',
      '|---|---|---|---|---|---|---|---|',
    );
    for (const [name, r] of Object.entries(results)) {
      if (!r.me || r.me.error) continue;
      const m = r.me;
      const q = (...xs) => xs.map(([a, b]) => (a / b).toFixed(2)).join(' / ');
      lines.push(
        `| ${name} | ${m.graph} (${m.nodes}), ${m.runs} | ${fmt(m.initial)} (${fmt(m.cpuInitial)}) | ` +
          `${q([r.interactive, m.initial], [r.interactive, m.cpuInitial])} | ` +
          `${fmt(m.expand)} (${fmt(m.cpuExpand)}; ${m.expandChildren} children) | ` +
          `${q([r.expand, m.expand], [r.expand, m.cpuExpand], [r.expandLayout, m.cpuExpand])} | ` +
          `${fmt(m.expandAll)} (${fmt(m.cpuExpandAll)}) | ` +
          `${q([r.expandAll, m.expandAll], [r.expandAll, m.cpuExpandAll], [r.expandAllLayout, m.cpuExpandAll])} |`,
      );
    }
    lines.push('');
  }
  lines.push(
    `Model Explorer's layout, reference figures (${measured ? 'for comparison' : 'NOT measured in this run'}; ME 0.1.34 worker headless, same kind of machine, quiet):`,
    '',
    '| graph | ME graph (nodes) | ME initial | ours interactive ÷ ME initial | ME expand all | ours expand all drawn ÷ ME |',
    '|---|---|---|---|---|---|',
  );
  for (const [name, r] of Object.entries(results)) {
    const a = REFERENCE[name];
    if (!a) continue;
    const [g, n, init, all] = a;
    lines.push(
      `| ${name} | ${g} (${n}) | ${init} s | ${(r.interactive / 1000 / init).toFixed(2)} | ${all} s | ${(r.expandAll / 1000 / all).toFixed(2)} |`,
    );
  }
  return lines.join('\n');
}
