// The views in a real JupyterLab, light and dark theme: the extension's stylesheet (package.json "style")
// hands JupyterLab's --jp-* colours to the outputs, and the dark theme switches the palette.
// Screenshots: tests/ui/artifacts/views-jupyterlab-{light,dark}.png (+ the side panel open at its width).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { launch } from './browser.mjs';
import { PYTHON, startLab } from './lab_server.mjs';
import { ARTIFACTS, fixture, MIME, ROOT } from './pages.mjs';
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
  lab = await startLab({ 'themes.ipynb': notebook(outputs), 'stages.ipynb': notebook([run]) });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  lab?.stop();
});

describe('views in JupyterLab themes', { skip }, () => {
  it('outputs take JupyterLab colours in the light and the dark theme', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(`${lab.url}/lab/tree/themes.ipynb`);
    await page.waitForFunction(
      () => document.querySelectorAll('.jp-Pt2eLens .pt2e-lens[data-state="ready"]').length === 2,
      null,
      { timeout: 90000 },
    );
    const nope = page.getByRole('dialog').getByRole('button', { name: 'No Kernel' });
    if (await nope.count()) await nope.click();
    const seen = {};
    for (const theme of ['JupyterLab Light', 'JupyterLab Dark']) {
      await page.evaluate((t) => window.jupyterapp.commands.execute('apputils:change-theme', { theme: t }), theme);
      await page.waitForFunction((t) => document.body.dataset.jpThemeName === t, theme, { timeout: 30000 });
      await page.waitForTimeout(500);
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
      await page.waitForTimeout(400);
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
    await page.goto(`${lab.url}/lab/tree/stages.ipynb`);
    // the workspace may restore themes.ipynb beside it: the Run is the output with stage tabs
    const root = page
      .locator('.jp-Pt2eLens .pt2e-lens[data-state="ready"]')
      .filter({ has: page.locator('.pl-stage-tabs') });
    await root.waitFor({ timeout: 90000 });
    // one kernel dialog per restored notebook
    const nope = page.getByRole('dialog').getByRole('button', { name: 'No Kernel' });
    for (let k = 0; k < 10 && (await page.getByRole('dialog').count()); k++) {
      if (await nope.count()) await nope.first().click();
      await page.waitForTimeout(300);
    }
    for (const theme of ['JupyterLab Light', 'JupyterLab Dark']) {
      await page.evaluate((t) => window.jupyterapp.commands.execute('apputils:change-theme', { theme: t }), theme);
      await page.waitForFunction((t) => document.body.dataset.jpThemeName === t, theme, { timeout: 30000 });
      const slug = theme.endsWith('Dark') ? 'dark' : 'light';
      await checkStageTabs(page, root, (step) =>
        page.screenshot({ path: join(ARTIFACTS, `views-jupyterlab-stages-${step}-${slug}.png`) }),
      );
    }
    await page.close();
  });
});
