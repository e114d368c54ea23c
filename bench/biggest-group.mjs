// The state bench/views.mjs and bench/longtasks.mjs time "expand the biggest group" from, set up in the page: install
// with `context.addInitScript(biggestGroupScript)` (it runs in the page, so it closes over nothing), then
// `await window.__closeBiggest(gv)` there.

/** Defines `window.__closeBiggest(gv)`: opens every group above the group with the most children (of all but the
 * root), closes that one, redraws, and returns it. */
export function biggestGroupScript() {
  window.__closeBiggest = async (gv) => {
    let big = null;
    for (const g of gv.hier.groups.values()) if (g.parent && (!big || g.children.length > big.children.length)) big = g;
    const path = [];
    for (let g = big.parent; g?.parent; g = g.parent) path.unshift(g.key);
    for (const k of path) gv.expanded.add(k);
    gv.expanded.delete(big.key);
    await gv.redraw();
    return big;
  };
}
