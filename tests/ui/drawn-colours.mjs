// Issue 15 point 8 on the colours as drawn (computed styles of the SVG, so a host's stylesheet or theme is included),
// checked the same way wherever a compare of a prepared and a converted stage is drawn (checkDrawnColours), and in
// the side panel, which draws one stage at a time, off its stage tabs (panel-reading.lab.mjs): "added by this stage"
// is a green frame, far from the output role's stroke; every mark a reader must tell apart (each role's stroke, the
// added, removed, search-hit and selection frames) is ≥ ΔE2000 10 from every other; the sharing-group fills of the
// observers ≥ ΔE2000 12 from each other within the palette's cycle of twelve (the thresholds of
// tests/ts/palette.test.ts, there on the palette itself), and groups a cycle apart told apart by their number chips.
import assert from 'node:assert/strict';
import { deltaE2000 } from '../ts/ciede2000.mjs';
import { paneOf, settled } from './settled.mjs';

const MARK_DE = 10;
const FILL_DE = 12;
const GROUP_COLORS = 12;

const rgb = (c) =>
  c
    .match(/[\d.]+/g)
    .slice(0, 3)
    .map(Number);

/** Pairs of differently named colours closer than `min`. */
function close(named, min) {
  const out = [];
  for (let i = 0; i < named.length; i++)
    for (let j = i + 1; j < named.length; j++) {
      const d = deltaE2000(rgb(named[i][1]), rgb(named[j][1]));
      if (d < min) out.push(`${named[i][0]} ${named[i][1]} ~ ${named[j][0]} ${named[j][1]}: ΔE ${d.toFixed(1)}`);
    }
  return out;
}

const UNMARKED = '.pl-node:not(.pl-added):not(.pl-removed):not(.pl-match):not(.pl-selected):not(.pl-counterpart)';

/** Each role's stroke, read off the first node with no mark on it under `scope` (a Locator). */
export const roleStrokes = (scope) =>
  scope.locator(UNMARKED).evaluateAll((ns) => {
    const by = {};
    for (const n of ns) by[n.dataset.role] ??= getComputedStyle(n.querySelector('rect.pl-box')).stroke;
    return by;
  });

/** The observers' fills under `scope`: one per sharing group (the number on the box's group chip). */
export const groupFills = (scope) =>
  scope.locator('.pl-node[data-role="observer"]').evaluateAll((ns) => {
    const by = {};
    for (const n of ns) {
      const group = n.querySelector('.pl-gchip text')?.textContent;
      if (group) by[group] ??= getComputedStyle(n.querySelector('rect.pl-box')).fill;
    }
    return by;
  });

const stroke = (loc) =>
  loc
    .locator('rect.pl-box')
    .first()
    .evaluate((r) => getComputedStyle(r).stroke);

/** A search hit's and the selection's frame in the pane `pane` (a view of the prepared stage): search conv2d, Enter. */
export async function searchStrokes(page, pane) {
  const input = pane.locator('.pl-toolbar input[type="search"]');
  await input.fill('conv2d');
  const match = await stroke(pane.locator('.pl-node.pl-match:not(.pl-selected)'));
  await settled(page, paneOf(input), () => input.press('Enter'));
  const selected = await stroke(pane.locator('.pl-node.pl-selected'));
  await input.fill('');
  await pane.locator('.pl-drawer-close').click();
  return { match, selected };
}

/** The stroke a box with `mark` would draw under `root` (its stylesheet's `--pl-<mark>`, in the host's theme), for a
 * surface whose views never carry that mark (the side panel draws one stage at a time: nothing is added). */
export const markStroke = (root, mark) =>
  root.evaluate((r, mark) => {
    const rect = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
    r.querySelector('svg').appendChild(rect);
    rect.style.stroke = `var(--pl-${mark})`;
    const c = getComputedStyle(rect).stroke;
    rect.remove();
    return c;
  }, mark);

/** The verdicts on colours read: `roles` (role → stroke), the `added`, `removed`, `match` and `selected` frames,
 * `fills` (sharing group → fill). */
export function judgeColours({ roles, added, removed, match, selected, fills }) {
  assert.ok(
    ['output', 'observer', 'quantize', 'dequantize'].every((r) => r in roles),
    JSON.stringify(roles),
  );
  const [r, g, b] = rgb(added);
  assert.ok(g > r && g > b, `"added by this stage" is green: ${added}`);
  const dOut = deltaE2000(rgb(added), rgb(roles.output));
  assert.ok(dOut > 25, `added ${added} vs the output role ${roles.output}: ΔE ${dOut.toFixed(1)}`);
  const marks = [
    ...Object.entries(roles).map(([role, c]) => [`${role} stroke`, c]),
    ['added', added],
    ['removed', removed],
    ['match', match],
    ['selected', selected],
  ];
  assert.deepEqual(close(marks, MARK_DE), []);
  assert.ok(Object.keys(fills).length >= 5, `${Object.keys(fills).length} sharing groups drawn`);
  // the palette's GROUP_COLORS fills cycle (styles.ts groupFill): groups a cycle apart share one by design and
  // differ by their chips (distinct numbers, as read above); within a cycle the fills tell apart
  const named = Object.entries(fills).map(([k, c]) => [`group ${k}`, c]);
  const clash = close(named, FILL_DE).filter((line) => {
    const [a, b] = [...line.matchAll(/group (\d+)/g)].map((m) => Number(m[1]) % GROUP_COLORS);
    return a !== b;
  });
  assert.deepEqual(clash, []);
}

/** The check on the compare `root` (a Locator of one `.pt2e-lens` holding pl.compare(prepared, converted)), with the
 * page's other outputs showing both stages on their own (search-sync.mjs' VIEWS). */
export async function checkDrawnColours(page, root) {
  const panes = [0, 1].map((i) => root.locator(`.pl-pane[data-pane="${i}"]`));
  // role strokes, from nodes with no mark on them in any output on the page (in the compare every observer is
  // removed and every q/dq added; the prepared and the converted view show them unmarked)
  const roles = await roleStrokes(page.locator('.pt2e-lens'));
  const added = await stroke(panes[1].locator('.pl-node.pl-added'));
  const removed = await stroke(panes[0].locator('.pl-node.pl-removed'));
  const { match, selected } = await searchStrokes(page, panes[0]);
  const fills = await groupFills(panes[0]);
  const colours = { roles, added, removed, match, selected, fills };
  judgeColours(colours);
  return colours;
}
