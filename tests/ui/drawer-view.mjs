// Where the details drawer opens (issue 26.4: "a clicked node's details show where the user is looking, not below
// the fold"): inside the window and over the canvas; beside a wide pane's canvas it takes at most a third of its
// width, across a narrow one (≤ 720 px) at most 60 % of the canvas's part on show, clear of the selected node. Shared
// by the static report's and JupyterLab's tests.
import assert from 'node:assert/strict';

/** The open drawer under `root` (a Locator of a view or pane), the canvas, the selected node and the window. */
export const drawerRects = (root) =>
  root.evaluate((v) => {
    const dr = v.querySelector('.pl-drawer:not([hidden])');
    const box = (e) => e?.getBoundingClientRect().toJSON() ?? null;
    return {
      d: box(dr),
      c: box(dr?.closest('.pl-stage')?.querySelector('.pl-canvas')),
      sel: box(v.querySelector('.pl-node.pl-selected rect.pl-box')),
      across: !!dr && getComputedStyle(dr).getPropertyValue('--pl-drawer-across').trim() === '1',
      win: { top: 0, bottom: innerHeight },
    };
  });

/** The drawer lies across the canvas (a narrow pane). */
export const across = ({ d, c }) => d.width >= c.width - 2;

/** Assert the drawer under `root` is where the user looks; returns its rectangles. */
export async function checkDrawerInView(root) {
  const r = await drawerRects(root);
  const { d, c, sel, win } = r;
  assert.ok(d && c, 'an open drawer over a canvas');
  const shown = { top: Math.max(c.top, win.top), bottom: Math.min(c.bottom, win.bottom) };
  const at = JSON.stringify({ d, c, sel, win });
  assert.ok(d.top >= shown.top - 1 && d.bottom <= shown.bottom + 1, `the drawer inside the canvas on show: ${at}`);
  assert.ok(d.left >= c.left - 1 && d.right <= c.right + 1, `the drawer over the canvas: ${at}`);
  if (r.across) {
    assert.ok(across(r), `across the narrow canvas: ${at}`);
    assert.ok(d.height <= Math.max(96, (shown.bottom - shown.top) * 0.6) + 1, `at most 60 % of the canvas: ${at}`);
    if (sel)
      assert.ok(sel.bottom <= d.top + 1 || sel.top >= d.bottom - 1, `the selected node clear of the drawer: ${at}`);
  } else assert.ok(d.width <= c.width / 3 + 1, `beside: a third of the canvas at most: ${at}`);
  return r;
}
