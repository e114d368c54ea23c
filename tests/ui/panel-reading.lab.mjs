// Issue 15's reading points in the PT2E side panel of a real JupyterLab, at the panel's default width, light and dark
// (run with `npm run test:lab`, after a build). One kernel captures the tiny model with ConvQuantizer (its add and
// linear stay fp32: two fp32 islands) twice, in English and in zh-TW, and exports it with a dynamic batch. Checked
// in the panel: findings one line per rule below the graph, an entry selecting and centring its node (1); the
// drawer's why-not lines for the fp32 add and linear, word for word what the kernel computed, and for an observer
// which annotation requested it, as pl.why_not says (2); search Enter
// stepping through the hits, centring each (4); Expand all, the minimap folded into the toolbar, the toolbar in the
// pane's width (6); the drawer across the canvas in view, its labels on one line in zh-TW (7); torch.export's
// _guards_fn not drawn, the selection following to its counterpart in another stage tab (else cleared, no stale drawer), a dynamic batch named `batch` on
// the nodes, PNG/SVG export as downloads (9); the marks as drawn in the panel tell apart (8, drawn-colours.mjs). Heat (5) has no place here: the panel draws Runs, ExportedPrograms and
// GraphModules, never an overlay. Screenshots: tests/ui/artifacts/panel-reading-*.png.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { closedTitles } from './closed-titles.mjs';
import { checkDrawerInView } from './drawer-view.mjs';
import { groupFills, judgeColours, markStroke, roleStrokes, searchStrokes } from './drawn-colours.mjs';
import { checkFindingLines } from './finding-lines.mjs';
import { dismissNewsToast, notebook, setLabTheme } from './lab_server.mjs';
import { labPage } from './lab-page.mjs';
import { overflowing } from './overflow.mjs';
import { ARTIFACTS, ROOT } from './pages.mjs';
import { pickStage } from './panel-stage.mjs';
import { nodePicker } from './pick-node.mjs';
import { readable } from './readable.mjs';
import { afterFrame, idle, paneOf, settled } from './settled.mjs';

// what the panel must show, from the kernel's own snapshots: the finding kinds and nodes, the why lines, the guard
const CAPTURE = `import json, torch, pt2e_lens as pl
pl.quiet()
from pt2e_lens.examples import get_model, example_inputs, calibration_batches, ConvQuantizer
def facts(run):
    conv = run['converted'].snapshot
    why = {n['id']: n.get('why') for n in conv.nodes if n['id'] in ('add', 'linear')}
    obs = next(n['id'] for n in run['prepared'].snapshot.nodes if n['role'] == 'observer')
    return {
        'kinds': [f['kind'] for f in conv.findings],
        'findings': [f['nodes'] for f in conv.findings],
        'why': why,
        'guards': [n['id'] for n in run['exported'].snapshot.nodes if n['target'] == '_guards_fn'],
        'dequantize': [n['id'] for n in conv.nodes if n['role'] == 'dequantize'],
        # an observer of the prepared stage and pl.why_not's lines for it: which annotation requested it
        'observer': [obs, [line for _, line in pl.why_not(run['prepared'], obs).rows]],
    }
run_en = pl.capture(get_model('tiny').eval(), example_inputs(), ConvQuantizer(), calibration=calibration_batches(1))
pl.set_locale('zh-TW')
run_zh = pl.capture(get_model('tiny').eval(), example_inputs(), ConvQuantizer(), calibration=calibration_batches(1))
pl.set_locale(None)
batch = torch.export.Dim('batch', min=1, max=1 << 16)
ep_dyn = torch.export.export(get_model('tiny').eval(), example_inputs(2), dynamic_shapes=({0: batch},))
# brief points 2-4: resnet's unused num_batches_tracked buffers make a row 9 nodes wide; a 4-block decoder
# quantized by torchao's XNNPACK quantizer is a few columns wide with 14 specs
import sys
sys.path.insert(0, ${JSON.stringify(join(ROOT, 'bench'))})
from models import build, calibration, export
from pt2e_lens.examples import xnnpack_quantizer
ep_wide = export('resnet', 4)
m, inp = build('decoder', 4)
dec = pl.capture(m, inp, xnnpack_quantizer(), calibration=calibration('decoder', 1, inp))
first = next(n.name for n in ep_wide.graph.nodes if n.op == 'call_function')
print('FACTS', json.dumps({'en': facts(run_en), 'zh': facts(run_zh), 'first': first,
                           'specs': len(dec['converted'].snapshot.specs)}))`;

let close;
let page;
let facts;
const errors = [];
before(async () => {
  ({ page, close } = await labPage({ 'r.ipynb': notebook([CAPTURE]) }, { open: 'r.ipynb', errors }));
  await page.evaluate(() => window.jupyterapp.commands.execute('pt2e-lens:open-panel'));
  await page.evaluate(() => window.jupyterapp.commands.execute('notebook:run-all-cells'));
  const out = page.locator('.jp-OutputArea-output', { hasText: /^FACTS / }).first();
  await out.waitFor({ timeout: 180000 });
  facts = JSON.parse((await out.textContent()).trim().slice('FACTS '.length));
  await dismissNewsToast(page); // it sits over the panel's bottom
});
after(() => close?.());

const panel = () => page.locator('#pt2e-lens-panel');
const view = () => panel().locator('.pl-panel-view .pt2e-lens[data-state="ready"]');
const { selected, pick } = nodePicker(() => page, view);
const shot = (name) => panel().screenshot({ path: join(ARTIFACTS, `panel-reading-${name}.png`) });
const kernelRun = (code) =>
  page.evaluate(
    (code) => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.requestExecute({ code }).done,
    code,
  );
const rectOf = (sel) =>
  panel()
    .locator(sel)
    .first()
    .evaluate((e) => e.getBoundingClientRect().toJSON());

/** Show Run `name`'s stage `stage` in the panel and wait until it is drawn. */
async function show(name, stage) {
  await panel().locator('select.pl-model-picker').selectOption(name);
  await pickStage(panel(), stage); // its tab, or the line's menu (issue 26.4)
  await view()
    .locator('.pl-title', { hasText: `${name} · ${stage}` })
    .waitFor();
  await idle(page, view()); // its first layout, Fit and paint
}

/** The node `id`'s box is inside the canvas, near its middle (within a quarter of the canvas width). */
async function assertCentred(id) {
  const c = await rectOf('.pl-canvas');
  const b = await view().locator(`.pl-node[data-id="${id}"] rect.pl-box`).boundingBox();
  assert.ok(b, `${id} is drawn`);
  assert.ok(b.x >= c.left - 1 && b.x + b.width <= c.right + 1, `${id} inside the canvas`);
  assert.ok(b.y >= c.top - 1 && b.y + b.height <= c.bottom + 1, `${id} inside the canvas`);
  assert.ok(Math.abs(b.x + b.width / 2 - (c.left + c.right) / 2) < c.width / 4, `${id} centred`);
}

const openDrawers = () =>
  view()
    .locator('.pl-drawer')
    .evaluateAll((ds) => ds.filter((d) => !d.hidden && d.offsetParent !== null).length);

for (const [theme, slug, lang] of [
  ['JupyterLab Light', 'light', 'en'],
  ['JupyterLab Dark', 'dark', 'zh'],
]) {
  const name = `run_${lang}`;
  describe(`the side panel at its default width (${slug}, ${lang})`, () => {
    before(async () => {
      await setLabTheme(page, theme);
      // the panel's Views are made when it asks: in the language the kernel is set to then
      await kernelRun(`pl.set_locale(${lang === 'zh' ? "'zh-TW'" : 'None'})`);
      await show(name, 'converted');
    });

    it('is at its default width and nothing in it is wider than the panel', async () => {
      const w = await panel().evaluate((e) => e.getBoundingClientRect().width);
      assert.ok(w > 150 && w < 400, `default width ${w}`);
      assert.deepEqual(await overflowing(panel()), []);
      // the head's one line (issue 26.4): nothing of it past its end, in either language
      const line = await panel()
        .locator('.pl-panel-line')
        .evaluate((l) => ({ over: l.scrollWidth - l.clientWidth, count: l.querySelector('.pl-current').title }));
      assert.ok(line.over <= 0, JSON.stringify(line));
      assert.match(line.count, /\d/);
      await shot(`converted-${slug}`);
      await page.screenshot({ path: join(ARTIFACTS, `panel-reading-page-${slug}.png`) });
    });

    it('findings: one line per rule below the graph; an entry selects and centres its node (1)', async () => {
      const f = facts[lang];
      await checkFindingLines(view(), f.kinds);
      await view().locator('.pl-findings > details summary').first().click();
      const target = f.findings[0].find((id) => id.startsWith('dequantize')) ?? f.findings[0][0];
      await settled(page, view(), () =>
        view()
          .locator('.pl-flink', { hasText: new RegExp(`^${target}$`) })
          .first()
          .click(),
      );
      assert.deepEqual(await selected(), [target]);
      await assertCentred(target);
      await shot(`finding-entry-${slug}`);
      await view().locator('.pl-findings > details summary').first().click(); // closed again
    });

    it('the drawer: the why-not lines of the fp32 add and linear and of an observer, across the canvas in view, labels on one line (2, 7)', async () => {
      for (const id of ['add', 'linear']) {
        await pick(id);
        const why = await view().locator('.pl-drawer:not([hidden]) .pl-why li').allTextContents();
        assert.ok(facts[lang].why[id].length > 0, `the kernel has a why line for ${id}`);
        assert.deepEqual(why, facts[lang].why[id]);
        // in a pane this narrow the drawer lies across the canvas's part on show, clear of the node (issue 26.4)
        assert.equal((await checkDrawerInView(view())).across, true);
        const dts = await view()
          .locator('.pl-drawer:not([hidden]) .pl-details dt')
          .evaluateAll((xs) =>
            xs.map((x) => ({
              t: x.textContent,
              h: x.getBoundingClientRect().height,
              lh: Number.parseFloat(getComputedStyle(x).lineHeight) || 16,
            })),
          );
        assert.ok(dts.length > 0);
        for (const x of dts) assert.ok(x.h < x.lh * 2.2, `label "${x.t}" wraps (${x.h} px)`);
        if (id === 'add') await shot(`drawer-add-${slug}`);
      }
      // an observer (prepared stage): the drawer says which annotation requested it, as pl.why_not does
      const [obs, lines] = facts[lang].observer;
      assert.ok(lines.length > 0, `the kernel has a why line for ${obs}`);
      await show(name, 'prepared');
      await pick(obs);
      assert.deepEqual(await view().locator('.pl-drawer:not([hidden]) .pl-why li').allTextContents(), lines);
      await shot(`drawer-observer-${slug}`);
      await view().locator('.pl-drawer-close').click();
      await view().locator('.pl-toolbar input[type="search"]').fill('');
      await show(name, 'converted');
    });

    it('search: Enter steps through the hits and centres each (4)', async () => {
      const input = view().locator('.pl-toolbar input[type="search"]');
      await input.fill('role:dequantize');
      const seen = [];
      for (let i = 0; i < 3; i++) {
        await settled(page, paneOf(input), () => input.press('Enter'));
        const [id] = await selected();
        assert.ok(facts[lang].dequantize.includes(id), `hit ${id} is a dequantize node`);
        await assertCentred(id);
        seen.push(id);
      }
      assert.equal(new Set(seen).size, 3, seen.join(','));
      await shot(`search-${slug}`);
      await input.fill('');
      await view().locator('.pl-drawer-close').click();
    });

    it('Expand all, the minimap toggle and the export buttons are in the toolbar; SVG and PNG download the view (6, 9)', async () => {
      assert.equal(
        await view()
          .locator('button.pl-btn', { hasText: lang === 'zh' ? '全部展開' : /^Expand all$/ })
          .isVisible(),
        true,
      );
      // the graph is taller than the pane: a minimap, closed at this width with its toggle in the toolbar (not
      // over the drawing); opened it sits inside the canvas, and closed again its toggle goes back
      assert.equal(await view().locator('.pl-canvas .pl-minimap-toggle').count(), 0);
      await view().locator('.pl-toolbar .pl-minimap-toggle').click();
      // on a busy machine the map can open a moment after the click (seen failing once in a suite run): wait for it
      await view()
        .locator('.pl-minimap canvas')
        .waitFor({ state: 'visible', timeout: 10000 })
        .catch(() => {});
      const map = await rectOf('.pl-minimap canvas');
      const c = await rectOf('.pl-canvas');
      assert.ok(
        map.width > 100 && map.left >= c.left && map.right <= c.right && map.bottom <= c.bottom + 1,
        `the open map inside the canvas: map ${JSON.stringify(map)}, canvas ${JSON.stringify(c)}`,
      );
      await shot(`minimap-${slug}`);
      await view().locator('.pl-minimap .pl-minimap-toggle').click();
      assert.equal(await view().locator('.pl-toolbar .pl-minimap-toggle').isVisible(), true);
      assert.equal(await view().locator('.pl-minimap canvas').isVisible(), false);
      const saved = async (kind) => {
        const [dl] = await Promise.all([
          page.waitForEvent('download'),
          view().locator(`button[data-export="${kind}"]`).click(),
        ]);
        return { name: dl.suggestedFilename(), bytes: readFileSync(await dl.path()) };
      };
      const svg = await saved('svg');
      assert.equal(svg.name, 'pt2e-lens.svg');
      const text = svg.bytes.toString('utf8');
      assert.ok(text.startsWith('<svg'), text.slice(0, 40));
      for (const id of ['add', 'linear', facts[lang].dequantize[0]]) assert.ok(text.includes(`>${id}<`), id);
      const png = await saved('png');
      assert.equal(png.name, 'pt2e-lens.png');
      assert.deepEqual([...png.bytes.subarray(1, 4)], [0x50, 0x4e, 0x47]);
      assert.ok(png.bytes.length > 5000, `a drawn picture (${png.bytes.length} B)`);
    });

    it('a dynamic batch reads `batch×…` on the nodes, not a torch-made size name (9)', async () => {
      await show('ep_dyn', 'exported');
      const subs = await view().locator('.pl-node text').allTextContents();
      assert.ok(subs.filter((t) => /^batch×\d/.test(t)).length >= 3, subs.slice(0, 8).join('|'));
      assert.ok(!subs.some((t) => /\bs\d+×/.test(t)), 'no s77×…');
      await shot(`dims-${slug}`);
      await show(name, 'converted');
    });

    it('a wide ExportedProgram first shows its computation, not its row of buffers (brief 2)', async () => {
      await show('ep_wide', 'exported');
      const c = await rectOf('.pl-canvas');
      const seen = await view()
        .locator('.pl-node')
        .evaluateAll(
          (ns, c) =>
            ns
              .filter((n) => {
                const r = n.querySelector('rect').getBoundingClientRect();
                return (
                  Math.min(r.right, c.right) - Math.max(r.left, c.left) >= r.width / 2 &&
                  r.top >= c.top &&
                  r.bottom <= c.bottom
                );
              })
              .map((n) => n.dataset.id),
          c,
        );
      assert.ok(seen.includes(facts.first) && seen.includes('x'), seen.join(' '));
      assert.ok(seen.filter((id) => !id.includes('num_batches_tracked')).length >= 5, seen.join(' '));
      await shot(`ep-wide-${slug}`);
      await show(name, 'converted');
    });

    it('a decoder a few columns wide: readable from its top, closed groups titled, specs folded (brief 3, 4; issue 26.4)', async () => {
      await show('dec', 'converted');
      // labels at >= 11 px (it was fitted whole at 0.3: 4 px), no title over a node, no zoomed-out titles
      const [p] = await view().evaluate(readable);
      assert.ok(p.smallest >= 11 - 0.01, `labels at ${p.smallest} px`);
      assert.deepEqual(p.over, []);
      assert.equal(p.zoomTitles, 0);
      const titles = await closedTitles(view());
      assert.ok(titles.length >= 8, `closed groups: ${titles.length}`);
      for (const t of titles) assert.ok(t.label.length > 0, `${t.key} has its title`);
      const legend = view().locator('.pl-legend');
      const folded = await legend.evaluate((l) => l.classList.contains('pl-legend-folded'));
      if (folded) await legend.locator('.pl-legend-toggle').click();
      const chip = legend.locator('.pl-legend-specfold');
      assert.equal(Number((await chip.textContent()).match(/^▸ (\d+)/)?.[1]), facts.specs);
      assert.equal(await legend.locator('.pl-legend-spec:visible').count(), 0);
      await shot(`decoder-${slug}`);
      await chip.click();
      assert.equal(await legend.locator('.pl-legend-spec:visible').count(), facts.specs);
      await chip.click();
      if (folded) await legend.locator('.pl-legend-toggle').click(); // as it was for the checks after this one
      await show(name, 'converted');
    });

    it("the marks as drawn in the panel in JupyterLab's theme tell apart (8)", async () => {
      // one stage at a time: the observers' strokes, sharing-group fills, search hit and selection in prepared, the
      // q/dq and output strokes in converted; no stage view carries a diff mark, so those two are the panel's
      // stylesheet's (what a box added or removed by a stage would draw here)
      await show(name, 'prepared');
      const prepared = await roleStrokes(view());
      const fills = await groupFills(view());
      const { match, selected } = await searchStrokes(page, view());
      await shot(`colours-prepared-${slug}`);
      await show(name, 'converted');
      const roles = { ...prepared, ...(await roleStrokes(view())) };
      const [added, removed] = [await markStroke(view(), 'added'), await markStroke(view(), 'removed')];
      judgeColours({ roles, added, removed, match, selected, fills });
      await shot(`colours-converted-${slug}`);
    });

    it('stage tabs: the selection follows to its counterpart, else clears; the exported stage hides _guards_fn (9)', async () => {
      // the fp32 add is in every stage: selected in converted, it is selected, centred and in the drawer in the
      // stages switched to (the drawer showing that stage's node: its why lines are the kernel's for converted only)
      await pick('add');
      for (const stage of ['exported', 'prepared']) {
        await show(name, stage);
        assert.deepEqual(await selected(), ['add'], `add followed to ${stage}`);
        assert.equal(await openDrawers(), 1);
        assert.match(await view().locator('.pl-drawer:not([hidden]) .pl-details').textContent(), /\badd\b/);
        await assertCentred('add');
        if (stage === 'exported') await shot(`follow-${slug}`);
      }
      await show(name, 'converted');
      assert.deepEqual(await selected(), ['add'], 'and back');
      // a dequantize exists from convert on: in exported nothing is selected and no drawer stays open
      await pick(facts[lang].dequantize[0]);
      await show(name, 'exported');
      assert.deepEqual(await selected(), []);
      assert.equal(await openDrawers(), 0);
      assert.ok(facts[lang].guards.length > 0, 'torch.export made a _guards_fn node');
      for (const id of facts[lang].guards)
        assert.equal(await view().locator(`.pl-node[data-id="${id}"]`).count(), 0, `${id} not drawn`);
      assert.ok((await view().locator('.pl-node').count()) > 10);
      await shot(`exported-${slug}`);
      // the tab already shown, clicked again, keeps the view being read: no second fetch, no new drawing (a test
      // once read a view that this redraw was replacing). The panel's request, if it sent one, is answered before
      // the execute that follows it.
      await view().evaluate((v) => {
        v.plReadHere = true;
      });
      await panel().locator('.pl-panel-stages .pl-tab[aria-selected="true"]').click();
      await kernelRun('None');
      await afterFrame(page);
      assert.equal(
        await panel()
          .locator('.pl-panel-view .pt2e-lens')
          .evaluate((v) => v.plReadHere === true),
        true,
      );
    });
  });
}

describe('the side panel', () => {
  it('ran without page errors', () => {
    assert.deepEqual(errors, []);
  });
});
