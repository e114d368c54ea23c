// No label runs past its box (labelfit brief), static report, light and dark, 280 px and wide: a graph whose ops,
// modules and classes have long ASCII, decomposed, zh-TW, unbreakable and hostile names (drawer-fit.mjs's plus
// more), with spec badges, outcome pills, sharing-group chips, a heat bar and closed groups' badges, drawn by the
// SVG painter and by the canvas painter (the threshold set to 0), groups open and closed: every text's box lies
// inside its node or group frame (text-boxes.mjs) — on screen in SVG, in the canvas's measured fillText calls and
// in its Export "SVG". Screenshots: tests/ui/artifacts/label-fit-*.png.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import { launch } from './browser.mjs';
import { longNames } from './drawer-fit.mjs';
import { ARTIFACTS, fixture, ROOT, writePage } from './pages.mjs';
import { settled } from './settled.mjs';
import { canvasTextsOutside, exportTextsOutside, installTextChecks, svgTextsOutside } from './text-boxes.mjs';
import { eachPage } from './with-page.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const NAMES = [
  'features.denseblock4.denselayer16.conv2',
  'aten._native_batch_norm_legit_no_training.default',
  '殘差區塊的加法運算節點與其後的整流線性單元',
  'ConvQuantizerComposableX86InductorQuantizerLinearQuantizerObserver',
  '<img src=x onerror=alert(1)>\u202eWWWWWWWWWWWWWWWWWWWWWWWW',
];

/** conv_prepared in zh-TW with long names everywhere a box says something: ops, modules, classes; a backend's
 * pills and an overlay's heat bar on the compute nodes. */
function hostileView() {
  const { view } = longNames(fixture('conv_prepared.json'));
  const snap = view.panes[0].snapshot;
  const compute = snap.nodes.filter((n) => n.role === 'compute');
  compute.forEach((n, i) => {
    n.target = NAMES[i % NAMES.length];
    if (n.module_stack.length) n.module_stack[n.module_stack.length - 1][1] = NAMES[(i + 2) % NAMES.length];
  });
  for (const n of snap.nodes.filter((x) => x.module_stack[0]?.[0] === 'head'))
    n.module_stack[0][1] = '分類頭部模組的類別名稱非常非常長而且沒有任何可以斷行的地方';
  const outcome = { outcome: 'delegated-int8', kernel: null, reason: null, annotated: true };
  snap.backend = {
    name: 'xnnpack',
    options: {},
    nodes: Object.fromEntries(compute.map((n) => [n.id, outcome])),
    counts: {},
  };
  const values = Object.fromEntries(compute.map((n, i) => [n.id, 12 + 4 * i]));
  view.panes[0].overlay = { name: 'SQNR', unit: 'dB', higher_is_better: true, values };
  return view;
}

const shot = (page, name) => page.screenshot({ path: join(ARTIFACTS, `label-fit-${name}.png`), fullPage: true });

/** the one pane: its ready signal says when a change is drawn (the canvas's crisp draw done) */
const pane = (page) => page.locator('.pl-graph').first();

/** the toolbar's words in the view's locale (longNames makes it zh-TW) */
const ZH = JSON.parse(readFileSync(join(ROOT, 'kernel_pkg/pt2e_lens/locales/zh-TW.json'), 'utf8'));
const button = (page, key) =>
  settled(page, pane(page), () => page.locator('button.pl-btn', { hasText: ZH[key] }).first().click());

/** At zoom 1 on the first compute node (every text drawn), then at Fit (zoomed-out titles in a narrow pane). */
async function eachZoom(page, check) {
  for (const how of ['zoom 1', 'fit']) {
    await settled(page, pane(page), () =>
      page.evaluate((how) => {
        const gv = window.__h.panes[0];
        window.__texts = [];
        if (how === 'fit') gv.panZoom.fit();
        else {
          const b = gv.placement.boxes.get('n:conv2d') ?? [...gv.placement.boxes.values()][0];
          gv.panZoom.centerOn(b.x, b.y, 0, 1);
        }
      }, how),
    );
    await check(how);
  }
}

const expectInside = ({ checked, out }, what, least) => {
  assert.ok(checked >= least, `${what}: ${checked} texts checked`);
  assert.deepEqual(out, [], `${what}: texts past their box`);
};

describe('every label, second line, chip, badge and group title inside its box', () => {
  eachPage(
    () => browser,
    { light: [1300, 280], dark: [1300, 280] },
    (scheme, width) => writePage(`label-fit-${scheme}-${width}.html`, []),
    async (page, { scheme, width }) => {
      await page.evaluate(async (doc) => {
        const host = document.createElement('div');
        document.body.appendChild(host);
        window.__h = window.pt2eLens.render(host, doc, { height: 560 });
        await window.__h.ready;
      }, hostileView());
      await installTextChecks(page);
      const tag = `${scheme}-${width}`;
      // SVG: groups open (a small graph opens expanded), then closed with their badges
      for (const groups of ['open', 'closed']) {
        if (groups === 'closed') await button(page, 'ui.collapse_all');
        await eachZoom(page, async (how) => {
          assert.equal(await page.evaluate(() => window.__h.panes[0].canvasMode), false);
          expectInside(await svgTextsOutside(page), `svg, ${groups}, ${how}`, how === 'fit' ? 1 : 8);
          if (how === 'fit') await shot(page, `svg-${groups}-${tag}`);
        });
      }
      // canvas: the same scene past a threshold of 0
      await page.evaluate(() => {
        window.__h.panes[0].canvasThreshold = 0;
      });
      for (const groups of ['open', 'closed']) {
        await button(page, groups === 'open' ? 'ui.expand_all' : 'ui.collapse_all');
        await eachZoom(page, async (how) => {
          assert.equal(await page.evaluate(() => window.__h.panes[0].canvasMode), true);
          const least = how === 'fit' ? 0 : 8;
          expectInside(await canvasTextsOutside(page), `canvas, ${groups}, ${how}`, least);
          expectInside(await exportTextsOutside(page), `canvas export, ${groups}, ${how}`, least);
          if (how === 'zoom 1') await shot(page, `canvas-${groups}-${tag}`);
        });
      }
    },
  );
});
