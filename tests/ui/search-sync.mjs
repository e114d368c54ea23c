// Issue 15 points 3 and 4 on a real capture, checked the same way wherever the views are drawn (JupyterLab notebook
// outputs with a kernel, the static report): the search box's `key:value` filters and the overlay threshold select
// the nodes torchao's own graphs say (module from `nn_module_stack`, annotating quantizer from the
// `quantization_annotation` torchao's annotate left, sharing group from the observer module instances prepare_pt2e
// put in, int8 from the q/dq ops' dtype argument), the Worst button picks
// the lowest SQNR the kernel measured; in a compare, closing a group, selecting a node and zooming in one pane does
// the same in the other. FACTS_CODE makes the capture and those facts; its three views follow as VIEWS.
import assert from 'node:assert/strict';
import { idle, paneOf, settled } from './settled.mjs';

/** Python (a kernel cell, or `python -c`): captures the tiny model with ConvQuantizer and prints `FACTS {json}`. */
export const FACTS_CODE = `import json, torch, pt2e_lens as pl
pl.quiet()
from pt2e_lens.examples import get_model, example_inputs, calibration_batches, ConvQuantizer
quantizer = ConvQuantizer()
run = pl.capture(get_model('tiny').eval(), example_inputs(), quantizer, calibration=calibration_batches(1))
prep, conv = run['prepared'], run['converted']
acc = pl.accuracy(run, calibration_batches(2))
sqnr = pl.show(conv, overlay=acc).view['panes'][0]['overlay']['values']
def in_module(gm, path):
    return sorted(n.name for n in gm.graph.nodes
                  if any(p == path or p.startswith(path + '.') for p, _ in (n.meta.get('nn_module_stack') or {}).values()))
QDQ = ('quantize_per_tensor', 'dequantize_per_tensor', 'quantize_per_channel', 'dequantize_per_channel')
values = sorted(v for v in sqnr.values() if isinstance(v, float))
threshold = round((values[3] + values[4]) / 2, 2)  # between the 4th and 5th lowest: four hits
prep_names = {n.name for n in prep.graph_module.graph.nodes}
conv_names = {n.name for n in conv.graph_module.graph.nodes}
FACTS = {
    'module': ['block.0', in_module(prep.graph_module, 'block.0')],
    'quantizer': sorted(n.name for n in prep.graph_module.graph.nodes if 'quantization_annotation' in n.meta),
    'int8': sorted(n.name for n in conv.graph_module.graph.nodes
                   if any(q in str(n.target) for q in QDQ) and torch.int8 in n.args),
    'threshold': threshold,
    'below': sorted(k for k, v in sqnr.items() if isinstance(v, float) and v < threshold),
    'worst': min((v, k) for k, v in sqnr.items() if isinstance(v, float))[1],
    # in both stages by name: the compare's counterparts
    'both': sorted(prep_names & conv_names),
    'group': 'stem',
    'observers': [n.name for n in prep.graph_module.graph.nodes
                  if n.op == 'call_module' and n.target.startswith('activation_post_process')],
}
# sharing groups as prepare_pt2e made them: one observer module instance each, numbered in graph order; a group's
# nodes are its observer nodes and the node the first of them observes (past any observer before it)
shared = {}
for n in prep.graph_module.graph.nodes:
    if n.name in FACTS['observers']:
        shared.setdefault(id(getattr(prep.graph_module, n.target)), []).append(n)
def observed(n):
    while n.name in FACTS['observers']:
        n = n.args[0]
    return n.name
FACTS['groups'] = [sorted({*(o.name for o in obs), observed(obs[0])}) for obs in shared.values()]
print('FACTS', json.dumps(FACTS))`;

/** The three views the checks read, as kernel cells (each displays one) and as expressions for `.view`. */
export const VIEWS = ['pl.show(prep)', 'pl.show(conv, overlay=acc)', 'pl.compare(prep, conv)'];

/** The ids the search box hits for `query` in the output `root` (a Locator of one `.pt2e-lens`). */
async function hits(page, root, query) {
  const input = root.locator('.pl-toolbar input[type="search"]').first();
  // the search runs after a pause in typing: its pane settles once the hits are marked
  await settled(page, paneOf(input), () => input.fill(query));
  return root.locator('.pl-node.pl-match').evaluateAll((ns) => ns.map((n) => n.dataset.id).sort());
}

/** Point 4 on the prepared stage (`prep`: module, quantizer, group) and the converted stage with its SQNR overlay (`heat`). */
export async function checkFilters(page, prep, heat, facts) {
  const [path, inModule] = facts.module;
  assert.ok(inModule.length > 3, `torch.export put ${inModule.length} nodes in ${path}`);
  assert.deepEqual(await hits(page, prep, `module:${path}`), inModule, `module:${path}`);
  assert.ok(facts.quantizer.length > 3);
  assert.deepEqual(await hits(page, prep, 'quantizer:convquantizer'), facts.quantizer, 'quantizer:');
  assert.deepEqual(await hits(page, prep, 'quantizer:xnnpack'), [], 'a quantizer that did not run');
  // group:N, the sharing group prepare_pt2e made: the one with the most nodes, the last, and one past the last
  const { groups } = facts;
  assert.ok(groups.length >= 5, `${groups.length} sharing groups`);
  const most = groups.reduce((m, g, i) => (g.length > groups[m].length ? i : m), 0);
  for (const n of new Set([most, groups.length - 1]))
    assert.deepEqual(await hits(page, prep, `group:${n}`), groups[n], `group:${n}`);
  assert.deepEqual(await hits(page, prep, `group:${groups.length}`), [], 'no such group');
  await prep.locator('.pl-toolbar input[type="search"]').fill('');
  assert.ok(facts.int8.length > 3);
  assert.deepEqual(await hits(page, heat, 'dtype:int8'), facts.int8, 'dtype:int8');
  assert.deepEqual(await hits(page, heat, `sqnr<${facts.threshold}`), facts.below, `sqnr<${facts.threshold}`);
  assert.equal(facts.below.length, 4);
  await heat.locator('.pl-toolbar input[type="search"]').fill('');
  // Worst: selects and centres the lowest SQNR
  await settled(page, heat, () => heat.locator('button.pl-worst').click());
  const sel = await heat.locator('.pl-node.pl-selected').evaluateAll((ns) => ns.map((n) => n.dataset.id));
  assert.deepEqual(sel, [facts.worst]);
  const c = await heat.locator('.pl-canvas').boundingBox();
  const b = await heat.locator(`.pl-node[data-id="${facts.worst}"] rect.pl-box`).boundingBox();
  assert.ok(b.x >= c.x - 1 && b.x + b.width <= c.x + c.width + 1, 'the worst node is in view');
  assert.ok(b.y >= c.y - 1 && b.y + b.height <= c.y + c.height + 1, 'the worst node is in view');
  await heat.locator('.pl-drawer-close').first().click();
}

const scaleOf = (pane) =>
  pane
    .locator('.pl-viewport')
    .getAttribute('transform')
    .then((t) => Number(/scale\(([\d.e-]+)\)/.exec(t)[1]));

/** A pane's view transform as drawn (translate and scale of its viewport). */
const viewOf = (pane) =>
  pane
    .locator('.pl-viewport')
    .getAttribute('transform')
    .then((t) => {
      const [, x, y, k] = /translate\(([\d.e-]+),([\d.e-]+)\) scale\(([\d.e-]+)\)/.exec(t).map(Number);
      return { x, y, k };
    });

/** Point 3 on `pl.compare(prep, conv)` (`root`): a group closed and opened again, a node selected, a zoom in pane 0
 * → the same in pane 1. */
export async function checkCompareSync(page, root, facts, shot) {
  const panes = [0, 1].map((i) => root.locator(`.pl-pane[data-pane="${i}"]`));
  const group = (i) => panes[i].locator(`.pl-group[data-group="${facts.group}"]`);
  const closed = async (i) => group(i).evaluate((g) => g.classList.contains('pl-collapsed'));
  assert.deepEqual([await closed(0), await closed(1)], [false, false], `${facts.group} starts open in both`);
  await clickTitle(page, panes[0], facts.group);
  await page.waitForFunction(
    ([r, key]) =>
      [...document.querySelectorAll(r)].every((p) =>
        p.querySelector(`.pl-group[data-group="${key}"]`)?.classList.contains('pl-collapsed'),
      ),
    [`${await paneSelector(root)}`, facts.group],
  );
  await idle(page, root); // both redraws fitted and painted
  await shot('closed');
  await clickTitle(page, panes[0], facts.group); // and open again
  await page.waitForFunction(
    ([r, key]) =>
      [...document.querySelectorAll(r)].every(
        (p) => !p.querySelector(`.pl-group[data-group="${key}"]`)?.classList.contains('pl-collapsed'),
      ),
    [`${await paneSelector(root)}`, facts.group],
  );
  await idle(page, root);
  // select in pane 0 (found by name, then clicked): the same node is marked and its details shown in pane 1
  const id = 'add';
  assert.ok(facts.both.includes(id), `${id} is in both stages`);
  const input = panes[0].locator('.pl-toolbar input[type="search"]');
  await input.fill(id);
  await settled(page, panes[0], () => input.press('Enter'));
  // cleared: the results bar goes (the canvas moves up) before the click is aimed
  await settled(page, panes[0], () => input.fill(''));
  await panes[0].locator(`.pl-node[data-id="${id}"]`).click();
  await panes[1].locator(`.pl-node[data-id="${id}"].pl-counterpart`).waitFor();
  await idle(page, root); // pane 1's reveal centred it
  assert.match(await panes[1].locator('.pl-drawer:not([hidden]) .pl-details h4').first().textContent(), /^add\b/);
  await shot('selected');
  // the counterpart is centred at pane 0's scale (not raised to a readable one of its own)
  const [s0, s1] = [await scaleOf(panes[0]), await scaleOf(panes[1])];
  assert.ok(Math.abs(s0 - s1) < 1e-6, `both panes at one scale after a selection (${s0} vs ${s1})`);
  // a drag that starts on the selected node pans pane 0, and pane 1 the same way by the same screen amount (also
  // when the node nearest the view's centre changes on the way, whose counterpart sits elsewhere in pane 1)
  const before = [await viewOf(panes[0]), await viewOf(panes[1])];
  const nb = await panes[0].locator(`.pl-node[data-id="${id}"] rect.pl-box`).boundingBox();
  const cv = await panes[0].locator('.pl-canvas').boundingBox();
  const dr = await panes[0].locator('.pl-drawer').boundingBox();
  const right = Math.min(cv.x + cv.width, dr && dr.y < cv.y + cv.height ? dr.x : Infinity);
  const [sx, sy] = [nb.x + Math.min(nb.width / 2, 10), nb.y + nb.height / 2];
  const dx = sx + 50 < right ? 40 : -40;
  const dy = sy - 100 > cv.y ? -90 : 90;
  // the press lands on the node itself (no drawer or button over it): a press elsewhere pans nothing, no signal comes
  const onNode = await panes[0].evaluate(
    (p, [x, y, id]) => {
      const e = p.ownerDocument.elementFromPoint(x, y)?.closest('.pl-node');
      return !!e && p.contains(e) && e.dataset.id === id;
    },
    [sx, sy, id],
  );
  assert.ok(onNode, `${id} takes the press at ${sx},${sy}: ${JSON.stringify({ nb, cv, dr })}`);
  await page.mouse.move(sx, sy);
  await page.mouse.down();
  await settled(page, panes[0], async () => {
    await page.mouse.move(sx + dx / 2, sy + dy / 2, { steps: 4 });
    await page.mouse.move(sx + dx, sy + dy, { steps: 4 });
  });
  await page.mouse.up();
  await idle(page, root); // pane 1 follows within pane 0's moves
  const moved = [0, 1].map((i) => viewOf(panes[i]).then((v) => [v.x - before[i].x, v.y - before[i].y]));
  const [m0, m1] = await Promise.all(moved);
  const by = (m) => Math.abs(m[0] - dx) < 1.5 && Math.abs(m[1] - dy) < 1.5;
  assert.ok(by(m0), `pane 0 panned by ${m0} for a ${dx},${dy} px drag`);
  assert.ok(by(m1), `pane 1 followed by ${m1} for a ${dx},${dy} px drag`);
  await panes[0].locator('.pl-drawer-close').click();
  // zoom pane 0 (Ctrl+wheel): pane 1 takes the same scale
  const k0 = await scaleOf(panes[0]);
  const c = await panes[0].locator('.pl-canvas').boundingBox();
  await page.mouse.move(c.x + c.width / 2, c.y + c.height / 2);
  await page.keyboard.down('Control');
  await settled(page, panes[0], () => page.mouse.wheel(0, -300));
  await page.keyboard.up('Control');
  await idle(page, root); // pane 1 takes the scale within pane 0's zoom
  const [a, b] = [await scaleOf(panes[0]), await scaleOf(panes[1])];
  assert.ok(a > k0 * 1.05, `pane 0 zoomed in (${k0} → ${a})`);
  assert.ok(Math.abs(a - b) < 1e-6, `pane 1 at pane 0's scale (${a} vs ${b})`);
  await root.locator('button.pl-btn', { hasText: /^Fit$/ }).first().click();
}

/** Click group `key`'s title where the user sees it (the group's own, or zoomed out its plate over the drawing), at
 * its middle on screen: whatever is on top there gets the click, as it would a user's. Out of the pane's view (a
 * narrow pane) the user first drags it into view. */
async function clickTitle(page, pane, key) {
  const where = async () => {
    const zoomed = await pane.locator('svg.pl-zoomed').count();
    const sel = zoomed ? `.pl-zlabel[data-group="${key}"] text` : `.pl-group[data-group="${key}"] > .pl-glabel`;
    const b = await pane.locator(sel).boundingBox();
    return { x: b.x + Math.min(b.width / 2, 20), y: b.y + b.height / 2 };
  };
  await pane.locator('.pl-canvas').scrollIntoViewIfNeeded();
  const c = await pane.locator('.pl-canvas').boundingBox();
  let at = await where();
  const inside = (p) => p.x > c.x + 4 && p.x < c.x + c.width - 4 && p.y > c.y + 4 && p.y < c.y + c.height - 4;
  // drags that start and end inside the canvas (a pan follows the pointer only while it is over the pane)
  for (let i = 0; i < 8 && !inside(at); i++) {
    const step = (d, room) => Math.max(-room, Math.min(room, d));
    const dx = step(c.x + c.width / 2 - at.x, c.width - 16);
    const dy = step(c.y + 40 - at.y, c.height - 16);
    // from near the edge the drag moves away from (a margin, seldom a node), where the drawing takes the press
    const from = await dragSpot(pane, c, dx > 0 ? 'left' : 'right', dy > 0 ? 'top' : 'bottom');
    const to = { x: clampIn(from.x + dx, c.x, c.width), y: clampIn(from.y + dy, c.y, c.height) };
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await settled(page, pane, () => page.mouse.move(to.x, to.y, { steps: 6 }));
    await page.mouse.up();
    at = await where();
  }
  assert.ok(inside(at), `${key}'s title dragged into view: ${JSON.stringify({ at, c })}`);
  await page.mouse.click(at.x, at.y);
}

/** `v` kept 4 px inside the span [lo, lo + size] (a drag ends over the canvas: the pan follows only there). */
const clampIn = (v, lo, size) => Math.max(lo + 4, Math.min(lo + size - 4, v));

/** A point of canvas `c`, nearest its corner at `sx`/`sy`, where a press starts a pan: in the window and on the drawing,
 * not on a control laid over the canvas that takes the press for itself (the "◂ more" / "more ▸" buttons at its top
 * corners and "more ▾" at its bottom right, the minimap and its toggle at its bottom left, the drawer): a press there
 * moves nothing, and no ready signal comes. At a narrow width the minimap covers most of a corner, and the window
 * may cut the canvas: the whole canvas is searched, on a 12 px grid. `up`: px the drag goes up from it, which must
 * stay on the canvas. */
export async function dragSpot(pane, c, sx, sy, up = 0) {
  const pts = [];
  for (let oy = 6; oy < c.height - 6; oy += 12)
    for (let ox = 6; ox < c.width - 6; ox += 12) {
      const x = sx === 'left' ? c.x + ox : c.x + c.width - ox;
      const y = sy === 'top' ? c.y + oy : c.y + c.height - oy;
      if (y - up > c.y + 4) pts.push({ x, y, d: ox * ox + oy * oy });
    }
  pts.sort((a, b) => a.d - b.d);
  const i = await pane.evaluate((p, pts) => {
    const canvas = p.querySelector('.pl-canvas');
    const win = p.ownerDocument.defaultView;
    return pts.findIndex(({ x, y }) => {
      if (x < 0 || y < 0 || x >= win.innerWidth || y >= win.innerHeight) return false; // outside the window
      const e = p.ownerDocument.elementFromPoint(x, y);
      return !!e && e.closest('.pl-canvas') === canvas && !e.closest('button, .pl-minimap, .pl-drawer');
    });
  }, pts);
  assert.ok(i >= 0, `a spot of the drawing to press on the canvas, nearest its ${sy} ${sx}: ${JSON.stringify(c)}`);
  return { x: pts[i].x, y: pts[i].y };
}

/** A CSS selector for the panes of `root`, for waitForFunction (which takes no Locator). */
async function paneSelector(root) {
  const mark = await root.evaluate((r) => {
    r.dataset.syncCheck ??= String(Math.random()).slice(2);
    return r.dataset.syncCheck;
  });
  return `.pt2e-lens[data-sync-check="${mark}"] .pl-pane`;
}
