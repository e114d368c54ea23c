// Issue 15 point 9, "selection and drawer do not leak across stage tabs", checked the same way wherever a Run is
// drawn (static report, JupyterLab output): the selection follows to its counterpart in the stage switched to
// (from the View's diffs), centred, and the drawer shows it; with no counterpart nothing stays selected and no
// drawer shows.
// Uses tests/ts/fixtures/run.json (exported → prepared → calibrated → converted).
import assert from 'node:assert/strict';
import { nodePicker } from './pick-node.mjs';
import { idle } from './settled.mjs';

/** Click stage tab `label` of the Run drawn in `root` and wait until that stage's pane is drawn and on show. */
async function stage(page, root, label) {
  await root.locator('.pl-stage-tabs .pl-tab', { hasText: label }).click();
  await root.locator('.pl-stage-tabs .pl-tab[aria-selected="true"]', { hasText: label }).waitFor();
  // the pane on show is busy from the click on (its first layout, or Fit; then the follow's reveal) until drawn
  await idle(page, root.locator('.pl-pane:visible .pl-graph'));
}

/** What the visible stage pane shows: its selected node ids and the drawer's state. */
function visible(root) {
  return root.evaluate((r) => {
    const panes = [...r.querySelectorAll('.pl-pane')].filter((p) => p.style.display !== 'none');
    const drawers = [...r.querySelectorAll('.pl-drawer')].filter((d) => !d.hidden && d.offsetParent !== null);
    return {
      panes: panes.length,
      selected: panes.flatMap((p) => [...p.querySelectorAll('.pl-node.pl-selected')].map((e) => e.dataset.id)),
      drawers: drawers.map((d) => d.querySelector('.pl-details')?.textContent ?? ''),
    };
  });
}

/** Node `id` of the visible stage pane is drawn inside its canvas, near the middle (a quarter of its width). */
async function assertCentred(root, id) {
  const r = await root.evaluate((el, id) => {
    const pane = [...el.querySelectorAll('.pl-pane')].find((p) => p.style.display !== 'none');
    const c = pane.querySelector('.pl-canvas').getBoundingClientRect().toJSON();
    const b = pane.querySelector(`.pl-node[data-id="${id}"] rect.pl-box`)?.getBoundingClientRect().toJSON();
    return { c, b };
  }, id);
  assert.ok(r.b, `${id} drawn`);
  assert.ok(r.b.left >= r.c.left - 1 && r.b.right <= r.c.right + 1, `${id} inside the canvas: ${JSON.stringify(r)}`);
  assert.ok(r.b.top >= r.c.top - 1 && r.b.bottom <= r.c.bottom + 1, `${id} inside the canvas: ${JSON.stringify(r)}`);
  assert.ok(Math.abs((r.b.left + r.b.right) / 2 - (r.c.left + r.c.right) / 2) < r.c.width / 4, `${id} centred`);
}

/** The whole check; `shot(name)` takes a screenshot at each step worth looking at. */
export async function checkStageTabs(page, root, shot) {
  // a node is found as a user finds one the first view may not show (readable labels pan a wide graph)
  const { pick } = nodePicker(
    () => page,
    () => root.locator('.pl-pane:visible'),
  );
  await stage(page, root, 'converted');
  await pick('relu');
  await stage(page, root, 'exported');
  let v = await visible(root);
  assert.equal(v.panes, 1);
  assert.deepEqual(v.selected, ['relu'], 'the selection follows to the same node in the exported stage');
  assert.equal(v.drawers.length, 1, 'one drawer on show');
  assert.match(v.drawers[0], /relu/);
  await assertCentred(root, 'relu');
  await shot('follows');
  // a q/dq node exists only from convert on: back in exported nothing is selected and no drawer is left open
  await stage(page, root, 'converted');
  assert.deepEqual((await visible(root)).selected, ['relu'], 'and back again');
  await pick('quantize_per_tensor_default_1');
  await stage(page, root, 'exported');
  v = await visible(root);
  assert.deepEqual(v.selected, [], 'no counterpart: the selection clears');
  assert.deepEqual(v.drawers, [], 'no counterpart: the drawer closes');
  await shot('clears');
  // an observer from prepare on: prepared → calibrated keeps it, the drawer shows its statistics there
  await stage(page, root, 'prepared');
  await pick('activation_post_process_2');
  await stage(page, root, 'calibrated');
  v = await visible(root);
  assert.deepEqual(v.selected, ['activation_post_process_2']);
  assert.match(v.drawers[0], /activation_post_process_2/);
  await assertCentred(root, 'activation_post_process_2');
}
