// The longest main-thread task of each phase of bench/views.mjs (open, expand the biggest group, expand all, and
// the crisp full draw with the whole expanded graph in view), by wall time and by the thread's CPU time, read from a Chrome trace ('toplevel' category: every task the
// renderer's main thread runs, the frame's style, layout and paint included). On a shared machine a task's wall
// time is mostly the time its thread waited for a core (at load 8 on 2 cores: 200 ms of wall for 30 ms of CPU);
// its CPU time is the work the page did, comparable across runs. The last column sums the CPU of all of a phase's
// main-thread tasks (for open: the work done before the page was interactive). Bundles are interleaved per repeat.
//
//   node bench/longtasks.mjs [--only synth-20k,synth-100k,decoder-100k] [--docs DIR] [--repeats 3] [--bundle a.js,b.js]
// (decoder-100k: the View bench/view_docs.py writes into DIR; see docs/bench.md)

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { synthView } from '../tests/ts/fixtures/synth.mjs';
import { launch } from '../tests/ui/browser.mjs';
import { biggestGroupScript } from './biggest-group.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const opt = {
  only: ['synth-20k', 'synth-100k'],
  docs: null,
  repeats: 3,
  bundles: [join(ROOT, 'kernel_pkg/pt2e_lens/_static/report.js')],
};
const a = process.argv.slice(2);
for (let i = 0; i < a.length; i++) {
  if (a[i] === '--only') opt.only = a[++i].split(',');
  else if (a[i] === '--docs') opt.docs = a[++i];
  else if (a[i] === '--repeats') opt.repeats = Number(a[++i]);
  else if (a[i] === '--bundle') opt.bundles = a[++i].split(',').map((b) => resolve(b));
  else throw new Error(`unknown argument ${a[i]}: --only a,b, --docs DIR, --repeats N, --bundle A.js,B.js`);
}

function docText(name) {
  const m = /^synth-(\d+)k$/.exec(name);
  if (m) return JSON.stringify(synthView(Number(m[1]) * 1000));
  if (!opt.docs) throw new Error(`${name} needs --docs DIR (bench/view_docs.py DIR ${name} writes it)`);
  return readFileSync(join(opt.docs, `${name}.json`), 'utf8');
}

// in the page: the three phases of bench/views.mjs, each begun in a task of the page's own and marked in the trace
async function phases() {
  const painted = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())));
  const turn = () => new Promise((r) => setTimeout(r, 0));
  const m = {};
  await turn();
  performance.mark('ph:open');
  let t0 = performance.now();
  const host = document.createElement('div');
  document.body.appendChild(host);
  window.__handle = window.pt2eLens.render(host, document.getElementById('bench-doc').textContent, { height: 760 });
  await window.__handle.ready;
  await painted();
  m.open = performance.now() - t0;
  const gv = window.__handle.panes.find((p) => p);
  const big = await window.__closeBiggest(gv);
  await painted();
  await turn();
  performance.mark('ph:expand');
  t0 = performance.now();
  await gv.toggle(big.key);
  await painted();
  m.expand = performance.now() - t0;
  await turn();
  performance.mark('ph:all');
  t0 = performance.now();
  gv.expanded = new Set(gv.hier.groups.keys());
  await gv.redraw();
  await painted();
  m.all = performance.now() - t0;
  // as bench/views.mjs's showAll: the whole expanded graph in view (nothing culled), its crisp full draw
  await turn();
  performance.mark('ph:full');
  t0 = performance.now();
  const P = gv.placement;
  const r = gv.el.querySelector('.pl-canvas').getBoundingClientRect();
  const k = Math.min(r.width / (P.width + 40), r.height / (P.height + 40));
  gv.panZoom.t = { k, x: (r.width - P.width * k) / 2, y: (r.height - P.height * k) / 2 };
  gv.panZoom.apply();
  if (gv.canvasView) await gv.canvasView.paint();
  await painted();
  m.full = performance.now() - t0;
  performance.mark('ph:end');
  return m;
}

async function traced(browser, url) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await ctx.addInitScript(biggestGroupScript);
  const pg = await ctx.newPage();
  await pg.goto(url);
  await pg.waitForFunction(() => window.pt2eLens);
  const cdp = await ctx.newCDPSession(pg);
  const events = [];
  cdp.on('Tracing.dataCollected', (d) => events.push(...d.value));
  const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.start', {
    traceConfig: { includedCategories: ['toplevel', 'blink.user_timing', '__metadata'] },
    transferMode: 'ReportEvents',
  });
  const ms = await pg.evaluate(phases);
  await cdp.send('Tracing.end');
  await done;
  await ctx.close();
  const main = new Set(
    events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`),
  );
  const marks = events.filter((e) => e.name?.startsWith('ph:')).sort((x, y) => x.ts - y.ts);
  const phaseOf = (ts) =>
    marks
      .filter((e) => e.ts <= ts)
      .pop()
      ?.name.slice(3);
  // per phase: longest task's wall, longest task's CPU, all its tasks' CPU
  const lt = { open: [0, 0, 0], expand: [0, 0, 0], all: [0, 0, 0], full: [0, 0, 0] };
  for (const e of events) {
    if (e.ph !== 'X' || e.name !== 'ThreadControllerImpl::RunTask' || !main.has(`${e.pid}:${e.tid}`)) continue;
    const p = lt[phaseOf(e.ts + e.dur)]; // a task belongs to the phase it ends in (as in views.mjs)
    if (!p) continue;
    p[0] = Math.max(p[0], e.dur / 1000);
    p[1] = Math.max(p[1], (e.tdur ?? 0) / 1000);
    p[2] += (e.tdur ?? 0) / 1000;
  }
  return { ms, lt };
}

const median = (xs) => xs.slice().sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const browser = await launch();
const dir = mkdtempSync(join(tmpdir(), 'pt2e-lens-longtasks-'));
const rows = [];
try {
  for (const name of opt.only) {
    const text = docText(name).replace(/</g, '\\u003c');
    const urls = opt.bundles.map((b, k) => {
      const bundle = readFileSync(b, 'utf8').replace(/<\/script/gi, '<\\/script');
      const p = join(dir, `${name}-${k}.html`);
      writeFileSync(
        p,
        `<!doctype html><html><head><meta charset="utf-8"><title>bench</title></head><body style="margin:8px">` +
          `<script type="application/json" id="bench-doc">${text}</script><script>${bundle}</script></body></html>`,
      );
      return pathToFileURL(p).href;
    });
    const runs = opt.bundles.map(() => []);
    for (let i = 0; i < opt.repeats; i++)
      for (const [k, url] of urls.entries()) runs[k].push(await traced(browser, url));
    for (const [k, b] of opt.bundles.entries()) {
      const f = (g) => median(runs[k].map(g)).toFixed(0);
      const ph = ['open', 'expand', 'all', 'full'];
      rows.push(
        `| ${name}${opt.bundles.length > 1 ? ` [${basename(b, '.js')}]` : ''} | ${ph.map((p) => f((r) => r.ms[p])).join(' / ')} ms | ` +
          `${ph.map((p) => f((r) => r.lt[p][1])).join(' / ')} ms | ${ph.map((p) => f((r) => r.lt[p][0])).join(' / ')} ms | ` +
          `${ph.map((p) => f((r) => r.lt[p][2])).join(' / ')} ms |`,
      );
      console.log(rows[rows.length - 1]);
    }
  }
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}
console.log(`\nmedians of ${opt.repeats}`);
console.log(
  '| graph | phase wall: open / expand / all / full draw | longest task, CPU: open / expand / all / full draw | longest task, wall | main-thread CPU, all tasks |',
);
console.log('|---|---|---|---|---|');
for (const r of rows) console.log(r);
