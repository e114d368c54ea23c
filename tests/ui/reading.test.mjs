// Issue 15's reading points in chromium, static report, light and dark, normal width and the side panel's 250 px:
// findings one line per rule below the graph (an entry centres and selects its node), compare panes that pan and
// open groups together and whose Fit keeps every callout inside, the drawer in view (a third of a wide pane at most,
// across the canvas's part on show when narrow) with zh-TW labels on one line, search stepping, the heat legend's range equal to the
// accuracy table's. Screenshots: artifacts/reading-*.png.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { launch } from './browser.mjs';
import { notedCompare } from './compare-stacking.mjs';
import { across, checkDrawerInView } from './drawer-view.mjs';
import { checkHeatRange } from './heat-range.mjs';
import { ARTIFACTS, fixture, ROOT, writePage } from './pages.mjs';
import { nodePicker } from './pick-node.mjs';
import { idle, settled } from './settled.mjs';
import { checkStageTabs } from './stage-tabs.mjs';
import { eachPage, withPage } from './with-page.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const shot = (page, name) => page.screenshot({ path: join(ARTIFACTS, `reading-${name}.png`), fullPage: true });
const rect = (page, sel) => page.$eval(sel, (e) => e.getBoundingClientRect().toJSON());

/** conv_prepared with one fp32-island finding per node, as hundreds arrive on a big model */
function manyFindings(locale) {
  const view = fixture('conv_prepared.json');
  if (locale) view.locale = locale;
  const snap = view.panes[0].snapshot;
  for (const n of snap.nodes)
    snap.findings.push({ kind: 'fp32-island', message: `${n.id} stays fp32 between quantized ops`, nodes: [n.id] });
  return view;
}

describe('findings: the graph first, one line per rule', () => {
  eachPage(
    () => browser,
    { light: [1300, 250], dark: [1300, 250] },
    (scheme, width) => {
      const view = manyFindings();
      return { url: writePage(`reading-findings-${scheme}-${width}.html`, [view]), view };
    },
    async (page, { scheme, width, view }) => {
      const canvas = await rect(page, '.pl-canvas');
      const lines = await page.$$eval('.pl-findings > details', (ds) =>
        ds.map((d) => ({ top: d.getBoundingClientRect().top, h: d.getBoundingClientRect().height })),
      );
      assert.equal(lines.length, 2, 'one line per rule');
      for (const l of lines) {
        assert.ok(l.top >= canvas.bottom, 'findings sit below the graph');
        assert.ok(l.h < 30, `a closed rule is one line (${l.h} px)`);
      }
      // the whole output stays short: graph + toolbar + legend + two lines
      const total = await rect(page, '.pt2e-lens');
      assert.ok(total.height < canvas.height + 260, `output ${total.height} px for a ${canvas.height} px canvas`);
      await shot(page, `findings-${scheme}-${width}`);
      // open the islands; an entry's link centres and selects its node
      await page.click('.pl-findings details[data-kind="fp32-island"] summary');
      const target = view.panes[0].snapshot.nodes.at(-2).id;
      await settled(page, page.locator('.pl-graph'), () => page.click(`.pl-flink >> text="${target}"`));
      const sel = await page.$(`.pl-node.pl-selected[data-id="${target}"]`);
      assert.ok(sel, 'the node is selected');
      const b = await sel.boundingBox();
      const c = await rect(page, '.pl-canvas');
      assert.ok(b.x >= c.left - 1 && b.x + b.width <= c.right + 1, 'the selected node is in view');
      await shot(page, `findings-open-${scheme}-${width}`);
    },
  );
});

describe('compare panes: Fit keeps the callouts, panes move together', () => {
  eachPage(
    () => browser,
    { light: [1200], dark: [1200] },
    (scheme) => {
      const view = notedCompare(fixture('real_compare.json'));
      // a notebook's usual width: two panes of ~570 px each
      return writePage(`reading-compare-${scheme}.html`, [view]);
    },
    async (page, { scheme }) => {
      await shot(page, `compare-fit-${scheme}`);
      const panes = await page.$$('.pl-pane');
      assert.equal(panes.length, 2);
      for (const [i, p] of panes.entries()) {
        const c = await (await p.$('.pl-canvas')).boundingBox();
        for (const el of await p.$$('.pl-callout rect, .pl-node rect.pl-box')) {
          const b = await el.boundingBox();
          assert.ok(
            b.x >= c.x - 1 && b.x + b.width <= c.x + c.width + 1,
            `pane ${i}: a box at x ${b.x}…${b.x + b.width} outside ${c.x}…${c.x + c.width} after Fit`,
          );
        }
      }
      // drag pane 0: the counterpart of the node nearest its centre keeps its screen offset in pane 1
      const at = async (i, id) => (await panes[i].$(`.pl-node[data-id="${id}"] rect.pl-box`)).boundingBox();
      const c0 = await (await panes[0].$('.pl-canvas')).boundingBox();
      await page.mouse.move(c0.x + 30, c0.y + c0.height - 30);
      await page.mouse.down();
      const pane0 = page.locator('.pl-pane[data-pane="0"] .pl-graph');
      await settled(page, pane0, () => page.mouse.move(c0.x + 60, c0.y + c0.height - 140, { steps: 6 }));
      await page.mouse.up();
      await idle(page, page.locator('.pl-graph')); // pane 1 follows within pane 0's move
      const a0 = await at(0, 'conv2d_1');
      const a1 = await at(1, 'conv2d_1');
      const c1 = await (await panes[1].$('.pl-canvas')).boundingBox();
      // same scale, same place relative to its canvas, within a node's height (the anchor is the centre node)
      assert.ok(Math.abs(a0.height - a1.height) < 0.5, 'same scale');
      assert.ok(Math.abs(a0.y - c0.y - (a1.y - c1.y)) < a0.height * 1.5, `pane 1 followed the pan (${a0.y} / ${a1.y})`);
      await shot(page, `compare-panned-${scheme}`);
    },
    (scheme) => scheme,
  );
});

describe('the details drawer', () => {
  eachPage(
    () => browser,
    { light: [1300, 250, 280], dark: [1300, 250, 280] },
    (scheme, width) => {
      const view = fixture('conv_prepared.json');
      view.locale = 'zh-TW';
      const obs = view.panes[0].snapshot.nodes.find((n) => n.role === 'observer');
      obs.why = ['這個 observer 量測 conv2d 的輸出', '與 add 的輸入共用同一個群組'];
      return { url: writePage(`reading-drawer-${scheme}-${width}.html`, [view]), obs };
    },
    async (page, { scheme, width, obs }) => {
      // found as a user finds a node the first view may not show (readable labels pan a wide graph)
      await nodePicker(
        () => page,
        () => page.locator('.pt2e-lens').first(),
      ).pick(obs.id);
      // beside the canvas (a third at most) in a wide pane, across its part on show in a narrow one, in the window
      const placed = await checkDrawerInView(page.locator('.pt2e-lens').first());
      assert.equal(placed.across, width <= 720);
      const dts = await page.$$eval('.pl-details dt', (xs) =>
        xs.map((x) => ({
          t: x.textContent,
          h: x.getBoundingClientRect().height,
          lh: parseFloat(getComputedStyle(x).lineHeight) || 16,
        })),
      );
      for (const x of dts) assert.ok(x.h < x.lh * 2.2, `label "${x.t}" wraps (${x.h} px)`);
      const why = await page.$$eval('.pl-why li', (xs) => xs.map((x) => x.textContent));
      assert.deepEqual(why, obs.why);
      // the answer to "why is this so?" is in the drawer's visible box as it opens, not below a scroll
      const line = await page.$eval('.pl-drawer', (dr) => {
        const b = dr.getBoundingClientRect();
        const li = dr.querySelector('.pl-why li:last-child').getBoundingClientRect();
        return { top: li.top - b.top, bottom: li.bottom - b.top, visible: dr.clientHeight, scrolled: dr.scrollTop };
      });
      assert.equal(line.scrolled, 0);
      assert.ok(
        line.top >= 0 && line.bottom <= line.visible,
        `why line at ${line.top}–${line.bottom} px of ${line.visible} px`,
      );
      await shot(page, `drawer-${scheme}-${width}`);
    },
    (scheme, width) =>
      `zh-TW, ${scheme} at ${width} px: in view over the canvas, labels on one line, why lines in view`,
  );
});

describe('stage tabs: the selection follows to its counterpart, or clears', () => {
  eachPage(
    () => browser,
    { light: [1300, 280], dark: [260] },
    (scheme, width) => writePage(`reading-stages-${scheme}-${width}.html`, [fixture('run.json')]),
    async (page, { scheme, width }) => {
      const root = page.locator('.pt2e-lens').first();
      await checkStageTabs(page, root, (step) => shot(page, `stages-${step}-${scheme}-${width}`));
    },
  );
});

describe('search', () => {
  eachPage(
    () => browser,
    { light: [900], dark: [260] },
    (scheme) => writePage(`reading-search-${scheme}.html`, [fixture('conv_prepared.json')]),
    async (page, { scheme, width }) => {
      await page.fill('.pl-toolbar input', 'role:observer');
      const seen = [];
      for (let i = 0; i < 3; i++) {
        await settled(page, page.locator('.pl-graph'), () => page.press('.pl-toolbar input', 'Enter'));
        const id = await page.$eval('.pl-node.pl-selected', (e) => e.getAttribute('data-id'));
        assert.equal(await page.$eval(`.pl-node[data-id="${id}"]`, (e) => e.getAttribute('data-role')), 'observer');
        const b = await (await page.$('.pl-node.pl-selected rect.pl-box')).boundingBox();
        const c = await rect(page, '.pl-canvas');
        const d = await rect(page, '.pl-drawer');
        // centred left of the drawer, or in the canvas when the drawer lies across it (narrow pane)
        const cx = across({ d, c }) ? (c.left + c.right) / 2 : (c.left + Math.min(c.right, d.left)) / 2;
        assert.ok(Math.abs(b.x + b.width / 2 - cx) < 40, `hit ${id} centred (${b.x + b.width / 2} vs ${cx})`);
        seen.push(id);
      }
      assert.equal(new Set(seen).size, 3);
      await shot(page, `search-${scheme}-${width}`);
    },
    (scheme, width) => `role:observer, Enter steps through the hits and centres each (${scheme}, ${width} px)`,
  );
});

describe("heat: the legend reads the range of the table's coloured nodes", () => {
  eachPage(
    () => browser,
    { light: [1300], dark: [250] },
    (scheme) => writePage(`reading-heat-${scheme}.html`, [fixture('real_accuracy.json')]),
    async (page, { scheme, width }) => {
      await checkHeatRange(page.locator('.pt2e-lens').first());
      await shot(page, `heat-${scheme}-${width}`);
    },
  );
});

describe('export and the report page', () => {
  it('the toolbar saves the current view as SVG and PNG', async () => {
    await withPage(
      browser,
      writePage('reading-export.html', [fixture('conv_prepared.json')]),
      { width: 900 },
      async (page) => {
        const saved = async (kind) => {
          const [dl] = await Promise.all([page.waitForEvent('download'), page.click(`button[data-export="${kind}"]`)]);
          const path = await dl.path();
          return { name: dl.suggestedFilename(), bytes: readFileSync(path) };
        };
        const svg = await saved('svg');
        assert.equal(svg.name, 'pt2e-lens.svg');
        const text = svg.bytes.toString('utf8');
        assert.ok(text.startsWith('<svg'), text.slice(0, 40));
        for (const id of ['conv2d', 'activation_post_process_0', 'linear']) assert.ok(text.includes(id), id);
        assert.ok(!text.includes('var(--pl-'), 'styles inlined');
        const png = await saved('png');
        assert.equal(png.name, 'pt2e-lens.png');
        assert.deepEqual([...png.bytes.subarray(1, 4)], [0x50, 0x4e, 0x47]);
        assert.ok(png.bytes.length > 5000, `a drawn picture (${png.bytes.length} B)`);
      },
    );
  });

  it('a written report turns dark with its viewer', async () => {
    const python = process.env.PT2E_LENS_PYTHON ?? join(ROOT, '.venv', 'bin', 'python');
    const out = join(ARTIFACTS, 'reading-report.html');
    const code = [
      'import json, sys',
      'from pt2e_lens.report import write_html',
      "write_html(json.load(open(sys.argv[1])), sys.argv[2], title='report')",
    ].join('\n');
    execFileSync(python, ['-c', code, join(ROOT, 'tests/ts/fixtures/conv_converted.json'), out]);
    for (const scheme of ['dark', 'light']) {
      await withPage(browser, pathToFileURL(out).href, { width: 1000, scheme }, async (page) => {
        const bg = await page.evaluate(() => {
          const lum = (c) => {
            const [r, g, b] = c.match(/[\d.]+/g).map(Number);
            return 0.2126 * r + 0.7152 * g + 0.0722 * b;
          };
          // the page's own text (its canvas follows the page's color-scheme; the body has no background of its own)
          return {
            text: lum(getComputedStyle(document.querySelector('h1')).color),
            viewer: lum(getComputedStyle(document.querySelector('.pt2e-lens')).backgroundColor),
          };
        });
        if (scheme === 'dark') assert.ok(bg.viewer < 60 && bg.text > 180, JSON.stringify(bg));
        else assert.ok(bg.viewer > 200 && bg.text < 80, JSON.stringify(bg));
        await shot(page, `report-${scheme}`);
      });
    }
  });
});

describe('symbolic sizes and the shape guard (point 9)', () => {
  it("a dynamic batch reads `batch×…` on the nodes and torch.export's _guards_fn is not drawn (light, dark 260 px)", async () => {
    const python = process.env.PT2E_LENS_PYTHON ?? join(ROOT, '.venv', 'bin', 'python');
    const code = [
      'import json, torch, pt2e_lens as pl',
      'from pt2e_lens.examples import example_inputs, get_model',
      'batch = torch.export.Dim("batch", min=1, max=1 << 16)',
      'ep = torch.export.export(get_model("tiny").eval(), example_inputs(2), dynamic_shapes=({0: batch},))',
      'print(json.dumps(pl.show(ep).view))',
    ].join('\n');
    const env = { ...process.env, PYTHONPATH: join(ROOT, 'kernel_pkg') };
    const view = JSON.parse(execFileSync(python, ['-c', code], { env, maxBuffer: 1 << 28 }).toString('utf8'));
    const guards = view.panes[0].snapshot.nodes.filter((n) => n.target === '_guards_fn').map((n) => n.id);
    assert.ok(guards.length > 0, 'torch.export made a _guards_fn node: the check below checks something');
    for (const [scheme, width] of [
      ['light', 1300],
      ['dark', 260],
    ]) {
      await withPage(browser, writePage(`reading-dims-${scheme}.html`, [view]), { width, scheme }, async (page) => {
        const subs = await page.$$eval('.pl-node text', (ts) => ts.map((t) => t.textContent));
        // second lines are shapes (cut to the box's width): the batch dimension reads by its Dim name
        assert.ok(subs.filter((t) => /^batch×\d/.test(t)).length >= 3, subs.slice(0, 8).join('|'));
        assert.ok(!subs.some((t) => /\bs\d+×/.test(t)), 'no torch-made size names (s77×…)');
        for (const id of guards) assert.equal(await page.$(`.pl-node[data-id="${id}"]`), null, `${id} not drawn`);
        await shot(page, `dims-${scheme}-${width}`);
      });
    }
  });
});
