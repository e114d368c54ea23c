// Issue 15's "wall of findings" heights, re-measured on the 250-block residual model (bench/reading_heights.py):
// how tall the `pl.show(run)` output and a `pl.compare` are in the static report (notebook width 1000 px and the
// side panel's 260 px), how far each scrolls before its graph, and the same for the JupyterLab side panel with
// that Run in the kernel (the panel's scroll height and the distance from its top to its graph or module list).
//   .venv/bin/python bench/reading_heights.py DIR && node bench/reading_heights.mjs DIR [--no-lab]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch } from '../tests/ui/browser.mjs';
import { notebook, startLab } from '../tests/ui/lab_server.mjs';
import { openReady, ROOT, writePage } from '../tests/ui/pages.mjs';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node bench/reading_heights.mjs DIR [--no-lab]  (DIR written by bench/reading_heights.py)');
  process.exit(2);
}

/** px of the output's own height and from its top to its first graph drawn (the canvas area of a pane) */
function measure(s) {
  const root = document.querySelector(s);
  const top = root.getBoundingClientRect().top;
  const graph = [...root.querySelectorAll('.pl-canvas')].find((e) => e.getClientRects().length);
  return {
    height: Math.round(root.getBoundingClientRect().height),
    beforeGraph: graph ? Math.round(graph.getBoundingClientRect().top - top) : null,
  };
}

const browser = await launch();
const rows = [];
for (const name of ['run', 'compare']) {
  const doc = JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8'));
  for (const width of [1000, 260]) {
    const { page } = await openReady(browser, writePage(`heights-${name}-${width}.html`, [doc]), {
      width,
      timeout: 300000,
    });
    const m = await page.evaluate(measure, '.pt2e-lens');
    rows.push({ what: `${name === 'run' ? 'pl.show(run)' : 'pl.compare'} at ${width} px`, ...m });
    await page.close();
  }
}

if (!process.argv.includes('--no-lab')) {
  const cell = `import sys; sys.path.insert(0, ${JSON.stringify(ROOT)})\n${(
    await import('node:child_process')
  ).execFileSync(
    process.env.PT2E_LENS_PYTHON ?? join(ROOT, '.venv/bin/python'),
    ['-c', 'import sys; sys.path.insert(0, "."); from bench.reading_heights import CELL; print(CELL)'],
    { cwd: ROOT, encoding: 'utf8' },
  )}print('CAPTURED', len(run['converted'].graph_module.graph.nodes))`;
  const lab = await startLab({ 'heights.ipynb': notebook([`%load_ext pt2e_lens\n${cell}`]) });
  try {
    const page = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
    page.setDefaultTimeout(600000);
    await page.goto(`${lab.url}/lab/tree/heights.ipynb`);
    await page.waitForFunction(() => window.jupyterapp?.commands?.hasCommand('pt2e-lens:open-panel'));
    await page.waitForFunction(
      () => window.jupyterapp.shell.currentWidget?.sessionContext?.session?.kernel?.status === 'idle',
    );
    await page.evaluate(() => window.jupyterapp.commands.execute('pt2e-lens:open-panel'));
    await page.evaluate(() => window.jupyterapp.commands.execute('notebook:run-all-cells'));
    await page.locator('.jp-OutputArea-output', { hasText: 'CAPTURED' }).waitFor();
    // the newest Run's converted stage: a graph, or the module list a stage too large for one reply gets
    await page
      .locator('#pt2e-lens-panel .pt2e-lens[data-state="ready"] .pl-graph, #pt2e-lens-panel .pl-groups')
      .first()
      .waitFor();
    await page.waitForTimeout(1000);
    const m = await page.evaluate(() => {
      const panel = document.querySelector('#pt2e-lens-panel');
      const scroller = panel; // .jp-Pt2eLensPanel scrolls (overflow: auto)
      const top = scroller.getBoundingClientRect().top - scroller.scrollTop;
      const graph = [...panel.querySelectorAll('.pt2e-lens .pl-canvas, .pl-groups')].find(
        (e) => e.getClientRects().length,
      );
      return {
        height: Math.round(scroller.scrollHeight),
        beforeGraph: graph ? Math.round(graph.getBoundingClientRect().top - top) : null,
        width: Math.round(panel.getBoundingClientRect().width),
      };
    });
    await page.locator('#pt2e-lens-panel').screenshot({ path: join(ROOT, 'tests/ui/artifacts/heights-panel.png') });
    rows.push({ what: `JupyterLab side panel (${m.width} px)`, height: m.height, beforeGraph: m.beforeGraph });
    await page.close();
  } finally {
    lab.stop();
  }
}
await browser.close();
for (const r of rows) console.log(`${r.what}\theight ${r.height} px\tbefore the graph ${r.beforeGraph} px`);
