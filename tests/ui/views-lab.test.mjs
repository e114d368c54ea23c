// The views in a real JupyterLab, light and dark theme: the extension's stylesheet (package.json "style")
// hands JupyterLab's --jp-* colours to the outputs, and the dark theme switches the palette.
// Screenshots: tests/ui/artifacts/views-jupyterlab-{light,dark}.png (+ the side panel open at its width).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { launch } from './browser.mjs';
import { checkFitInside } from './compare-stacking.mjs';
import { checkDrawerInView } from './drawer-view.mjs';
import { checkHeatRange } from './heat-range.mjs';
import { answerKernelDialogs, PYTHON, setLabTheme, startLab } from './lab_server.mjs';
import { ARTIFACTS, fixture, MIME, ROOT } from './pages.mjs';
import { settled } from './settled.mjs';
import { checkStageTabs } from './stage-tabs.mjs';

const hasLab = spawnSync(PYTHON, ['-c', 'import jupyterlab'], { encoding: 'utf8' }).status === 0;
const built = existsSync(join(ROOT, 'extension/labextension/package.json'));
const skip = !hasLab ? 'jupyterlab not installed' : !built ? 'labextension not built (npm run build)' : false;

let lab;
let browser;
before(async () => {
  if (skip) return;
  const outputs = ['real_compare.json', 'real_large.json'].map((f) => ({
    output_type: 'display_data',
    metadata: {},
    data: { [MIME]: fixture(f), 'text/plain': ['pt2e-lens view'] },
  }));
  const notebook = (outs) =>
    JSON.stringify({
      nbformat: 4,
      nbformat_minor: 5,
      metadata: {},
      cells: [
        { cell_type: 'code', id: 'c1', execution_count: null, metadata: {}, source: ['# outputs'], outputs: outs },
      ],
    });
  const run = { ...outputs[0], data: { [MIME]: fixture('run.json'), 'text/plain': ['pt2e-lens run'] } };
  // issue 15's reading points on saved outputs: findings (1), compare (3), search (4), heat (5), drawer (7)
  const out = (doc) => ({ ...outputs[0], data: { [MIME]: doc, 'text/plain': ['pt2e-lens view'] } });
  const reading = ['conv_prepared.json', 'real_compare.json', 'real_accuracy.json'].map((f) => out(fixture(f)));
  const snap = reading[0].data[MIME].panes[0].snapshot;
  for (const n of snap.nodes)
    snap.findings.push({ kind: 'fp32-island', message: `${n.id} stays fp32 between quantized ops`, nodes: [n.id] });
  lab = await startLab({
    'themes.ipynb': notebook(outputs),
    'stages.ipynb': notebook([run]),
    'reading.ipynb': notebook(reading),
  });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  lab?.stop();
});

describe('views in JupyterLab themes', { skip }, () => {
  it('outputs take JupyterLab colours in the light and the dark theme', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await answerKernelDialogs(page); // one dialog per restored notebook, whenever it comes
    await page.goto(`${lab.url}/lab/tree/themes.ipynb`);
    await page.waitForFunction(
      () => document.querySelectorAll('.jp-Pt2eLens .pt2e-lens[data-state="ready"]').length === 2,
      null,
      { timeout: 90000 },
    );
    const seen = {};
    for (const theme of ['JupyterLab Light', 'JupyterLab Dark']) {
      // the page wears the theme (setLabTheme); the colours read next are computed as they are read
      await setLabTheme(page, theme);
      seen[theme] = await page.evaluate(() => {
        const root = document.querySelector('.jp-Pt2eLens .pt2e-lens');
        const jp = getComputedStyle(document.body).getPropertyValue('--jp-layout-color0').trim();
        const probe = document.createElement('div');
        probe.style.background = jp;
        document.body.appendChild(probe);
        const want = getComputedStyle(probe).backgroundColor;
        probe.remove();
        return {
          bg: getComputedStyle(root).backgroundColor,
          want,
          node: getComputedStyle(root.querySelector('.pl-node rect.pl-box')).fill,
          btn: getComputedStyle(root.querySelector('button.pl-btn')).color,
        };
      });
      assert.equal(seen[theme].bg, seen[theme].want, `${theme}: output background is --jp-layout-color0`);
      const slug = theme.endsWith('Dark') ? 'dark' : 'light';
      await page.screenshot({ path: join(ARTIFACTS, `views-jupyterlab-${slug}.png`) });
      // the side panel at its default width, in this theme
      await page.evaluate(() => window.jupyterapp.shell.activateById('pt2e-lens-panel'));
      await page.locator('#pt2e-lens-panel').waitFor({ state: 'visible' });
      await page.screenshot({ path: join(ARTIFACTS, `views-jupyterlab-panel-${slug}.png`) });
      await page.evaluate(() => window.jupyterapp.shell.collapseRight());
    }
    assert.notEqual(seen['JupyterLab Light'].bg, seen['JupyterLab Dark'].bg);
    assert.notEqual(seen['JupyterLab Light'].node, seen['JupyterLab Dark'].node);
    assert.notEqual(seen['JupyterLab Light'].btn, seen['JupyterLab Dark'].btn);
    await page.close();
  });

  it('stage tabs of a Run output: the selection follows to its counterpart or clears (light, dark)', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await answerKernelDialogs(page); // one dialog per restored notebook, whenever it comes
    await page.goto(`${lab.url}/lab/tree/stages.ipynb`);
    // the workspace may restore themes.ipynb beside it: the Run is the output with stage tabs
    const root = page
      .locator('.jp-Pt2eLens .pt2e-lens[data-state="ready"]')
      .filter({ has: page.locator('.pl-stage-tabs') });
    await root.waitFor({ timeout: 90000 });
    for (const theme of ['JupyterLab Light', 'JupyterLab Dark']) {
      await setLabTheme(page, theme);
      const slug = theme.endsWith('Dark') ? 'dark' : 'light';
      await checkStageTabs(page, root, (step) =>
        page.screenshot({ path: join(ARTIFACTS, `views-jupyterlab-stages-${step}-${slug}.png`) }),
      );
    }
    await page.close();
  });

  it('zoomed out, group titles stay 11 px on screen on their plates (semantic zoom; light, dark)', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await answerKernelDialogs(page); // one dialog per restored notebook, whenever it comes
    await page.goto(`${lab.url}/lab/tree/themes.ipynb`);
    // the second output of the notebook on show (real_large.json), in document order: outputs get ready in any order
    const root = page
      .locator('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Pt2eLens')
      .nth(1)
      .locator('.pt2e-lens[data-state="ready"]');
    await root.waitFor({ timeout: 90000 });
    for (const theme of ['JupyterLab Light', 'JupyterLab Dark']) {
      await setLabTheme(page, theme);
      const pane = root.locator('.pl-graph');
      await settled(page, pane, () => root.locator('button.pl-btn', { hasText: /^Fit$/ }).click());
      await root.scrollIntoViewIfNeeded();
      const box = await root.locator('.pl-canvas').boundingBox();
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      for (let i = 0; i < 6; i++) {
        await page.keyboard.down('Control');
        await settled(page, pane, () => page.mouse.wheel(0, 300));
        await page.keyboard.up('Control');
      }
      const got = await root.evaluate((r) => {
        const k = Number(/scale\(([\d.e-]+)\)/.exec(r.querySelector('.pl-viewport').getAttribute('transform'))[1]);
        const px = [...r.querySelectorAll('.pl-zlabel text')].map((t) =>
          Number.parseFloat(getComputedStyle(t).fontSize),
        );
        return { k, onScreen: px.map((p) => p * k) };
      });
      assert.ok(got.k < 0.5, `zoomed out (scale ${got.k})`);
      assert.ok(got.onScreen.length > 0, 'group titles drawn zoomed out');
      for (const p of got.onScreen) assert.ok(Math.abs(p - 11) < 0.05, `11 px on screen, got ${p}`);
      const slug = theme.endsWith('Dark') ? 'dark' : 'light';
      await root.screenshot({ path: join(ARTIFACTS, `views-jupyterlab-zoomed-out-${slug}.png`) });
    }
    await page.close();
  });

  it("issue 15's reading points in JupyterLab outputs: findings, compare Fit, search, heat, drawer (light, dark)", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await answerKernelDialogs(page); // one dialog per restored notebook, whenever it comes
    await page.goto(`${lab.url}/lab/tree/reading.ipynb`);
    const outs = page.locator('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Pt2eLens .pt2e-lens[data-state="ready"]');
    await page.waitForFunction(
      () =>
        document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Pt2eLens .pt2e-lens[data-state="ready"]')
          .length === 3,
      null,
      { timeout: 90000 },
    );
    const [findings, compare, heat] = [outs.nth(0), outs.nth(1), outs.nth(2)];
    for (const theme of ['JupyterLab Light', 'JupyterLab Dark']) {
      await setLabTheme(page, theme);
      const slug = theme.endsWith('Dark') ? 'dark' : 'light';
      // 1: one line per rule, below the graph
      const f = await findings.evaluate((r) => {
        const c = r.querySelector('.pl-canvas').getBoundingClientRect();
        return [...r.querySelectorAll('.pl-findings > details')].map((d) => {
          const b = d.getBoundingClientRect();
          return { below: b.top >= c.bottom, h: b.height };
        });
      });
      assert.equal(f.length, 2, 'one line per rule');
      for (const l of f) assert.ok(l.below && l.h < 30, JSON.stringify(l));
      // 4: search by role, Enter selects and centres the first hit
      await findings.scrollIntoViewIfNeeded();
      await findings.locator('input[type="search"]').fill('role:observer');
      await settled(page, findings, () => findings.locator('input[type="search"]').press('Enter'));
      const hit = findings.locator('.pl-node.pl-selected[data-role="observer"]');
      await hit.waitFor();
      // 7: the drawer shows it where the user looks: over the canvas's part on show, a third of the pane at most
      // (or, in a pane under 720 px, across the canvas, clear of the node)
      await checkDrawerInView(findings);
      await findings.screenshot({ path: join(ARTIFACTS, `views-jupyterlab-reading-findings-${slug}.png`) });
      await findings.locator('.pl-drawer-close').click();
      // 3: after Fit every box of both compare panes is inside its pane, or (a drawing wider than its pane at
      // readable labels, issue 26 point 4) an edge hint says what lies past the edge
      await compare.scrollIntoViewIfNeeded();
      await compare.screenshot({ path: join(ARTIFACTS, `views-jupyterlab-reading-compare-${slug}.png`) });
      await checkFitInside(compare);
      assert.equal(await compare.locator('.pl-pane').count(), 2);
      // 5: the overlay is each node's fill on the theme's scale: several distinct fills, a legend with its range
      await heat.scrollIntoViewIfNeeded();
      const fills = await heat.evaluate(
        (r) => new Set([...r.querySelectorAll('.pl-node rect.pl-box')].map((e) => getComputedStyle(e).fill)).size,
      );
      assert.ok(fills >= 3, `heat fills: ${fills} distinct`);
      assert.match(await heat.locator('.pl-legend').textContent(), /SQNR/);
      await checkHeatRange(heat);
      await heat.screenshot({ path: join(ARTIFACTS, `views-jupyterlab-reading-heat-${slug}.png`) });
    }
    await page.close();
  });
});
