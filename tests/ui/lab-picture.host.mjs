// The JupyterLab MIME renderer stores a static SVG of what it drew into the output (as JupyterLab's Vega renderer
// stores a PNG): the executed quickstart, without pictures, opened in a real JupyterLab (and Notebook 7, the same
// renderer) and saved; the .ipynb on disk then carries image/svg+xml in every graph output, once, and the
// converted tiny model's picture has exactly torchao's q/dq nodes, and its text/html carries the same picture, so an
// nbconvert page of the saved notebook with JavaScript off shows one per graph.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { launch } from './browser.mjs';
import { executedQuickstart } from './executed.mjs';
import { PYTHON, startLab, startNotebook7 } from './lab_server.mjs';
import { ARTIFACTS, MIME, unpackOutputs } from './pages.mjs';

const SVG = 'image/svg+xml';
let run;
let nbText;

before(() => {
  run = executedQuickstart();
  const nb = JSON.parse(readFileSync(run.notebook, 'utf8'));
  for (const o of nb.cells.flatMap((c) => c.outputs ?? [])) delete o.data?.[SVG]; // none stored by anyone else
  nbText = JSON.stringify(nb);
});

// nbformat writes a multi-line string as a list of lines
const text = (v) => (Array.isArray(v) ? v.join('') : v);
// the graph outputs, each with its View unpacked (`view`: the MIME data is a packed envelope)
const views = (nb) => {
  const outs = nb.cells
    .flatMap((c) => c.outputs ?? [])
    .filter((o) => o.data?.[MIME])
    .map((o) => (o.data[SVG] ? { ...o, data: { ...o.data, [SVG]: text(o.data[SVG]) } } : { ...o }));
  const unpacked = unpackOutputs(outs.map((o) => o.data[MIME]));
  for (const [i, o] of outs.entries()) o.view = unpacked[i];
  return outs;
};

const HOSTS = [
  ['JupyterLab', startLab, '/lab/tree/q.ipynb', 'lab-picture.png'],
  ['Notebook 7', startNotebook7, '/notebooks/q.ipynb', 'notebook7-picture.png'],
];

for (const [host, start, path, png] of HOSTS) {
  let lab;
  let browser;
  const saved = () => JSON.parse(readFileSync(join(lab.root, 'q.ipynb'), 'utf8'));
  describe(`${host}: the renderer keeps its own picture in the output`, () => {
    before(async () => {
      lab = await start({ 'q.ipynb': nbText });
      browser = await launch();
    });
    after(async () => {
      await browser?.close();
      lab?.stop();
    });

    /** The notebook opened in the host, once every pt2e-lens output of it has drawn. */
    async function openDrawn() {
      const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
      await page.goto(`${lab.url}${path}`);
      await page.waitForFunction(
        (n) => document.querySelectorAll('.jp-Pt2eLens .pt2e-lens[data-state="ready"]').length === n,
        views(saved()).length,
        { timeout: 120000 },
      );
      return page;
    }

    it('saved, every graph output has an SVG; the converted one with torchao’s q/dq nodes', async () => {
      const page = await openDrawn();
      const nope = page.getByRole('dialog').getByRole('button', { name: 'No Kernel' });
      if (await nope.count()) await nope.click();
      // each renderer stores its picture after its first draw; wait until the notebook model has them all
      const graphs = views(saved()).filter((o) => o.view.panes.length).length;
      await page.waitForFunction(
        ([svg, graphs]) => {
          const nb = window.jupyterapp.shell.currentWidget?.content?.model;
          if (!nb) return false;
          let k = 0;
          for (const cell of nb.cells) for (const o of cell.outputs?.toJSON?.() ?? []) if (o.data?.[svg]) k++;
          return k === graphs;
        },
        [SVG, graphs],
        { timeout: 60000 },
      );
      await page.evaluate(() => window.jupyterapp.commands.execute('docmanager:save'));
      await page.waitForFunction(() => !window.jupyterapp.shell.currentWidget.context.model.dirty, null, {
        timeout: 30000,
      });
      const outs = views(saved());
      for (const o of outs) {
        const html = [o.data['text/html']].flat().join('');
        if (o.view.panes.length) {
          assert.match(o.data[SVG], /^<svg[\s\S]*<\/svg>$/);
          // the text/html fallback (what nbconvert and GitHub show first) carries the same picture
          assert.ok(html.includes(`<div class="pt2e-lens-picture">${o.data[SVG]}</div>`), o.view.title);
        } else assert.equal(o.data[SVG], undefined); // tables only: no picture
      }
      const converted = outs.find((o) => o.view.title === 'tiny, converted');
      const ids = [...converted.data[SVG].matchAll(/<g[^>]*class="pl-node"[^>]*>/g)]
        .map((m) => m[0])
        .filter((g) => /data-role="(quantize|dequantize)"/.test(g))
        .map((g) => g.match(/data-id="([^"]+)"/)[1])
        .sort();
      assert.deepEqual(ids, run.expected.qdq_nodes);
      const sizes = outs.map((o) => (o.data[SVG] ?? '').length);
      console.log(`# ${host}: stored pictures: ${sizes.filter(Boolean).length}, ${sizes.join(' / ')} characters`);
      await page.screenshot({ path: join(ARTIFACTS, png) });
      await page.close();
    });

    it('the saved notebook, on an nbconvert page with JavaScript off, shows a picture for every graph', async () => {
      // nbconvert (as GitHub) picks text/html before image/svg+xml: the picture must be in text/html
      const html = join(lab.root, 'q.html');
      const code =
        'import sys\nfrom nbconvert import HTMLExporter\nimport nbformat\n' +
        'body, _ = HTMLExporter(template_name="lab").from_notebook_node(nbformat.read(sys.argv[1], as_version=4))\n' +
        'open(sys.argv[2], "w", encoding="utf-8").write(body)';
      execFileSync(PYTHON, ['-c', code, join(lab.root, 'q.ipynb'), html]);
      const context = await browser.newContext({ viewport: { width: 1300, height: 900 }, javaScriptEnabled: false });
      const page = await context.newPage();
      await page.route(/^(?!file:|data:|blob:).*/, (route) => route.abort());
      await page.goto(pathToFileURL(html).href);
      const pictures = await page.locator('.pt2e-lens-root .pt2e-lens-picture > svg').count();
      assert.equal(pictures, views(saved()).filter((o) => o.view.panes.length).length);
      await page.locator('.pt2e-lens-picture').first().scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ARTIFACTS, png.replace('.png', '-noscript.png')) });
      await context.close();
    });

    it('stores once: reopening the saved notebook leaves it unchanged (no re-render loop, no growth)', async () => {
      const before = readFileSync(join(lab.root, 'q.ipynb'), 'utf8');
      const page = await openDrawn();
      // every graph output's renderer has decided about its picture (`data-picture` on its node): none stored again (a second store, or a re-render it set off, would come from that decision)
      const graphs = views(saved()).filter((o) => o.view.panes.length).length;
      await page.waitForFunction((n) => document.querySelectorAll('.jp-Pt2eLens[data-picture]').length >= n, graphs, {
        timeout: 60000,
      });
      const outcomes = await page.$$eval('.jp-Pt2eLens[data-picture]', (es) => es.map((e) => e.dataset.picture));
      assert.deepEqual(
        outcomes.filter((o) => o === 'stored'),
        [],
        'no picture stored again',
      );
      assert.equal(await page.evaluate(() => window.jupyterapp.shell.currentWidget.context.model.dirty), false);
      await page.evaluate(() => window.jupyterapp.commands.execute('docmanager:save'));
      assert.equal(readFileSync(join(lab.root, 'q.ipynb'), 'utf8').length, before.length);
      await page.close();
    });
  });
}
