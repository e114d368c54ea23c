// Issue 15 at the side panel's width in JupyterLab notebook outputs drawn from a real kernel (after a build and
// `bash scripts/setup.sh`: `node --test tests/ui/narrow.lab.mjs`): the tiny model wrapped in a module whose
// attribute and class names have no `_` or `.` to break at, captured with a ConvQuantizer subclass named
// `ConvQuantizerComposableX86InductorQuantizerLinearQuantizer`, in zh-TW. At 260 and 280 px no text of the details
// drawer runs past its edge, for compute nodes, an observer and a weight (drawer-fit.mjs); a compare stacks its
// panes at 280 px, moves and selects them together, leaves the narrow stacking at the notebook's width (where the
// wide rule may still stack this one, its converted graph whole only at full width) and stacks again at 280 px
// (compare-stacking.mjs); in the side panel at its default width, the decomposition tab's compare stacks and its
// panes move together. Light and dark. Screenshots: tests/ui/artifacts/narrow-lab-*.png.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { checkFitInside, checkStacking, checkSync, stacked } from './compare-stacking.mjs';
import { checkDrawerFits } from './drawer-fit.mjs';
import { dismissNewsToast, notebook, setLabTheme, setOutputsWidth } from './lab_server.mjs';
import { labPage } from './lab-page.mjs';
import { ARTIFACTS } from './pages.mjs';
import { pickStage } from './panel-stage.mjs';
import { nodePicker } from './pick-node.mjs';
import { idle } from './settled.mjs';

const CAPTURE = `import json, torch, torch.nn as nn, pt2e_lens as pl
pl.quiet()
pl.set_locale('zh-TW')
from pt2e_lens.examples import get_model, example_inputs, calibration_batches, ConvQuantizer
class ConvQuantizerComposableX86InductorQuantizerLinearQuantizer(ConvQuantizer):
    pass
class Convquantizerwrappermodulewithaverylongnameandnobreaks(nn.Module):
    def __init__(self):
        super().__init__()
        self.convquantizerwrappedsubmodulewithoutanybreakpoints = get_model('tiny')
    def forward(self, x):
        return self.convquantizerwrappedsubmodulewithoutanybreakpoints(x)
model = Convquantizerwrappermodulewithaverylongnameandnobreaks().eval()
quantizer = ConvQuantizerComposableX86InductorQuantizerLinearQuantizer()
run = pl.capture(model, example_inputs(), quantizer, calibration=calibration_batches(1))
prep, conv = run['prepared'], run['converted']
# a Run with a decomposed stage: the side panel's "exported → decomposed" tab is a compare
drun = pl.Run(model, example_inputs()).decompose('core')
weights = [n['id'] for n in prep.snapshot.nodes if n['role'] == 'param']
print('IDS', json.dumps(['conv2d', 'add', 'linear', 'activation_post_process_0', weights[0]]))`;

let close;
let page;
let ids;
const errors = [];
before(async () => {
  ({ page, close } = await labPage(
    { 'n.ipynb': notebook([CAPTURE, 'pl.show(prep)', 'pl.compare(prep, conv)']) },
    { open: 'n.ipynb', errors },
  ));
  await page.evaluate(() => window.jupyterapp.commands.execute('pt2e-lens:open-panel'));
  await page.evaluate(() => window.jupyterapp.commands.execute('notebook:run-all-cells'));
  const out = page.locator('.jp-OutputArea-output', { hasText: /^IDS / }).first();
  await out.waitFor({ timeout: 180000 });
  ids = JSON.parse((await out.textContent()).trim().slice(4));
  await page.waitForFunction(
    () => document.querySelectorAll('.jp-Pt2eLens .pt2e-lens[data-state="ready"]').length === 2,
    null,
    {
      timeout: 120000,
    },
  );
  await dismissNewsToast(page);
});
after(() => close?.());

const hostOf = (n) => page.locator('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Pt2eLens').nth(n);
const viewOf = (n) => hostOf(n).locator('.pt2e-lens[data-state="ready"]');
const { pick } = nodePicker(
  () => page,
  () => viewOf(0),
);

const setWidth = (width) => setOutputsWidth(page, width);

for (const [theme, slug] of [
  ['JupyterLab Light', 'light'],
  ['JupyterLab Dark', 'dark'],
]) {
  describe(`notebook outputs from the kernel, ${slug}`, () => {
    before(async () => {
      await setLabTheme(page, theme);
    });

    for (const width of [260, 280]) {
      it(`${width} px: no drawer text past the drawer's edge (zh-TW, names with no break point)`, async () => {
        await setWidth(width);
        const out = viewOf(0);
        await out.scrollIntoViewIfNeeded();
        assert.equal(await out.getAttribute('lang'), 'zh-TW');
        for (const id of ids) {
          await pick(id);
          await checkDrawerFits(out);
          if (id === 'conv2d')
            await hostOf(0).screenshot({ path: join(ARTIFACTS, `narrow-lab-drawer-${slug}-${width}.png`) });
        }
        await out.locator('.pl-drawer-close').click();
        await out.locator('.pl-toolbar input[type="search"]').fill('');
      });
    }

    it('280 px: the compare stacks, its panes move together; out of the narrow stacking when wide; stacked again', async () => {
      await setWidth(280);
      const out = viewOf(1);
      await out.scrollIntoViewIfNeeded();
      await checkStacking(page, out, {
        orWhole: true,
        toWide: () => setWidth(null),
        toNarrow: async () => {
          await setWidth(280);
          await out.scrollIntoViewIfNeeded();
        },
        shot: (step) => hostOf(1).screenshot({ path: join(ARTIFACTS, `narrow-lab-compare-${step}-${slug}.png`) }),
      });
    });
  });
}

describe('the side panel at its default width', () => {
  it('a compare (the decomposition tab: exported → decomposed) stacks its panes, which move together', async () => {
    await setLabTheme(page, 'JupyterLab Light');
    const panel = page.locator('#pt2e-lens-panel');
    await panel.locator('select.pl-model-picker').selectOption('drun');
    await pickStage(panel, 'exported → decomposed'); // its tab, or the head line's menu (issue 26.4)
    const view = panel.locator('.pl-panel-view .pt2e-lens[data-state="ready"]');
    await view.locator('.pl-pane[data-pane="1"]').waitFor();
    await idle(page, view); // the first layout, Fit and paint of both panes
    const w = await panel.evaluate((e) => e.getBoundingClientRect().width);
    assert.ok(w < 400, `the panel at its default width (${w} px)`);
    await stacked(view);
    await checkFitInside(view);
    await panel.screenshot({ path: join(ARTIFACTS, 'narrow-lab-panel-compare-light.png') });
    await checkSync(page, view, 'x');
  });
});

describe('the notebook outputs', () => {
  it('ran without page errors', () => {
    assert.deepEqual(errors, []);
  });
});
