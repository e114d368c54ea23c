// Issue 15 in JupyterLab notebook outputs drawn from a real kernel (run with `npm run test:lab`, after a build): the
// tiny model captured with ConvQuantizer (its add and linear stay fp32), shown three ways (search-sync.mjs' VIEWS).
// `pl.show` of the prepared stage: findings one line per rule below the graph, an entry centring its node (1);
// clicking add, linear and two observers opens the drawer with the lines `pl.why_not` returns for that node in the
// same kernel (for an observer: which annotation requested it) (2, why-lines.mjs); the toolbar's PNG and SVG save
// the current view (a PNG at twice the SVG's size, an SVG that parses and holds the drawn nodes with their labels and
// the fills on screen) (9); Collapse all then Expand all opens every group and draws every node of torch's prepared
// graph, fitted (6). The converted stage with its SQNR overlay and the compare: search filters (module, quantizer,
// sharing group, dtype, SQNR), Worst, and panes that close groups, select and zoom together (4, 3; search-sync.mjs);
// the marks as drawn in JupyterLab's theme tell apart (8; drawn-colours.mjs). Light and dark, at a notebook's width
// and with the outputs at the side panel's 280 px (where the drawer docks below the canvas, the legend and the
// minimap fold). An export with a dynamic batch: `batch×…` on the nodes, no _guards_fn (9). After
// pl.set_locale('zh-TW') the prepared stage again: its drawer labelled in zh-TW, one line each (7).
// Screenshots: tests/ui/artifacts/output-reading-*.png.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { across, checkDrawerInView } from './drawer-view.mjs';
import { checkDrawnColours } from './drawn-colours.mjs';
import { checkFindingLines } from './finding-lines.mjs';
import { dismissNewsToast, notebook, setLabTheme, setOutputsWidth } from './lab_server.mjs';
import { labPage } from './lab-page.mjs';
import { overflowing } from './overflow.mjs';
import { ARTIFACTS, ROOT } from './pages.mjs';
import { nodePicker } from './pick-node.mjs';
import { readable } from './readable.mjs';
import { checkCompareSync, checkFilters, FACTS_CODE, VIEWS } from './search-sync.mjs';
import { idle, settled } from './settled.mjs';
import { checkWhyLines, WHY_CODE } from './why-lines.mjs';

// point 9's sizes: the tiny model exported with a dynamic batch; torch.export's shape guard, by torch's own graph
// (ep.module(): the unlifted GraphModule calls it)
const DYNAMIC = `batch = torch.export.Dim('batch', min=1, max=1 << 16)
ep_dyn = torch.export.export(get_model('tiny').eval(), example_inputs(2), dynamic_shapes=({0: batch},))
guards = [n.name for n in ep_dyn.module().graph.nodes if n.op == 'call_module' and n.target == '_guards_fn']
print('GUARDS', json.dumps(guards))`;
const SHOW_DYNAMIC = 'pl.show(ep_dyn)';
// point 6's "nothing lost": every node of the prepared GraphModule, by torch's own graph, but torch.export's
// _guards_fn (hidden unless asked: point 9)
const NODES = `print('NODES', json.dumps(sorted(n.name for n in prep.graph_module.graph.nodes
                                         if not (n.op == 'call_module' and n.target == '_guards_fn'))))`;
// point 7 in zh-TW: the locale switch of docs/i18n.md, then the prepared stage again (its View carries the locale)
const ZH = ["pl.set_locale('zh-TW')", 'pl.show(prep)'];
const ZH_AT = VIEWS.length + 1;
const zhTW = JSON.parse(readFileSync(join(ROOT, 'kernel_pkg/pt2e_lens/locales/zh-TW.json'), 'utf8'));

let close;
let page;
let facts;
let found;
let guards;
let stageNodes;
const errors = [];
before(async () => {
  const files = { 'o.ipynb': notebook([FACTS_CODE, WHY_CODE, NODES, ...VIEWS, DYNAMIC, SHOW_DYNAMIC, ...ZH]) };
  ({ page, close } = await labPage(files, { open: 'o.ipynb', errors }));
  await page.evaluate(() => window.jupyterapp.commands.execute('notebook:run-all-cells'));
  facts = await printed('WHY');
  found = await printed('FACTS');
  guards = await printed('GUARDS');
  stageNodes = await printed('NODES');
  await page.waitForFunction(
    (n) => document.querySelectorAll('.jp-Pt2eLens .pt2e-lens[data-state="ready"]').length === n,
    ZH_AT + 1,
    { timeout: 120000 },
  );
  await dismissNewsToast(page);
});
after(() => close?.());

/** What a cell printed after `tag `, as JSON. */
async function printed(tag) {
  const out = page.locator('.jp-OutputArea-output', { hasText: new RegExp(`^${tag} `) }).first();
  await out.waitFor({ timeout: 180000 });
  return JSON.parse((await out.textContent()).trim().slice(tag.length + 1));
}

/** The n-th view output of the notebook (our MIME renderer's element, in VIEWS' order) and the view it drew. */
const hostOf = (n) => page.locator('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Pt2eLens').nth(n);
const viewOf = (n) => hostOf(n).locator('.pt2e-lens[data-state="ready"]');
const host = () => hostOf(0);
const output = () => viewOf(0);
const { selected, pick } = nodePicker(() => page, output);
const rectOf = (sel) =>
  output()
    .locator(sel)
    .first()
    .evaluate((e) => e.getBoundingClientRect().toJSON());

/** Click the toolbar's `kind` export button; the download's name and bytes. */
async function saved(kind) {
  const [dl] = await Promise.all([
    page.waitForEvent('download'),
    output().locator(`button[data-export="${kind}"]`).click(),
  ]);
  return { name: dl.suggestedFilename(), bytes: readFileSync(await dl.path()) };
}

/** Every view output at `width` px (null: as wide as the notebook gives it), re-fitted, the first in view. */
async function setWidth(width) {
  await setOutputsWidth(page, width);
  await output().scrollIntoViewIfNeeded();
}

for (const [theme, slug] of [
  ['JupyterLab Light', 'light'],
  ['JupyterLab Dark', 'dark'],
]) {
  for (const width of [null, 280]) {
    const size = width ? `${width}px` : 'wide';
    describe(`a pl.show output from the kernel (${slug}, ${size})`, () => {
      before(async () => {
        await setLabTheme(page, theme);
        await setWidth(width);
      });

      it('fits its width: nothing in the toolbar or findings is wider than the output; the map folds when narrow (6, 7)', async () => {
        const w = await host().evaluate((e) => e.getBoundingClientRect().width);
        if (width) assert.ok(Math.abs(w - width) < 1, `output ${w} px`);
        else assert.ok(w > 700, `output ${w} px`);
        // the graph is taller than the pane: a minimap, open over the drawing when wide; narrowed (as each run here
        // narrows the output drawn wide), closed with its toggle in the toolbar, never over a 280 px drawing
        // the map follows the width through a ResizeObserver and the re-fit's redraw: wait for it to settle
        await idle(page, output());
        assert.equal(await output().locator('.pl-minimap canvas').isVisible(), !width, 'the map open only when wide');
        assert.equal(await output().locator('.pl-toolbar .pl-minimap-toggle').isVisible(), !!width, 'its toggle');
        // the legend: folded to one line at the panel's width, whole when wide
        assert.equal(
          await output()
            .locator('.pl-legend')
            .evaluate((l) => l.classList.contains('pl-legend-folded')),
          !!width,
          'the legend folded only when narrow',
        );
        assert.deepEqual(await overflowing(host()), []);
        await host().screenshot({ path: join(ARTIFACTS, `output-reading-${slug}-${size}.png`) });
      });

      it('findings: one line per rule below the graph; an entry selects and centres its node (1)', async () => {
        await checkFindingLines(
          output(),
          facts.findings.map(([kind]) => kind),
        );
        const c = await rectOf('.pl-canvas');
        await output().locator('.pl-findings > details summary').first().click();
        // an entry links its first nodes: the third (add, mid-graph) is one
        const target = facts.findings[0][1][2];
        await settled(page, output(), () =>
          output()
            .locator('.pl-flink', { hasText: new RegExp(`^${target}$`) })
            .first()
            .click(),
        );
        assert.deepEqual(await selected(), [target]);
        const b = await output().locator(`.pl-node[data-id="${target}"] rect.pl-box`).boundingBox();
        const d = await rectOf('.pl-drawer:not([hidden])');
        // centred in the canvas, or left of a drawer open over it
        const right = across({ d, c }) ? c.right : Math.min(c.right, d.left);
        assert.ok(b.x >= c.left - 1 && b.x + b.width <= right + 1, `${target} in view`);
        assert.ok(Math.abs(b.x + b.width / 2 - (c.left + right) / 2) < (right - c.left) / 4, `${target} centred`);
        await host().screenshot({ path: join(ARTIFACTS, `output-reading-finding-${slug}-${size}.png`) });
        await output().locator('.pl-drawer-close').click();
        await output().locator('.pl-findings > details summary').first().click();
      });

      it("the drawer's why-not lines are pl.why_not's for add, linear and two observers (2)", async () => {
        const [obsFirst] = facts.observers;
        await checkWhyLines(output, facts, pick, async (id) => {
          // across the canvas's part on show at 280 px, beside it (a third at most) at the notebook's width
          const placed = await checkDrawerInView(output());
          assert.equal(placed.across, !!width);
          if (id === 'add' || id === obsFirst)
            await host().screenshot({ path: join(ARTIFACTS, `output-reading-drawer-${id}-${slug}-${size}.png`) });
        });
      });

      it('PNG and SVG save the current view: the drawn nodes, in the colours on screen (9)', async () => {
        const drawn = await output()
          .locator('.pl-node')
          .evaluateAll((ns) =>
            ns.map((n) => ({
              id: n.dataset.id,
              label: n.querySelector('text')?.textContent ?? '',
              fill: getComputedStyle(n.querySelector('rect.pl-box')).fill,
            })),
          );
        assert.ok(drawn.length > 10, `${drawn.length} nodes drawn`);
        const svg = await saved('svg');
        assert.equal(svg.name, 'pt2e-lens.svg');
        const text = svg.bytes.toString('utf8');
        // parsed as an SVG document by the browser: its nodes, their fills and its size
        const got = await page.evaluate((src) => {
          const doc = new DOMParser().parseFromString(src, 'image/svg+xml');
          const root = doc.documentElement;
          return {
            error: doc.querySelector('parsererror')?.textContent ?? null,
            root: root.localName,
            w: Number.parseFloat(root.getAttribute('width')),
            h: Number.parseFloat(root.getAttribute('height')),
            nodes: [...doc.querySelectorAll('.pl-node')].map((n) => ({
              id: n.getAttribute('data-id'),
              label: n.querySelector('text')?.textContent ?? '',
              fill: n.querySelector('rect')?.style.fill ?? '',
            })),
          };
        }, text);
        assert.equal(got.error, null);
        assert.equal(got.root, 'svg');
        assert.deepEqual(got.nodes.map((n) => n.id).sort(), drawn.map((n) => n.id).sort(), 'the nodes on screen');
        for (const id of ['add', 'linear', facts.observers[0]]) assert.ok(text.includes(`>${id}<`), `${id} labelled`);
        // the view on screen: every node's label, and its box's fill in this theme
        const shown = new Map(drawn.map((n) => [n.id, n]));
        const off = got.nodes
          .filter((n) => n.label !== shown.get(n.id).label || n.fill !== shown.get(n.id).fill)
          .map((n) => `${n.id}: ${n.label} ${n.fill} vs ${shown.get(n.id).label} ${shown.get(n.id).fill}`);
        assert.deepEqual(off, []);
        const png = await saved('png');
        assert.equal(png.name, 'pt2e-lens.png');
        assert.deepEqual([...png.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
        // IHDR: the SVG rasterised at 2×
        const [pw, ph] = [png.bytes.readUInt32BE(16), png.bytes.readUInt32BE(20)];
        assert.deepEqual([pw, ph], [Math.round(got.w) * 2, Math.round(got.h) * 2], 'PNG is the SVG at 2×');
        assert.ok(png.bytes.length > 5000, `a drawn picture (${png.bytes.length} B)`);
      });

      it('search filters by module, quantizer, dtype and SQNR; Worst selects the lowest SQNR (4)', async () => {
        await viewOf(1).scrollIntoViewIfNeeded();
        await checkFilters(page, viewOf(0), viewOf(1), found);
        await hostOf(1).screenshot({ path: join(ARTIFACTS, `output-reading-worst-${slug}-${size}.png`) });
      });

      it('compare panes: closing a group, selecting and zooming in one does the same in the other (3)', async () => {
        await viewOf(2).scrollIntoViewIfNeeded();
        await checkCompareSync(page, viewOf(2), found, (step) =>
          hostOf(2).screenshot({ path: join(ARTIFACTS, `output-reading-compare-${step}-${slug}-${size}.png`) }),
        );
      });

      it("a dynamic batch reads `batch×…` on the nodes; torch.export's _guards_fn is not drawn (9)", async () => {
        const dyn = viewOf(VIEWS.length);
        await dyn.scrollIntoViewIfNeeded();
        const subs = await dyn.locator('.pl-node text').allTextContents();
        assert.ok(subs.filter((t) => /^batch×\d/.test(t)).length >= 3, subs.slice(0, 8).join('|'));
        assert.ok(!subs.some((t) => /\bs\d+×/.test(t)), 'no torch-made size names (s77×…)');
        assert.ok(guards.length > 0, 'torch.export made a _guards_fn node: the check below checks something');
        for (const id of guards) assert.equal(await dyn.locator(`.pl-node[data-id="${id}"]`).count(), 0, id);
        assert.ok((await dyn.locator('.pl-node').count()) > 10);
        await hostOf(VIEWS.length).screenshot({ path: join(ARTIFACTS, `output-reading-dims-${slug}-${size}.png`) });
      });

      it('Expand all after Collapse all: every group open, every node of the stage drawn, fitted to the width (6)', async () => {
        const v = viewOf(0);
        await v.scrollIntoViewIfNeeded();
        const state = () =>
          v.evaluate((r) => ({
            nodes: [...r.querySelectorAll('.pl-node')].map((n) => n.dataset.id).sort(),
            groups: r.querySelectorAll('.pl-group').length,
            closed: r.querySelectorAll('.pl-group.pl-collapsed').length,
          }));
        const before = await state();
        const button = (name) => v.locator('.pl-toolbar button.pl-btn', { hasText: new RegExp(`^${name}$`) });
        await settled(page, v, () => button('Collapse all').click());
        const shut = await state();
        assert.ok(shut.closed > 0 && shut.nodes.length < stageNodes.length, JSON.stringify(shut));
        await settled(page, v, () => button('Expand all').click()); // its redraw, Fit and paint
        const open = await state();
        assert.equal(open.closed, 0, 'every group open');
        assert.ok(open.groups >= Math.max(before.groups, 3), `${open.groups} groups drawn (${before.groups} before)`);
        assert.deepEqual(open.nodes, stageNodes, "every node of torch's prepared graph drawn");
        // fitted (Fit's rule, pan-zoom.ts): the drawing's width inside the canvas, its top in view (a tall one reads
        // on with the minimap) — or, where that would take its labels under 11 px (the 280 px output, issue 26
        // point 4), at that readable scale showing computation (Fit starts at the first compute node), an edge's
        // "more" saying the rest lies past
        const c = await v.locator('.pl-canvas').boundingBox();
        const d = await v.locator('.pl-viewport').boundingBox();
        if (d.x >= c.x - 1 && d.x + d.width <= c.x + c.width + 1)
          assert.ok(d.y >= c.y - 1 && d.y < c.y + c.height / 4, JSON.stringify({ c, d }));
        else {
          const [p] = await v.evaluate(readable);
          assert.ok(p.smallest >= 11 - 0.01, `labels at ${p.smallest} px`);
          const compute = await v
            .locator('.pl-node[data-role="compute"]')
            .evaluateAll((ns) => ns.map((n) => n.dataset.id));
          assert.ok(
            p.ids.some((id) => compute.includes(id)),
            `a compute node on show: ${p.ids.join(' ')}`,
          );
          assert.ok((await v.locator('.pl-offscreen:visible').count()) >= 1, 'an edge says the drawing goes on');
        }
        await hostOf(0).screenshot({ path: join(ARTIFACTS, `output-reading-expand-all-${slug}-${size}.png`) });
      });

      it('after pl.set_locale("zh-TW") the drawer labels are zh-TW, each on one line (7)', async () => {
        const zh = () => viewOf(ZH_AT);
        await zh().scrollIntoViewIfNeeded();
        // JupyterLab lays out an output only once it is in view: then the view re-fits to the output's width
        await page.waitForFunction(
          (h) => h.querySelector('.pl-canvas').getBoundingClientRect().right <= h.getBoundingClientRect().right + 0.5,
          await hostOf(ZH_AT).elementHandle(),
          { timeout: 10000 },
        );
        await nodePicker(() => page, zh).pick('add');
        const drawer = zh().locator('.pl-drawer:not([hidden]) .pl-details');
        const heads = await drawer.locator('h4').allTextContents();
        assert.equal(heads[0], `add — ${zhTW['ui.role.compute']}`);
        assert.equal(heads[1], zhTW['ui.views.why']);
        // the lines a label's text takes (its box stretches to its row's height when the value beside it wraps)
        const dts = await drawer.locator('dt').evaluateAll((xs) =>
          xs.map((x) => {
            const r = document.createRange();
            r.selectNodeContents(x);
            return { t: x.textContent, lines: new Set([...r.getClientRects()].map((c) => Math.round(c.top))).size };
          }),
        );
        const t = (k) => zhTW[`ui.details.${k}`];
        const want = [
          t('target'),
          'op',
          t('shape'),
          'dtype',
          t('module'),
          t('module_stack'),
          t('source'),
          t('provenance'),
        ];
        assert.deepEqual(
          dts.slice(0, want.length).map((x) => x.t),
          want,
        );
        for (const x of dts) assert.equal(x.lines, 1, `label "${x.t}" on ${x.lines} lines`);
        assert.equal(await zh().locator('.pl-toolbar button.pl-btn', { hasText: zhTW['ui.expand_all'] }).count(), 1);
        await hostOf(ZH_AT).screenshot({ path: join(ARTIFACTS, `output-reading-zh-drawer-${slug}-${size}.png`) });
        await zh().locator('.pl-drawer-close').click();
        await zh().locator('.pl-toolbar input[type="search"]').fill('');
      });

      // colours do not change with the width: once per theme
      if (!width)
        it("the marks as drawn in JupyterLab's theme tell apart; added by this stage is a green frame (8)", async () => {
          await viewOf(2).scrollIntoViewIfNeeded();
          await checkDrawnColours(page, viewOf(2));
        });
    });
  }
}

describe('the notebook output', () => {
  it('ran without page errors', () => {
    assert.deepEqual(errors, []);
  });
});
