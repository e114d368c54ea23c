// Views in the browser: the built report bundle (kernel_pkg/pt2e_lens/_static/report.js, the core every host
// uses) in headless Chromium on synthetic and real View documents, measured in one run against issue 15's goals:
//   interactive  output inserted → first layout drawn and painted (handlers are bound when drawn)
//   expand       opening the group with the most direct children (its ancestors opened first, untimed)
//   expand all   every group open, drawn and painted
//   pan/zoom     frame times (requestAnimationFrame deltas) while CDP drives wheel zoom and a drag,
//                with every node of the expanded graph inside the view; judged by frames, not fps (rAF never
//                runs faster than the display): median and p90 frame within the display's frame interval
//                (measured on the idle page), and no dropped frame (a delta over 1.5 intervals)
//   long task    the longest 'longtask' entry of the PerformanceObserver, per phase
// Medians of --repeats (3) fresh pages per document. Times vary with machine load: read the ratios.
//
//   npm run bench:views                        (builds the front end first)
//   node bench/views.mjs [--repeats N] [--only synth-5k,resnet-1000,…] [--docs DIR] [--json-out FILE] [--no-me]
//   node bench/views.mjs --from-json FILE      (print the tables of a saved run again)
//   node bench/views.mjs --bundle old.js,new.js (before/after: each repeat measures each bundle in turn)
//   node bench/views.mjs --bundle old,new [--old REF] (old: report.js built from git REF, default main, in
//                                              out/bench-old/<commit>; new: this checkout's build)
// Real graphs are written by bench/view_docs.py with $PT2E_LENS_PYTHON (default .venv/bin/python);
// --docs DIR keeps them there and reuses them on the next run.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { synthView } from '../tests/ts/fixtures/synth.mjs';
import { launch } from '../tests/ui/browser.mjs';
import { biggestGroupScript } from './biggest-group.mjs';
import { anchorTable, meGraphOf, meMeasure, meSetup } from './views_anchor.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const BUNDLE = join(ROOT, 'kernel_pkg/pt2e_lens/_static/report.js');
// issue 15's goals; the long-task goal is tighter up to 20k nodes than at 100k
const GOALS = { interactive: 1500, expand: 250, expandAll: 3000, longTask: 100, longTaskSmall: 50 };
// a frame up to this much over the display's interval is on time (timer jitter); over DROPPED intervals, a frame was dropped
const JITTER = 1.1;
const DROPPED = 1.5;
const SMALL = 20000; // nodes up to which longTaskSmall holds
const longTaskGoal = (nodes) => (nodes <= SMALL * 1.05 ? GOALS.longTaskSmall : GOALS.longTask);
const VIEWPORT = { width: 1280, height: 900 };
const CANVAS_PX = 760;

function args() {
  const a = process.argv.slice(2);
  const opt = {
    repeats: 3,
    only: null,
    docs: null,
    jsonOut: null,
    me: true,
    fromJson: null,
    bundles: [BUNDLE],
    old: 'main',
  };
  for (let i = 0; i < a.length; i++) {
    if (a[i] === '--repeats') opt.repeats = Number(a[++i]);
    else if (a[i] === '--only') opt.only = a[++i].split(',');
    else if (a[i] === '--docs') opt.docs = a[++i];
    else if (a[i] === '--json-out') opt.jsonOut = a[++i];
    else if (a[i] === '--no-me') opt.me = false;
    else if (a[i] === '--from-json') opt.fromJson = a[++i];
    else if (a[i] === '--bundle') opt.bundles = a[++i].split(',');
    else if (a[i] === '--old') opt.old = a[++i];
    else
      throw new Error(
        `unknown argument ${a[i]}: --repeats N, --only a,b, --docs DIR, --json-out FILE, --no-me, --from-json FILE, --bundle A.js,B.js|old,new, --old REF`,
      );
  }
  opt.labels = opt.bundles.map((b) => (b === 'old' || b === 'new' ? b : basename(b, '.js')));
  opt.bundles = opt.bundles.map((b) => (b === 'new' ? BUNDLE : b === 'old' ? oldBundle(opt.old) : resolve(b)));
  return opt;
}

// `--bundle old`: the report bundle of git REF, built once per commit in a copy of that commit's tree (this
// checkout's node_modules linked in), kept in out/bench-old/<commit>/ for the next run.
function oldBundle(ref) {
  const git = (...a) => {
    const r = spawnSync('git', a, { cwd: ROOT, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${a.join(' ')}: ${r.stderr.trim()}`);
    return r.stdout.trim();
  };
  const sha = git('rev-parse', '--verify', `${ref}^{commit}`);
  const dir = join(ROOT, 'out/bench-old', sha.slice(0, 12));
  const out = join(dir, 'kernel_pkg/pt2e_lens/_static/report.js');
  if (existsSync(out)) return out;
  console.log(`building the report bundle of ${ref} (${sha.slice(0, 12)}) in ${dir} …`);
  mkdirSync(dir, { recursive: true });
  const tar = spawnSync('sh', ['-c', `git archive ${sha} | tar -x -C "${dir}"`], { cwd: ROOT, encoding: 'utf8' });
  if (tar.status !== 0) throw new Error(`git archive ${sha}: ${tar.stderr.trim()}`);
  if (!existsSync(join(dir, 'node_modules'))) symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  for (const step of [
    ['scripts/gen-contract.mjs'],
    ['scripts/build.mjs', 'worker'],
    ['scripts/build.mjs', 'bundles'],
  ]) {
    const r = spawnSync(process.execPath, step, { cwd: dir, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`node ${step.join(' ')} in ${dir}: ${r.stderr.trim()}`);
  }
  if (!existsSync(out)) throw new Error(`${out} was not built`);
  return out;
}

const median = (xs) => {
  const v = xs.filter((x) => x !== null && x !== undefined && !Number.isNaN(x)).sort((a, b) => a - b);
  return v.length ? v[Math.floor(v.length / 2)] : null;
};
const medians = (runs) =>
  Object.fromEntries(
    Object.keys(runs[0]).map((k) => [k, typeof runs[0][k] === 'number' ? median(runs.map((r) => r[k])) : runs[0][k]]),
  );
const fmt = (ms) => (ms === null ? '—' : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);

// ---- documents ------------------------------------------------------------------------------------

const REAL = ['resnet-250', 'resnet-1000', 'transformer-100', 'decoder-100k'];

function realDocs(dir, wanted) {
  const py = process.env.PT2E_LENS_PYTHON ?? join(ROOT, '.venv/bin/python');
  const missing = wanted.filter((n) => !existsSync(join(dir, `${n}.json`)));
  if (missing.length) {
    console.log(`writing ${missing.join(', ')} with bench/view_docs.py (torch.export + pl.show) …`);
    const r = spawnSync(py, [join(ROOT, 'bench/view_docs.py'), dir, ...missing], { encoding: 'utf8' });
    if (r.status !== 0) {
      console.log(`  bench/view_docs.py failed (${r.stderr.trim().split('\n').pop()}); real graphs skipped`);
      return [];
    }
    for (const line of r.stdout.trim().split('\n')) {
      const [name, nodes, bytes, secs] = line.split(' ');
      console.log(`  ${name}: ${nodes} nodes, ${(bytes / 1e6).toFixed(1)} MB of View JSON, ${secs} s`);
    }
  }
  return wanted.map((name) => ({ name, text: readFileSync(join(dir, `${name}.json`), 'utf8') }));
}

function documents(opt, dir) {
  const pick = (n) => !opt.only || opt.only.includes(n);
  const docs = [];
  for (const [name, n] of [
    ['synth-5k', 5000],
    ['synth-20k', 20000],
    ['synth-100k', 100000],
  ])
    if (pick(name)) docs.push({ name, text: JSON.stringify(synthView(n)) });
  const real = REAL.filter(pick);
  if (real.length) docs.push(...realDocs(dir, real));
  for (const d of docs) d.nodes = JSON.parse(d.text).panes[0].snapshot.nodes.length;
  return docs;
}

// ---- the page -------------------------------------------------------------------------------------

function page(dir, doc, bundleFile, tag) {
  const bundle = readFileSync(bundleFile, 'utf8').replace(/<\/script/gi, '<\\/script');
  // the View sits in a script the report bundle does not render (type application/json): the page
  // inserts the output itself, so the clock starts at insertion, not at page load
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>bench</title>
<style>body{margin:8px;background:#fff}</style></head><body>
<script type="application/json" id="bench-doc">${doc.text.replace(/</g, '\\u003c')}</script>
<script>${bundle}</script></body></html>`;
  const p = join(dir, `${doc.name}-${tag}.html`);
  writeFileSync(p, html);
  return pathToFileURL(p).href;
}

// Runs in the page before any script: long tasks are recorded from the start.
function observeLongTasks() {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: true });
  window.__painted = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())));
}

const inPage = {
  // output inserted → ready (layout drawn) → two frames later (painted)
  async insert([height]) {
    // start in a task of the page's own (a timer): work run inside a CDP evaluate is not seen by 'longtask'
    await new Promise((r) => setTimeout(r, 0));
    const t0 = performance.now();
    const host = document.createElement('div');
    document.body.appendChild(host);
    const text = document.getElementById('bench-doc').textContent;
    window.__handle = window.pt2eLens.render(host, text, { height });
    const t1 = performance.now(); // render() returned: the synchronous part (parse, check, groups)
    await window.__handle.ready;
    const t2 = performance.now();
    await window.__painted();
    const t3 = performance.now();
    const gv = window.__handle.panes.find((p) => p);
    const layoutMs = gv?.lastLayout.ms ?? null;
    return {
      t0,
      sync: t1 - t0,
      layoutMs,
      draw: t2 - t1 - (layoutMs ?? 0),
      paint: t3 - t2,
      ms: t3 - t0,
      mode: window.pt2eLens.layoutMode?.() ?? '?',
    };
  },
  async expandBiggest() {
    const gv = window.__handle.panes.find((p) => p);
    const big = await window.__closeBiggest(gv);
    await window.__painted();
    const t0 = performance.now();
    await gv.toggle(big.key); // what a click on the closed group calls
    const t1 = performance.now();
    await window.__painted();
    const ms = performance.now() - t0;
    const layoutMs = gv.lastLayout.ms;
    return {
      t0,
      ms,
      layoutMs,
      draw: t1 - t0 - layoutMs,
      paint: ms - (t1 - t0),
      key: big.key,
      children: big.children.length,
    };
  },
  async expandAll() {
    const gv = window.__handle.panes.find((p) => p);
    const t0 = performance.now();
    gv.expanded = new Set(gv.hier.groups.keys()); // what "Expand all" does (the button exists up to 5k nodes)
    await gv.redraw();
    const t1 = performance.now();
    await window.__painted();
    // a large scene is drawn on a canvas (its full draw is part of redraw()), a small one in SVG
    const drawnEl = gv.canvasView?.el ?? gv.el.querySelector('svg');
    const ms = performance.now() - t0;
    return {
      t0,
      ms,
      layoutMs: gv.lastLayout.ms,
      draw: t1 - t0 - gv.lastLayout.ms,
      paint: ms - (t1 - t0),
      drawn: Number(drawnEl?.getAttribute('data-nodes') ?? NaN),
      renderer: gv.canvasView ? 'canvas' : 'svg',
      elements: gv.el.querySelector('.pl-canvas').getElementsByTagName('*').length,
    };
  },
  // zoom out until the whole layout is inside the view: every node visible (small), nothing culled; on a
  // canvas, time the crisp full draw of that view (sliced: its longest slice is in the long tasks)
  async showAll() {
    const gv = window.__handle.panes.find((p) => p);
    const P = gv.placement;
    const pz = gv.pz;
    const r = gv.el.querySelector('.pl-canvas').getBoundingClientRect();
    if (!P || !pz?.t || typeof pz.apply !== 'function') return { ok: false };
    const k = Math.min(r.width / (P.width + 40), r.height / (P.height + 40));
    pz.t = { k, x: (r.width - P.width * k) / 2, y: (r.height - P.height * k) / 2 };
    pz.apply();
    let fullDraw = null;
    if (gv.canvasView) {
      const t0 = performance.now();
      await gv.canvasView.paint();
      fullDraw = performance.now() - t0;
    }
    return { ok: true, k, rect: [r.left, r.top, r.width, r.height], fullDraw };
  },
  // the display's frame interval: rAF deltas of the idle page
  async frameInterval() {
    const ts = [];
    await new Promise((done) => {
      const tick = (t) => {
        ts.push(t);
        if (ts.length < 21) requestAnimationFrame(tick);
        else done();
      };
      requestAnimationFrame(tick);
    });
    const d = ts
      .slice(1)
      .map((t, i) => t - ts[i])
      .sort((a, b) => a - b);
    return d[Math.floor(d.length / 2)];
  },
  startFrames() {
    window.__frames = [];
    window.__framing = true;
    const tick = (t) => {
      window.__frames.push(t);
      if (window.__framing) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    return performance.now();
  },
  stopFrames() {
    window.__framing = false;
    return window.__frames;
  },
  longTasks: () => window.__longTasks,
};

// a task belongs to the phase it ends in: the one that runs render() starts before the clock does
const longest = (tasks, from, to) =>
  Math.max(0, ...tasks.filter(([s, d]) => s + d >= from && s + d < to).map(([, d]) => d));

// Wheel zoom in and out, then a drag, through CDP input events (each awaited: a busy page slows the
// stream down, as it would a user's). Frame times are the rAF deltas meanwhile.
async function gestures(pg, cdp, rect) {
  const [left, top, w, h] = rect;
  const x = Math.round(left + w / 2);
  const y = Math.round(top + h / 2);
  const mouse = (type, extra = {}) => cdp.send('Input.dispatchMouseEvent', { type, x, y, button: 'none', ...extra });
  await mouse('mouseMoved');
  const interval = await pg.evaluate(inPage.frameInterval);
  const t0 = await pg.evaluate(inPage.startFrames);
  const deadline = Date.now() + 6000;
  for (let i = 0; i < 24 && Date.now() < deadline; i++)
    await mouse('mouseWheel', { deltaX: 0, deltaY: i < 12 ? -80 : 80 });
  await mouse('mousePressed', { button: 'left', buttons: 1, clickCount: 1 });
  for (let i = 1; i <= 24 && Date.now() < deadline + 3000; i++)
    await cdp.send('Input.dispatchMouseEvent', {
      type: 'mouseMoved',
      x: x + 8 * i,
      y: y + 4 * i,
      button: 'left',
      buttons: 1,
    });
  await cdp.send('Input.dispatchMouseEvent', { type: 'mouseReleased', x: x + 192, y: y + 96, button: 'left' });
  await pg.evaluate(() => window.__painted());
  const frames = await pg.evaluate(inPage.stopFrames);
  const d = frames.slice(1).map((t, i) => t - frames[i]);
  const span = frames.length > 1 ? frames[frames.length - 1] - frames[0] : null;
  return {
    t0,
    t1: frames[frames.length - 1] ?? t0,
    fps: span ? (frames.length - 1) / (span / 1000) : null,
    medianFrame: median(d),
    p90Frame: d.length ? d.slice().sort((a, b) => a - b)[Math.floor(d.length * 0.9)] : null,
    worstFrame: d.length ? Math.max(...d) : null,
    dropped: d.filter((x) => x > DROPPED * interval).length,
    interval,
    frames: frames.length,
  };
}

async function measure(browser, url, doc) {
  const ctx = await browser.newContext({ viewport: VIEWPORT });
  await ctx.addInitScript(observeLongTasks);
  await ctx.addInitScript(biggestGroupScript);
  const pg = await ctx.newPage();
  const errors = [];
  pg.on('pageerror', (e) => errors.push(String(e)));
  await pg.goto(url);
  await pg.waitForFunction(() => window.pt2eLens);
  const cdp = await ctx.newCDPSession(pg);
  const r = { nodes: doc.nodes };
  // the page's main-thread CPU while it opens the output (Chromium's TaskDuration: every task of the renderer's
  // main thread, whatever its length): work moved to a worker leaves it
  await cdp.send('Performance.enable');
  const cpu0 = await mainThreadSeconds(cdp);
  const ins = await pg.evaluate(inPage.insert, [CANVAS_PX]);
  const openCpu = (await mainThreadSeconds(cdp)) - cpu0;
  const exp = await pg.evaluate(inPage.expandBiggest);
  const all = await pg.evaluate(inPage.expandAll);
  const shown = await pg.evaluate(inPage.showAll);
  const pan = shown.ok ? await gestures(pg, cdp, shown.rect) : null;
  const lt = await pg.evaluate(inPage.longTasks);
  Object.assign(r, {
    layoutMode: ins.mode,
    interactive: ins.ms,
    openCpu: openCpu * 1000,
    renderSync: ins.sync,
    firstLayout: ins.layoutMs,
    firstDraw: ins.draw,
    firstPaint: ins.paint,
    expand: exp.ms,
    expandLayout: exp.layoutMs,
    expandDraw: exp.draw,
    expandPaint: exp.paint,
    expandKey: `${exp.key} (${exp.children} children)`,
    expandAll: all.ms,
    expandAllLayout: all.layoutMs,
    expandAllDraw: all.draw,
    expandAllPaint: all.paint,
    drawn: all.drawn,
    renderer: all.renderer,
    elements: all.elements,
    fullDraw: shown.fullDraw ?? null,
    fps: pan?.fps ?? null,
    medianFrame: pan?.medianFrame ?? null,
    p90Frame: pan?.p90Frame ?? null,
    worstFrame: pan?.worstFrame ?? null,
    dropped: pan?.dropped ?? null,
    frameInterval: pan?.interval ?? null,
    framesSeen: pan?.frames ?? null,
    ltInteractive: longest(lt, ins.t0, exp.t0),
    ltExpand: longest(lt, exp.t0, all.t0),
    ltExpandAll: longest(lt, all.t0, pan?.t0 ?? Infinity),
    ltPan: pan ? longest(lt, pan.t0, Infinity) : null,
    errors,
  });
  await ctx.close();
  return r;
}

async function mainThreadSeconds(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((m) => m.name === 'TaskDuration')?.value ?? Number.NaN;
}

// ---- report -------------------------------------------------------------------------------------

function goalCell(v, goal) {
  if (v === null) return '—';
  return `${fmt(v)} (${(v / goal).toFixed(2)}× goal${v <= goal ? '' : ', not met'})`;
}

// pan/zoom met: median and p90 frame within the display's interval, no frame dropped
function framesCell(r) {
  if (r.medianFrame === null || r.medianFrame === undefined) return '—';
  if (r.frameInterval === undefined) return `${r.fps.toFixed(1)} fps`; // a run saved before frames were judged
  const lim = r.frameInterval * JITTER;
  const ok = r.medianFrame <= lim && r.p90Frame <= lim && r.dropped === 0;
  return `${fmt(r.medianFrame)} / ${fmt(r.p90Frame)}, ${r.dropped} dropped (${r.fps.toFixed(1)} fps${ok ? '' : ', not met'})`;
}

async function main() {
  const opt = args();
  if (opt.fromJson) {
    // print the tables of an earlier run again (e.g. after changing how they are printed)
    const { meta, results } = JSON.parse(readFileSync(opt.fromJson, 'utf8'));
    report(results, meta);
    return;
  }
  if (!opt.bundles.every((b) => existsSync(b))) {
    console.error(`${opt.bundles.join(' or ')} is missing: run \`npm run build\` first`);
    process.exit(2);
  }
  const started = Date.now();
  const load0 = loadavg()[0];
  const docsDir = opt.docs ?? mkdtempSync(join(tmpdir(), 'pt2e-lens-views-'));
  mkdirSync(docsDir, { recursive: true });
  const docs = documents(opt, docsDir);
  const me = opt.me
    ? meSetup(
        docsDir,
        docs.map((d) => d.name),
      )
    : null;
  const dir = mkdtempSync(join(tmpdir(), 'pt2e-lens-views-pages-'));
  const browser = await launch();
  const results = {};
  const meRuns = new Map(); // ME graph → its runs (a synthetic graph shares the real resnet of its size)
  try {
    for (const doc of docs) {
      // several bundles (--bundle): each repeat measures each in turn, so that they see the same machine load
      const label = (k) => (opt.bundles.length > 1 ? `${doc.name} [${opt.labels[k]}]` : doc.name);
      const urls = opt.bundles.map((b, k) => page(dir, doc, b, k));
      const runs = opt.bundles.map(() => []);
      const g = meGraphOf(doc.name);
      if (!meRuns.has(g)) meRuns.set(g, []);
      // ME at 20k nodes takes minutes per run on a busy machine: once per graph there, else each repeat
      const meWanted = doc.nodes >= 10000 ? 1 : opt.repeats;
      for (let i = 0; i < opt.repeats; i++) {
        for (const [k, url] of urls.entries()) runs[k].push(await measure(browser, url, doc));
        if (meRuns.get(g).length < meWanted) {
          const mr = meMeasure(me, doc.name); // interleaved: both see the same machine load
          if (mr) meRuns.get(g).push(mr);
        }
      }
      for (const k of opt.bundles.keys()) {
        const name = label(k);
        results[name] = medians(runs[k]);
        results[name].runs = runs[k];
        const r = results[name];
        const lt = Math.max(r.ltInteractive, r.ltExpand, r.ltExpandAll, r.ltPan ?? 0);
        console.log(
          `${name} (${doc.nodes} nodes): interactive ${fmt(r.interactive)}, expand ${fmt(r.expand)}, ` +
            `expand all ${fmt(r.expandAll)}, open CPU ${fmt(r.openCpu)}, pan/zoom ${r.fps?.toFixed(1) ?? '—'} fps, longest task ${fmt(lt)}` +
            `${r.errors.length ? `, page errors: ${r.errors.join(' | ')}` : ''}`,
        );
      }
    }
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
    if (!opt.docs) rmSync(docsDir, { recursive: true, force: true });
  }
  for (const [name, r] of Object.entries(results)) {
    const mr = meRuns.get(meGraphOf(name)) ?? [];
    if (mr.length) r.me = mr.some((x) => x.error) ? mr.find((x) => x.error) : { ...medians(mr), runs: mr.length };
  }
  const meta = {
    bundles: opt.labels,
    load: [load0, loadavg()[0]],
    repeats: opt.repeats,
    seconds: ((Date.now() - started) / 1000).toFixed(0),
  };
  report(results, meta);
  if (opt.jsonOut) writeFileSync(opt.jsonOut, JSON.stringify({ meta, results }, null, 1));
}

function report(results, meta) {
  console.log(
    `\nChromium headless (software rendering), ${cpus().length} cpus, load average ${meta.load[0].toFixed(1)} → ${meta.load[1].toFixed(1)}` +
      ` (${meta.load[1] > cpus().length ? 'busy machine: read ratios' : 'quiet'}), medians of ${meta.repeats}, ${meta.seconds} s\n`,
  );
  console.log(
    "| graph | nodes | interactive (≤ 1.5 s) | expand biggest group (≤ 0.25 s) | expand all, drawn (≤ 3 s) | pan/zoom, all visible: median / p90 frame (≤ the display's interval), dropped (none) | longest task (≤ 50 ms to 20k, ≤ 100 ms above) |",
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const [name, r] of Object.entries(results)) {
    const lt = Math.max(r.ltInteractive, r.ltExpand, r.ltExpandAll, r.ltPan ?? 0);
    console.log(
      `| ${name} | ${r.nodes} | ${goalCell(r.interactive, GOALS.interactive)} | ${goalCell(r.expand, GOALS.expand)} | ` +
        `${goalCell(r.expandAll, GOALS.expandAll)} | ${framesCell(r)} | ${goalCell(lt, longTaskGoal(r.nodes))} |`,
    );
  }
  console.log(
    '\nWhere the time goes (medians). sync = render() itself (parse, check, module groups, toolbar); layout = the' +
      ' layout worker; DOM = building the SVG (or indexing and drawing the canvas) after layout; paint = style, layout' +
      ' and paint until two frames later; full draw = a crisp canvas draw of the whole expanded graph (sliced).\n',
  );
  console.log(
    '| graph | interactive: sync / layout / DOM / paint | main-thread CPU during open | expand: layout / DOM / paint | group expanded | expand all: layout / DOM / paint | nodes drawn, renderer (elements) | full draw | frames: median / p90 / worst (count; display interval) | longest task: open / expand / all / pan |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  const parts = (...xs) => xs.map(fmt).join(' / ');
  for (const [name, r] of Object.entries(results)) {
    console.log(
      `| ${name} | ${parts(r.renderSync, r.firstLayout, r.firstDraw, r.firstPaint)} | ${fmt(r.openCpu ?? null)} | ${parts(r.expandLayout, r.expandDraw, r.expandPaint)} | \`${r.expandKey}\` | ` +
        `${parts(r.expandAllLayout, r.expandAllDraw, r.expandAllPaint)} | ${r.drawn}, ${r.renderer ?? 'svg'} (${r.elements}) | ${fmt(r.fullDraw ?? null)} | ${parts(r.medianFrame, r.p90Frame, r.worstFrame)} (${r.framesSeen}; ${fmt(r.frameInterval ?? null)}) | ` +
        `${parts(r.ltInteractive, r.ltExpand, r.ltExpandAll, r.ltPan)} |`,
    );
  }
  console.log(
    `\nlayout ran ${Object.values(results)[0]?.layoutMode === 'worker' ? 'in a Web Worker' : `in mode ${Object.values(results)[0]?.layoutMode}`}`,
  );
  console.log('');
  if (meta.bundles?.length === 2) console.log(ratioTable(results, meta.bundles));
  console.log(anchorTable(results));
}

// Two bundles measured interleaved: each figure of the second ÷ the first (below 1: the second is faster;
// fps: the second's frame rate ÷ the first's, above 1 is better).
function ratioTable(results, [a, b]) {
  const figures = [
    ['interactive', (r) => r.interactive],
    ['main-thread CPU during open', (r) => r.openCpu],
    ['expand', (r) => r.expand],
    ['expand all', (r) => r.expandAll],
    ['fps', (r) => r.fps],
    ['longest task', (r) => Math.max(r.ltInteractive, r.ltExpand, r.ltExpandAll, r.ltPan ?? 0)],
  ];
  const lines = [
    `${b} ÷ ${a} (medians; fps: higher is better, the rest lower)\n`,
    `| graph | ${figures.map(([n]) => n).join(' | ')} |`,
    `|---|${figures.map(() => '---|').join('')}`,
  ];
  const cell = (x, y) => (x && y !== null && y !== undefined ? `${fmt(x)} → ${fmt(y)} (${(y / x).toFixed(2)})` : '—');
  const fpsCell = (x, y) => (x && y ? `${x.toFixed(1)} → ${y.toFixed(1)} (${(y / x).toFixed(2)})` : '—');
  for (const name of Object.keys(results)) {
    if (!name.endsWith(` [${a}]`)) continue;
    const graph = name.slice(0, -a.length - 3);
    const ra = results[name];
    const rb = results[`${graph} [${b}]`];
    if (!rb) continue;
    const cells = figures.map(([n, f]) => (n === 'fps' ? fpsCell(f(ra), f(rb)) : cell(f(ra), f(rb))));
    lines.push(`| ${graph} | ${cells.join(' | ')} |`);
  }
  return `${lines.join('\n')}\n`;
}

await main();
