// What a reader sees first of real models in the static report, light and dark, at the side panel's default
// width (280 px): a wide ExportedProgram shows its computation, not an empty middle under its row of buffers
// (brief 2); a decoder a few columns wide starts at its top at a readable scale (labels >= 11 px, issue 26 point 4;
// it was fitted whole at 0.3, labels at 4 px) and is panned for the rest, each closed group under its own title
// (brief 3); a big Run's quantization specs fold to one chip with their count, in zh-TW
// too (brief 4). Models made here: bench/models.py's resnet exported (its BatchNorms' num_batches_tracked
// buffers, used by no op, make a row as wide as 9 nodes) and a 4-block decoder captured with torchao's XNNPACK
// quantizer. Screenshots: artifacts/first-view-*.png.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { launch } from './browser.mjs';
import { checkClosedTitles, closedTitles } from './closed-titles.mjs';
import { ARTIFACTS, ROOT, writePage } from './pages.mjs';
import { readable } from './readable.mjs';
import { settled } from './settled.mjs';
import { eachPage, withPage } from './with-page.mjs';

const CODE = `import json, sys, torch
sys.path.insert(0, 'bench')
import pt2e_lens as pl
pl.quiet()
from models import build, calibration, export
from pt2e_lens.examples import xnnpack_quantizer
ep = export('resnet', 4)
m, inp = build('decoder', 4)
run = pl.capture(m, inp, xnnpack_quantizer(), calibration=calibration('decoder', 1, inp))
pl.set_locale('zh-TW')
run_zh = pl.show(run).view
pl.set_locale(None)
print(json.dumps({'ep': pl.show(ep).view, 'run': pl.show(run).view, 'run_zh': run_zh}))`;

let browser;
let views;
before(async () => {
  const python = process.env.PT2E_LENS_PYTHON ?? join(ROOT, '.venv', 'bin', 'python');
  const env = { ...process.env, PYTHONPATH: join(ROOT, 'kernel_pkg') };
  views = JSON.parse(execFileSync(python, ['-c', CODE], { env, cwd: ROOT, maxBuffer: 1 << 28 }).toString('utf8'));
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const shot = (page, name, fullPage = false) =>
  page.screenshot({ path: join(ARTIFACTS, `first-view-${name}.png`), fullPage });

/** Boxes of the pane on show inside its canvas (at least half of each box), by node role; closed groups too. */
const onScreen = (page) =>
  page.evaluate(() => {
    const pane = [...document.querySelectorAll('.pl-pane')].find((p) => p.style.display !== 'none');
    const c = pane.querySelector('.pl-canvas').getBoundingClientRect();
    const inside = (r) =>
      Math.min(r.right, c.right) - Math.max(r.left, c.left) >= r.width / 2 && r.top >= c.top && r.bottom <= c.bottom;
    const nodes = [...pane.querySelectorAll('.pl-node')].filter((n) =>
      inside(n.querySelector('rect').getBoundingClientRect()),
    );
    // the drawing's extent: its boxes (zoomed-out titles may reach past them)
    const rs = [...pane.querySelectorAll('.pl-node rect.pl-box, .pl-group rect.pl-gbox')].map((r) =>
      r.getBoundingClientRect(),
    );
    const vp = { left: Math.min(...rs.map((r) => r.left)), right: Math.max(...rs.map((r) => r.right)) };
    return {
      roles: nodes.map((n) => [...n.classList].find((k) => k.startsWith('pl-role-')).slice(8)),
      ids: nodes.map((n) => n.dataset.id),
      drawing: { left: vp.left, right: vp.right },
      canvas: { left: c.left, right: c.right },
    };
  });

describe('a wide ExportedProgram first shows its computation (brief 2)', () => {
  eachPage(
    () => browser,
    { light: [280, 800], dark: [280] },
    (scheme, width) => {
      const snap = views.ep.panes[0].snapshot;
      const unused = snap.nodes.filter((n) => n.id.endsWith('num_batches_tracked'));
      assert.ok(unused.length >= 8, 'the row that makes the drawing wide is there');
      return { url: writePage(`first-view-ep-${scheme}-${width}.html`, [views.ep]), snap };
    },
    async (page, { scheme, width, snap }) => {
      const s = await onScreen(page);
      // the first op (the stem's conv2d) and the input it reads, with more of the computation below them
      const first = snap.nodes.find((n) => n.role === 'compute' && n.target !== '_guards_fn').id;
      assert.ok(s.ids.includes(first), `${first} on screen: ${s.ids.join(' ')}`);
      assert.ok(s.ids.includes('x'), 'the input on screen');
      // at labels of >= 11 px (issue 26 point 4) a 520 px pane holds the stem's conv2d and the first block's
      assert.ok(s.roles.filter((r) => r === 'compute').length >= 2, s.ids.join(' '));
      assert.ok(s.drawing.right - s.drawing.left > s.canvas.right - s.canvas.left, 'wider than its pane: panned');
      // and each side with drawing past the view's edge says so; its button pans there until nothing is left
      const hint = (side) => page.locator(`.pl-pane:visible .pl-offscreen-${side}`);
      for (const side of ['left', 'right'])
        assert.equal(
          await hint(side).isVisible(),
          s.drawing[side] < s.canvas.left - 12 || s.drawing[side] > s.canvas.right + 12,
          side,
        );
      const side = (await hint('right').isVisible()) ? 'right' : 'left';
      const other = side === 'right' ? 'left' : 'right';
      assert.equal(await hint(side).isVisible(), true, 'some of the drawing is past an edge');
      await shot(page, `ep-${scheme}-${width}`);
      for (let i = 0; i < 12 && (await hint(side).isVisible()); i++) await hint(side).click();
      const end = await onScreen(page);
      if (side === 'right') assert.ok(end.drawing.right <= end.canvas.right + 12, JSON.stringify(end));
      else assert.ok(end.drawing.left >= end.canvas.left - 12, JSON.stringify(end));
      assert.equal(await hint(other).isVisible(), true, `now the rest is to the ${other}`);
    },
  );
});

describe('a decoder a few columns wide at 280 px (brief 3, issue 26 point 4)', () => {
  eachPage(
    () => browser,
    { light: [280], dark: [280] },
    (scheme) => writePage(`first-view-run-${scheme}.html`, [views.run]),
    async (page, { scheme }) => {
      const s = await onScreen(page);
      const [p] = await page.locator('.pl-pane:visible').evaluate(readable);
      // readable text first: labels at >= 11 px, the drawing panned (not shrunk to 4 px as the width fit did)
      assert.ok(p.smallest >= 11 - 0.01, `labels at ${p.smallest} px`);
      assert.deepEqual(p.over, [], 'no group title over a node');
      assert.equal(p.zoomTitles, 0, 'no zoomed-out titles at the first view');
      assert.ok(s.drawing.right - s.drawing.left > s.canvas.right - s.canvas.left, 'wider than its pane: panned');
      const hints = page.locator('.pl-pane:visible .pl-offscreen:visible');
      assert.ok((await hints.count()) >= 1, 'an edge says more of the drawing lies past it');
      // it starts at its top: the first row of boxes on show, its closed groups titled by their own titles
      const titles = await closedTitles(page.locator('.pl-pane:visible'));
      const seen = titles.filter((t) => t.box.right > s.canvas.left && t.box.left < s.canvas.right);
      for (const t of ['tok', 'pos'])
        assert.ok(
          titles.some((x) => x.key === t),
          `${t} is a closed group`,
        );
      assert.ok(seen.length >= 1, 'a closed group on show');
      for (const t of seen) assert.ok(t.label.length > 0, `${t.key} has its title`);
      await shot(page, `run-${scheme}`);
      // zoomed out by the reader to its whole width: every closed group keeps a title, none hidden by a neighbour
      const box = await page.locator('.pl-pane:visible .pl-canvas').boundingBox();
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 3);
      const pane = page.locator('.pl-pane:visible .pl-graph');
      const wide = async () => ((d) => d.right - d.left)((await onScreen(page)).drawing) > 260;
      for (let i = 0; i < 8 && (await wide()); i++) {
        await page.keyboard.down('Control');
        await settled(page, pane, () => page.mouse.wheel(0, 200));
        await page.keyboard.up('Control');
      }
      checkClosedTitles(await closedTitles(page.locator('.pl-pane:visible')), 8);
      await shot(page, `run-zoomed-out-${scheme}`);
    },
    (scheme) =>
      `${scheme}: labels at >= 11 px, panned from its top, no title over a node; zoomed out, every closed group titled`,
  );
});

describe("a big Run's specs fold to one chip (brief 4)", () => {
  for (const [scheme, key, words] of [
    ['light', 'run', /^▸ (\d+) quantization specs$/],
    ['dark', 'run_zh', /^▸ (\d+) 個量化 spec$/],
  ]) {
    it(`${scheme}, ${key}`, async () => {
      const view = structuredClone(views[key]);
      const specs = view.panes.at(-1).snapshot.specs;
      assert.ok(specs.length > 6, `${specs.length} specs`);
      // a spec id is the JSON's text: it must show as text
      specs[0].id = '<img src=x onerror="window.pwned=1">';
      for (const a of view.panes.at(-1).snapshot.annotations)
        for (const i of a.inputs) if (i.spec === 's0') i.spec = specs[0].id;
      await withPage(
        browser,
        writePage(`first-view-legend-${scheme}.html`, [view]),
        { width: 280, scheme },
        async (page) => {
          const legend = page.locator('.pl-pane:visible .pl-legend');
          await legend.locator('.pl-legend-toggle').click(); // unfolded (the panel's width folds the legend)
          const chip = legend.locator('.pl-legend-specfold');
          assert.equal(await chip.count(), 1);
          const m = (await chip.textContent()).match(words);
          assert.ok(m, await chip.textContent());
          assert.equal(Number(m[1]), specs.length);
          assert.equal(await legend.locator('.pl-legend-spec:visible').count(), 0, 'folded: no chip per spec');
          await shot(page, `legend-${scheme}`, true);
          await chip.click();
          assert.equal(await chip.getAttribute('aria-expanded'), 'true');
          assert.equal(await legend.locator('.pl-legend-spec:visible').count(), specs.length);
          assert.ok((await legend.textContent()).includes(specs[0].id), 'the hostile id shows as text');
          assert.equal(await page.locator('.pl-legend img').count(), 0);
          assert.equal(await page.evaluate(() => window.pwned), undefined);
          await shot(page, `legend-open-${scheme}`, true);
          await chip.click();
          assert.equal(await legend.locator('.pl-legend-spec:visible').count(), 0, 'folded again');
        },
      );
    });
  }
});
