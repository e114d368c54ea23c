// Sharing groups as drawn (issue 15 point 8, past the palette's cycle): any two groups on screen differ in at least
// one cue — their fills by CIEDE2000 ≥ FILL_DE, or else their number chips, each legible on its box's edge. The
// view renumbers a fixture's observers so that some groups share a fill by design (0, 12, 24 …: twelve fills).
import assert from 'node:assert/strict';
import { deltaE2000 } from '../ts/ciede2000.mjs';

export const FILL_DE = 12;
export const FILL_COUNT = 12;
// groups that share a fill (same number mod FILL_COUNT) next to ones that must not
const GROUPS = [0, 12, 24, 1, 13, 25, 36, 48, 2, 14];

/** `view` (one pane with observers) with its observers' groups renumbered from GROUPS, and node id → group */
export function manyGroups(view) {
  const groupOf = {};
  view.panes[0].snapshot.observers.forEach((o, i) => {
    o.group = GROUPS[i % GROUPS.length];
    for (const n of o.nodes) groupOf[n] = o.group;
  });
  return { view, groupOf };
}

const rgb = (c) =>
  c
    .match(/[\d.]+/g)
    .slice(0, 3)
    .map(Number);

function lum([r, g, b]) {
  const c = (x) => {
    const v = x / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * c(r) + 0.7152 * c(g) + 0.0722 * c(b);
}
const contrast = (a, b) => {
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
};

/** The check on `root` (a Locator of one `.pt2e-lens` drawing a manyGroups view); returns the drawn cues. */
export async function checkGroupCues(root, groupOf) {
  const drawn = await root.locator('.pl-node[data-role="observer"]').evaluateAll((ns) =>
    ns.map((n) => {
      const chip = n.querySelector('.pl-gchip');
      const box = n.querySelector('rect.pl-box').getBoundingClientRect();
      const cr = chip?.querySelector('rect');
      const ct = chip?.querySelector('text');
      return {
        id: n.dataset.id,
        fill: getComputedStyle(n.querySelector('rect.pl-box')).fill,
        chip: ct?.textContent ?? null,
        chipFill: cr ? getComputedStyle(cr).fill : null,
        chipInk: ct ? getComputedStyle(ct).fill : null,
        // the chip sits on the box's top edge, inside its left and right sides
        onEdge: cr
          ? (() => {
              const c = cr.getBoundingClientRect();
              return c.left >= box.left && c.right <= box.right && c.top < box.top && c.bottom > box.top;
            })()
          : false,
      };
    }),
  );
  assert.ok(drawn.length >= 8, `${drawn.length} observers drawn`);
  for (const d of drawn) {
    const want = groupOf?.[d.id];
    if (want !== undefined) assert.equal(d.chip, String(want), `${d.id}'s chip names its group`);
    assert.ok(d.chip !== null && d.onEdge, `${d.id}: a number chip on its top edge`);
    const c = contrast(rgb(d.chipInk), rgb(d.chipFill));
    assert.ok(c >= 4.5, `${d.id}: chip text contrast ${c.toFixed(2)}`);
  }
  // one entry per group (observers of one group share both cues by meaning)
  const byGroup = new Map(drawn.map((d) => [d.chip, d]));
  const groups = [...byGroup.values()];
  let sameFill = 0;
  const bad = [];
  for (let i = 0; i < groups.length; i++)
    for (let j = i + 1; j < groups.length; j++) {
      const [a, b] = [groups[i], groups[j]];
      const de = deltaE2000(rgb(a.fill), rgb(b.fill));
      const sameCycle = Number(a.chip) % FILL_COUNT === Number(b.chip) % FILL_COUNT;
      if (de < FILL_DE) sameFill++;
      // groups within one cycle of the palette differ in fill; all differ in fill or chip
      if (!sameCycle && de < FILL_DE) bad.push(`groups ${a.chip} and ${b.chip}: fill ΔE ${de.toFixed(1)}`);
      if (de < FILL_DE && a.chip === b.chip) bad.push(`groups ${a.chip} / ${b.chip}: no cue tells them apart`);
    }
  assert.deepEqual(bad, []);
  assert.ok(sameFill > 0, 'the view has groups that only the chip tells apart: the second cue is exercised');
  return groups;
}
