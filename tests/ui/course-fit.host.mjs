// Issue 26 point 4: every graph the two course chapters draw (each draw / draw_stages / pl.show / pl.compare, as
// their executed notebooks saved them) opened in JupyterLab at a laptop's size with the file browser open, as it
// first shows, light and dark: node labels at ≥ 11 px on screen, no group title over a node, each pane no taller
// than its drawing needs (M00-3's first draw_stages showed 5 px text in panes two-thirds empty). Read off the
// SVG's geometry (course graphs are small: the SVG painter). Screenshots, one per pane:
// tests/ui/artifacts/course-fit-<chapter>-<cell>-<pane>-<theme>.png.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { launch } from './browser.mjs';
import { builtCourse } from './course-build.mjs';
import { dismissKernelDialogs, dismissNewsToast, PYTHON, setLabTheme, startLab } from './lab_server.mjs';
import { ARTIFACTS, MIME, ROOT, unpackOutputs } from './pages.mjs';
import { readable } from './readable.mjs';
import { idle } from './settled.mjs';

const hasLab = spawnSync(PYTHON, ['-c', 'import jupyterlab, jupyter_book'], { encoding: 'utf8' }).status === 0;
const built = existsSync(join(ROOT, 'extension/labextension/package.json'));
const skip = !hasLab ? 'jupyterlab or jupyter-book not installed' : !built ? 'labextension not built' : false;
const CHAPTERS = ['m00_3_decomposition', 'm03_6_partial_composable_order'];
/** on-screen px the issue asks of a node's text */
const LEAST_PX = 11;
/** the least height a pane sized to its drawing keeps (pan-zoom.ts MIN_HEIGHT) */
const MIN_HEIGHT = 180;

let lab;
let browser;
const files = {};
const graphs = {};
before(async () => {
  if (skip) return;
  const dir = builtCourse();
  for (const c of CHAPTERS) {
    files[`${c}.ipynb`] = join(dir, `${c}.ipynb`);
    const nb = JSON.parse(readFileSync(files[`${c}.ipynb`], 'utf8'));
    const datas = nb.cells.flatMap((x) => x.outputs ?? []).flatMap((o) => (o.data?.[MIME] ? [o.data[MIME]] : []));
    graphs[c] = unpackOutputs(datas).filter((v) => v.panes.some((p) => p.snapshot)).length;
  }
  lab = await startLab(files);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  lab?.stop();
});

/** In the page: the notebook's cells that hold a pt2e-lens output, each marked `data-course-cell` for the test. */
function viewCells(mime) {
  const nb = window.jupyterapp.shell.currentWidget.content;
  const out = [];
  nb.widgets.forEach((c, i) => {
    if ((c.model.outputs?.toJSON?.() ?? []).some((o) => o.data?.[mime])) out.push(i);
  });
  return out;
}

/** In the page: cell `i` brought into view (JupyterLab draws only the cells near the view) and marked. */
async function showCell(i) {
  const nb = window.jupyterapp.shell.currentWidget.content;
  await nb.scrollToItem(i, 'start');
  nb.widgets[i].node.dataset.courseCell = String(i);
}

describe('every course graph at its default layout in JupyterLab, file browser open', { skip }, () => {
  for (const chapter of CHAPTERS)
    it(`${chapter}: labels ≥ ${LEAST_PX} px, no title over a node, panes sized to their drawings; light and dark`, async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${lab.url}/lab/tree/${chapter}.ipynb`);
      await dismissKernelDialogs(page);
      await page
        .locator('.jp-Pt2eLens .pt2e-lens[data-state="ready"]')
        .first()
        .waitFor({ state: 'attached', timeout: 180000 });
      await dismissNewsToast(page);
      // JupyterLab's default: the file browser open at its own width beside the notebook
      if (!(await page.locator('#filebrowser').isVisible()))
        await page.evaluate(() => window.jupyterapp.commands.execute('filebrowser:activate'));
      await page.locator('#filebrowser').waitFor({ state: 'visible' });
      const cells = await page.evaluate(viewCells, MIME);
      const seenGraphs = new Set();
      for (const theme of ['JupyterLab Light', 'JupyterLab Dark']) {
        await setLabTheme(page, theme);
        const slug = theme.endsWith('Dark') ? 'dark' : 'light';
        for (const ci of cells) {
          await page.evaluate(showCell, ci);
          const views = page.locator(`[data-course-cell="${ci}"] .jp-Pt2eLens .pt2e-lens`);
          await views.first().waitFor({ state: 'attached' });
          await page.waitForFunction(
            (ci) =>
              [...document.querySelectorAll(`[data-course-cell="${ci}"] .jp-Pt2eLens .pt2e-lens`)].every(
                (r) => r.dataset.state === 'ready',
              ),
            ci,
            { timeout: 120000 },
          );
          for (let v = 0; v < (await views.count()); v++) {
            const root = views.nth(v);
            await idle(page, root);
            const seen = {
              title: await root.evaluate((r) => r.querySelector('.pl-title')?.textContent ?? ''),
              panes: await root.evaluate(readable),
            };
            if (!seen.panes.length) continue; // tables only
            seenGraphs.add(`${ci}.${v}`);
            const where = `${chapter} cell ${ci} «${seen.title}» ${slug}`;
            // pane by pane: a stacked compare is taller than the page, and JupyterLab scrolls its notebook itself
            const panes = root.locator('.pl-pane:has(.pl-canvas svg)');
            for (let j = 0; j < (await panes.count()); j++) {
              await panes.nth(j).evaluate((e) => e.scrollIntoView({ block: 'center' }));
              await panes.nth(j).screenshot({ path: join(ARTIFACTS, `course-fit-${chapter}-${ci}-${j}-${slug}.png`) });
            }
            for (const [j, p] of seen.panes.entries()) {
              assert.equal(p.canvas, false, `${where} pane ${j}: a course graph is drawn as SVG`);
              assert.ok(p.ids.length > 0, `${where} pane ${j}: nodes on screen`);
              assert.ok(p.smallest >= LEAST_PX - 0.01, `${where} pane ${j}: labels at ${p.smallest.toFixed(1)} px`);
              assert.deepEqual(p.over, [], `${where} pane ${j}: no group title over a node`);
            }
            // panes side by side share one height, the tallest drawing's: the fullest pane leaves little blank
            const least = Math.min(...seen.panes.map((p) => p.blank / p.height));
            const short = seen.panes.every((p) => p.height <= MIN_HEIGHT + 1);
            assert.ok(short || least < 1 / 3, `${where}: ${JSON.stringify(seen.panes)}`);
          }
        }
      }
      // every graph the chapter saved was measured
      assert.equal(seenGraphs.size, graphs[chapter], [...seenGraphs].join(' '));
      assert.deepEqual(errors, []);
      await page.close();
    });
});
