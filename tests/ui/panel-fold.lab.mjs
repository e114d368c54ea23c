// Issue 26.4's panel and outputs, in a real JupyterLab at the side panel's default width, light and dark (run with
// `npm run test:lab`, after a build): the panel's model picker, stage tabs and summary fold into one line so the graph
// starts within 120 px of the panel's top, and the pane's toolbar is one compact row (icon buttons named for screen
// readers, reached by Tab; the status on a line under the drawing) so the drawing itself starts within 120 px too;
// the stages the line has no room for are in its menu, named in full; a
// clicked node's details open inside the window (in the panel and in a notebook output scrolled so the canvas runs
// past the window's bottom); a wide table in the panel stacks its rows, no column cut. Screenshots:
// tests/ui/artifacts/panel-fold-*.png.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { dismissNewsToast, notebook, setLabTheme } from './lab_server.mjs';
import { labPage } from './lab-page.mjs';
import { ARTIFACTS } from './pages.mjs';
import { nodePicker } from './pick-node.mjs';
import { idle, resized, settled } from './settled.mjs';

const CAPTURE = `import torch, pt2e_lens as pl
pl.quiet()
from pt2e_lens.examples import get_model, example_inputs, calibration_batches, ConvQuantizer
run = pl.capture(get_model('tiny').eval(), example_inputs(), ConvQuantizer(), calibration=calibration_batches(1))
print('STAGES', ' '.join(run.stages))`;
const SHOW = 'pl.show(run)';

let close;
let page;
let stages;
const errors = [];
before(async () => {
  ({ page, close } = await labPage({ 'f.ipynb': notebook([CAPTURE, SHOW]) }, { open: 'f.ipynb', errors }));
  await page.evaluate(() => window.jupyterapp.commands.execute('pt2e-lens:open-panel'));
  await page.evaluate(() => window.jupyterapp.commands.execute('notebook:run-all-cells'));
  const out = page.locator('.jp-OutputArea-output', { hasText: /^STAGES / }).first();
  await out.waitFor({ timeout: 180000 });
  stages = (await out.textContent()).trim().split(/\s+/).slice(1);
  await dismissNewsToast(page);
});
after(() => close?.());

const panel = () => page.locator('#pt2e-lens-panel');
const view = () => panel().locator('.pl-panel-view .pt2e-lens[data-state="ready"]');
const output = () => page.locator('.jp-OutputArea-output .pt2e-lens[data-state="ready"]').first();
const rect = (loc) => loc.evaluate((e) => e.getBoundingClientRect().toJSON());
const shot = (name) => panel().screenshot({ path: join(ARTIFACTS, `panel-fold-${name}.png`) });

/** The window's rectangle, as the page sees it. */
const windowRect = () => page.evaluate(() => ({ top: 0, left: 0, bottom: innerHeight, right: innerWidth }));

/** `r` lies inside `w` (a pixel of rounding allowed). */
function inside(r, w, what) {
  const ok = r.top >= w.top - 1 && r.bottom <= w.bottom + 1 && r.left >= w.left - 1 && r.right <= w.right + 1;
  assert.ok(ok, `${what} ${JSON.stringify(r)} inside ${JSON.stringify(w)}`);
}

for (const [theme, slug] of [
  ['JupyterLab Light', 'light'],
  ['JupyterLab Dark', 'dark'],
]) {
  describe(`the panel at its default width (${slug})`, () => {
    before(async () => {
      await setLabTheme(page, theme);
      await panel().locator('select.pl-model-picker').waitFor();
      await view().waitFor();
      await idle(page, view());
    });

    it('picker, stage tabs and summary are one line; the graph starts within 120 px of the panel top', async () => {
      const p = await rect(panel());
      assert.ok(p.width > 150 && p.width < 400, `default width ${p.width}`);
      const line = await rect(panel().locator('.pl-panel-line'));
      const parts = await panel()
        .locator('.pl-panel-line > :is(select, .pl-panel-stages, .pl-current)')
        .evaluateAll((es) => es.map((e) => e.getBoundingClientRect().toJSON()));
      assert.ok(parts.length >= 3, `${parts.length} parts on the line`);
      // one line: every part within the line's height, and the line within the panel's width
      for (const r of parts) assert.ok(r.top >= line.top - 1 && r.bottom <= line.bottom + 1, JSON.stringify(r));
      assert.ok(line.height < 40 && line.right <= p.right + 0.5, JSON.stringify({ line, p }));
      const over = await panel()
        .locator('.pl-panel-line')
        .evaluate((l) => l.scrollWidth - l.clientWidth);
      assert.ok(over <= 0, `the line's content runs ${over} px past its end`);
      // the graph: its pane (a one-row toolbar, then the drawing); the view's title is the line's choice, said to
      // screen readers. The drawing itself (the svg or canvas the graph is painted on) starts within 120 px.
      const pane = await rect(view().locator('.pl-pane').first());
      const drawing = await rect(view().locator('.pl-canvas > :is(svg, canvas)').first());
      await shot(`default-${slug}`);
      const tops = await panel().evaluate((p) =>
        [
          ...p.querySelectorAll(
            '.pl-panel-line, .pl-main-tabs, .pl-pane, .pl-graph-bar, .pl-canvas, .pl-panel-bench, .pl-title, .pl-tabs',
          ),
        ]
          .map(
            (e) =>
              `${e.className.baseVal ?? e.className}:${Math.round(e.getBoundingClientRect().top - p.getBoundingClientRect().top)}+${Math.round(e.getBoundingClientRect().height)}`,
          )
          .join(' | '),
      );
      console.log(`# ${slug} tops: ${tops}`);
      assert.ok(drawing.height > 100, `the drawing is on show: ${JSON.stringify(drawing)}`);
      assert.ok(drawing.top - p.top <= 120, `the drawing starts ${drawing.top - p.top} px below the panel top`);
      // the toolbar is one row, every control of it on show and inside the panel
      const bar = view().locator('.pl-graph-bar').first();
      const b = await rect(bar);
      assert.ok(b.height < 40, `the toolbar is one row: ${b.height} px`);
      const controls = await bar
        .locator(':scope > :is(input, button), :scope > .pl-map-slot > button, :scope > .pl-export > button')
        .evaluateAll((es) =>
          es.map((e) => [e.getAttribute('aria-label') ?? e.textContent, e.getBoundingClientRect().toJSON()]),
        );
      assert.ok(controls.length >= 6, `${controls.length} controls`);
      for (const [name, r] of controls) {
        assert.ok(
          r.width > 10 && r.top >= b.top - 1 && r.bottom <= b.bottom + 1,
          `${name} on the row: ${JSON.stringify(r)}`,
        );
        assert.ok(r.right <= p.right + 0.5, `${name} inside the panel: ${JSON.stringify(r)}`);
      }
      // by keyboard: from the search field, Tab reaches the buttons in their order
      await bar.locator('input[type="search"]').focus();
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Fit');
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Collapse all');
      await page.evaluate(() => document.activeElement?.blur());
      // the status, which the row has no room for, is the line under the drawing
      const foot = view().locator('.pl-status-foot').first();
      assert.equal(await foot.isVisible(), true);
      assert.match(await foot.textContent(), /\d+ nodes · showing/);
      assert.ok((await rect(foot)).top >= drawing.bottom - 1, 'the status under the drawing');
      console.log(
        `# ${slug}: panel ${p.width} px wide; graph pane at +${pane.top - p.top} px, drawing at +${drawing.top - p.top} px`,
      );
      await shot(`default-${slug}`);
    });

    it('every stage is reachable: on the line or in its menu, named in full', async () => {
      const shown = await panel()
        .locator('.pl-panel-stages .pl-tab:visible')
        .evaluateAll((bs) => bs.map((b) => b.dataset.stage));
      const menu = panel().locator('select.pl-stage-menu');
      const listed = (await menu.count()) ? await menu.locator('option[value]:not([value=""])').allTextContents() : [];
      assert.deepEqual([...new Set([...shown, ...listed])].sort(), [...stages].sort());
      // the ones in the menu are picked from it (the tabs' own click, kept for the ones shown)
      const target = listed.find((s) => s !== 'converted') ?? stages[0];
      if (listed.includes(target)) await menu.selectOption(target);
      else await panel().locator(`.pl-panel-stages .pl-tab[data-stage="${target}"]`).click();
      await view()
        .locator('.pl-title', { hasText: `run · ${target}` })
        .waitFor();
      await idle(page, view());
      await shot(`stage-${target}-${slug}`);
      const back = panel().locator('.pl-panel-stages .pl-tab[data-stage="converted"]');
      if (await back.isVisible()) await back.click();
      else await menu.selectOption('converted');
      await view().locator('.pl-title', { hasText: 'run · converted' }).waitFor();
      await idle(page, view());
    });

    it("a clicked node's details open inside the window, the node not under them", async () => {
      const { pick } = nodePicker(() => page, view);
      await pick('linear');
      const d = await rect(view().locator('.pl-drawer:not([hidden])'));
      inside(d, await windowRect(), 'the drawer');
      inside(d, await rect(panel()), 'the drawer');
      const b = await rect(view().locator('.pl-node[data-id="linear"] rect.pl-box'));
      const cy = (b.top + b.bottom) / 2;
      assert.ok(cy < d.top || cy > d.bottom, `linear (${cy}) not under the drawer ${JSON.stringify(d)}`);
      await shot(`drawer-${slug}`);
      await view().locator('.pl-drawer-close').click();
    });

    it("a wide table (the q/dq) has no column cut at the panel's edge: its rows stacked", async () => {
      await view()
        .locator('.pl-main-tabs .pl-tab', { hasText: /^Q\/DQ$/ })
        .click();
      const wrap = view().locator('.pl-table-wrap[data-table="qdq"]');
      await wrap.locator('tbody tr').first().waitFor();
      await page.waitForFunction(() =>
        document.querySelector('#pt2e-lens-panel .pl-table-wrap[data-table="qdq"].pl-table-stacked'),
      );
      const cut = await wrap.evaluate((w) => {
        const s = w.querySelector('.pl-table-scroll');
        const right = s.getBoundingClientRect().left + s.clientLeft + s.clientWidth;
        const past = [...w.querySelectorAll('td, th')].filter((c) => c.getBoundingClientRect().right > right + 0.5);
        return { scroll: s.scrollWidth - s.clientWidth, past: past.map((c) => c.textContent.slice(0, 30)) };
      });
      assert.deepEqual(cut, { scroll: 0, past: [] });
      await shot(`table-${slug}`);
      await view()
        .locator('.pl-main-tabs .pl-tab', { hasText: /^Graph$/ })
        .click();
      await idle(page, view());
    });

    it("a notebook output's canvas past the window's bottom: the details open in the part on show", async (t) => {
      t.after(() => resized(page, output(), () => page.setViewportSize({ width: 1400, height: 1000 })));
      // a shorter window, the output scrolled so its canvas runs past the notebook's bottom by a third of its height
      await resized(page, output(), () => page.setViewportSize({ width: 1400, height: 700 }));
      await output().scrollIntoViewIfNeeded();
      const scroller = page.locator('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-WindowedPanel-outer');
      const c0 = await rect(output().locator('.pl-canvas'));
      const s0 = await rect(scroller);
      await scroller.evaluate(
        (s, by) => {
          s.scrollTop += by;
        },
        c0.top - (s0.bottom - (c0.height * 2) / 3),
      );
      const c = await rect(output().locator('.pl-canvas'));
      const sc = await rect(scroller);
      const w = await windowRect();
      assert.ok(c.bottom > sc.bottom + c.height / 4, `the canvas runs past the bottom: ${JSON.stringify({ c, sc })}`);
      const shown = { top: Math.max(c.top, sc.top), bottom: Math.min(c.bottom, sc.bottom, w.bottom) };
      // a node in the part of the canvas on show
      const id = await output()
        .locator('.pl-node')
        .evaluateAll(
          (ns, s) =>
            ns
              .map((n) => [n.dataset.id, n.querySelector('rect.pl-box').getBoundingClientRect()])
              .find(
                ([, r]) => r.top > s.top + 4 && r.bottom < s.bottom - 4 && r.left > s.left + 4 && r.right < s.right - 4,
              )?.[0],
          { ...shown, left: c.left, right: c.right },
        );
      assert.ok(id, 'a node is on show');
      // clicked where it is (no search: that would centre it)
      await settled(page, output(), () => output().locator(`.pl-node[data-id="${id}"]`).click());
      await output().locator('.pl-drawer:not([hidden])').waitFor();
      const d = await rect(output().locator('.pl-drawer:not([hidden])'));
      inside(d, { ...w, top: Math.max(sc.top, w.top), bottom: Math.min(sc.bottom, w.bottom) }, 'the drawer');
      await page.screenshot({ path: join(ARTIFACTS, `panel-fold-output-drawer-${slug}.png`) });
      await output().locator('.pl-drawer-close').click();
    });
  });
}

describe('the panel', () => {
  it('ran without page errors', () => {
    assert.deepEqual(errors, []);
  });
});
