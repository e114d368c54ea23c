// A compare at a narrow width (issue 15 point 3): its panes one above the other at the row's full width and a
// sensible height, Fit keeping every box and callout inside each pane, the panes still panning and selecting
// together; widened, side by side again; narrowed, stacked again. The same check for the static report
// (narrow.test.mjs) and a JupyterLab notebook output (narrow.lab.mjs).
import assert from 'node:assert/strict';
import { dragSpot } from './search-sync.mjs';
import { idle, settled } from './settled.mjs';

/** real_compare (residual, X86Inductor, prepared vs converted) with notes at the right of the graph */
export function notedCompare(view) {
  view.notes = [
    {
      add: 'residual 的 add：兩個輸入共用同一組 observer',
      activation_post_process_0: 'x 的 observer',
      relu_1: 'the last relu, observed before the output',
    },
    { add: 'add after convert' },
  ];
  return view;
}

const canvases = (root) =>
  root.locator('.pl-pane .pl-canvas').evaluateAll((cs) => cs.map((c) => c.getBoundingClientRect().toJSON()));

/** After Fit, every node box and note callout of a pane lies inside its canvas, left to right — in each pane whose
 * drawing is as narrow as its canvas at the panes' shared scale; a wider one (the converted stage at 260 px: 1,142
 * layout units, whole only at 0.18) is panned, and its "more ▸" edge hint says so. */
export async function checkFitInside(root) {
  const out = await root.locator('.pl-pane').evaluateAll((ps) =>
    ps.flatMap((p, i) => {
      const c = p.querySelector('.pl-canvas').getBoundingClientRect();
      const vp = p.querySelector('.pl-canvas svg > g');
      const k = Number(/scale\(([\d.e-]+)\)/.exec(vp.getAttribute('transform'))[1]);
      if (vp.getBBox().width * k > c.width)
        return p.querySelector('.pl-offscreen:not([hidden])') ? [] : [`pane ${i}: cut off, no edge hint`];
      return [...p.querySelectorAll('.pl-callout rect, .pl-node rect.pl-box')]
        .map((r) => r.getBoundingClientRect())
        .filter((b) => b.left < c.left - 1 || b.right > c.right + 1)
        .map((b) => `pane ${i}: ${b.left.toFixed(0)}…${b.right.toFixed(0)} outside ${c.left}…${c.right}`);
    }),
  );
  assert.deepEqual(out, [], 'after Fit');
}

/** The panes one above the other, each the row's full width and 300–520 px tall. */
export async function stacked(root) {
  const row = await root.locator('.pl-panes').evaluate((e) => e.getBoundingClientRect().width);
  const [a, b] = await canvases(root);
  assert.ok(b.top >= a.bottom, `pane 1 (top ${b.top}) below pane 0 (bottom ${a.bottom})`);
  for (const c of [a, b]) {
    assert.ok(c.width >= row - 4, `a stacked pane takes the row's width (${c.width} of ${row} px)`);
    assert.ok(c.height >= 300 && c.height <= 520, `a stacked pane's height ${c.height} px`);
  }
}

/** Widened: no longer pl-narrow; side by side, or (`orWhole`) stacked by the wide rule (ScaleLink: side by side would
 * cut a graph that one pane per row shows whole; the tiny model's converted stage at JupyterLab's ~950 px) at the
 * full canvas height. */
async function widened(root, orWhole) {
  const cls = await root.locator('.pl-panes').getAttribute('class');
  assert.ok(!cls.includes('pl-narrow'), cls);
  const [a, b] = await canvases(root);
  if (orWhole && cls.includes('pl-stacked')) {
    assert.ok(b.top >= a.bottom && a.height >= 500, `stacked whole: ${JSON.stringify([a, b])}`);
    return;
  }
  assert.ok(Math.abs(a.top - b.top) < 2 && b.left >= a.right, `side by side: ${JSON.stringify([a, b])}`);
}

/** The panes move together: a drag in pane 0 moves node `anchor` (in both stages) by the same screen step in both
 * panes, and selecting it marks its counterpart in pane 1. */
export async function checkSync(page, root, anchor) {
  const panes = root.locator('.pl-pane');
  const at = async () =>
    Promise.all([0, 1].map((i) => panes.nth(i).locator(`.pl-node[data-id="${anchor}"] rect.pl-box`).boundingBox()));
  const [b0, b1] = await at();
  // a press on the drawing itself, in view: on the minimap's toggle or below the window's edge nothing moves and no
  // ready signal comes (the wait below would never end)
  await panes.nth(0).locator('.pl-canvas').scrollIntoViewIfNeeded();
  const c0 = await panes.nth(0).locator('.pl-canvas').boundingBox();
  const from = await dragSpot(panes.nth(0), c0, 'left', 'bottom', 100);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  // pane 1 follows within pane 0's move (CompareSync): pane 0 settled, then both idle
  await settled(page, panes.nth(0), () => page.mouse.move(from.x + 20, from.y - 100, { steps: 6 }));
  await page.mouse.up();
  await idle(page, panes);
  const [a0, a1] = await at();
  assert.ok(Math.abs(a0.height - a1.height) < 0.5, 'same scale');
  const [d0, d1] = [
    [a0.x - b0.x, a0.y - b0.y],
    [a1.x - b1.x, a1.y - b1.y],
  ];
  assert.ok(Math.abs(d0[1]) > 50, `the drag moved pane 0 (${d0})`);
  assert.ok(Math.abs(d0[0] - d1[0]) < 1.5 && Math.abs(d0[1] - d1[1]) < 1.5, `pane 1 moved as pane 0: ${d1} / ${d0}`);
  // selected as a reader finds it (the search box's Enter: the node may be panned out of view by now)
  const input = panes.nth(0).locator('.pl-toolbar input[type="search"]');
  await input.fill(anchor);
  // Enter selects the hit: pane 1 shows its counterpart (sync) and both settle
  await settled(page, panes, () => input.press('Enter'));
  const picked = await panes.nth(1).locator(`.pl-node[data-id="${anchor}"]:is(.pl-counterpart, .pl-selected)`).count();
  assert.equal(picked, 1, "the selection's counterpart is marked in pane 1");
  await input.fill('');
  await panes.nth(0).locator('.pl-drawer-close').click();
}

/** Starts with `root` narrow; `toWide()` / `toNarrow()` give the output a wide / another narrow width; `shot(step)`
 * takes a picture; `orWhole`: widened, the wide rule may stack the panes too (widened()). */
export async function checkStacking(page, root, { anchor = 'conv2d_1', toWide, toNarrow, shot, orWhole = false }) {
  const panes = root.locator('.pl-pane');
  const refit = () =>
    settled(page, panes, async () => {
      for (const i of [0, 1])
        await root.locator(`.pl-pane[data-pane="${i}"] .pl-toolbar > button.pl-btn`).first().click();
    });
  // the row's ResizeObserver has (un)stacked the panes; what their own ResizeObservers started is done
  const arranged = async (narrow) => {
    await page.waitForFunction(
      ([row, narrow]) => row.classList.contains('pl-narrow') === narrow,
      [await root.locator('.pl-panes').elementHandle(), narrow],
      { timeout: 0 },
    );
    await idle(page, panes);
  };
  await stacked(root);
  await checkFitInside(root);
  await shot('stacked');
  await checkSync(page, root, anchor);
  await toWide();
  await arranged(false);
  await widened(root, orWhole);
  await refit();
  await checkFitInside(root);
  await shot('side');
  await toNarrow();
  await arranged(true);
  await stacked(root);
  await refit();
  await checkFitInside(root);
  await shot('stacked-again');
}
