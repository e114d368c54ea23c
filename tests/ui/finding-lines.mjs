// Issue 15 point 1 wherever a stage with findings is drawn (a notebook output, the side panel, VS Code): one closed
// line per rule, the rules in the kernel's order, their counts adding up to every finding, all below the graph.
import assert from 'node:assert/strict';

/** The check on the view `root` (a Locator of one `.pt2e-lens`); `kinds`: each finding's rule, in the kernel's order. */
export async function checkFindingLines(root, kinds) {
  const lines = await root
    .locator('.pl-findings > details')
    .evaluateAll((ds) => ds.map((d) => ({ kind: d.dataset.kind, n: Number(d.dataset.count), h: d.offsetHeight })));
  assert.deepEqual(
    lines.map((l) => l.kind),
    [...new Set(kinds)],
  );
  assert.equal(
    lines.reduce((sum, l) => sum + l.n, 0),
    kinds.length,
  );
  for (const l of lines) assert.ok(l.h < 30, `a closed rule is one line (${l.h} px)`);
  const canvas = await root.locator('.pl-canvas').boundingBox();
  const first = await root.locator('.pl-findings > details').first().boundingBox();
  assert.ok(first.y >= canvas.y + canvas.height - 1, 'the graph comes first');
}
