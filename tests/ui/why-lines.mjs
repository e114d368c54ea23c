// Issue 15 point 2 wherever the prepared stage of a real capture is drawn (a notebook output with its kernel, the
// static report): the drawer's why-not lines of the fp32 add and linear and of two observers are, word for word, the
// rows pl.why_not returns for them in the same Python process, and an observer's line names the quantizer that
// requested it. WHY_CODE computes them after search-sync.mjs' FACTS_CODE.
import assert from 'node:assert/strict';

/** Python after FACTS_CODE (it made `prep` and `quantizer`): prints `WHY {json}`, pl.why_not's rows for the nodes
 * the checks click, and the prepared stage's findings (for the findings checks). */
export const WHY_CODE = `# an observer on a weight edge and one on an op's output: two kinds of request
observers = [n['id'] for n in prep.snapshot.nodes if n['role'] == 'observer']
clicked = ['add', 'linear', observers[0], observers[-1]]
why = {i: [line for _, line in pl.why_not(prep, i).rows] for i in clicked}
findings = [[f['kind'], f['nodes']] for f in prep.snapshot.findings]
print('WHY', json.dumps({'why': why, 'observers': observers, 'quantizer': type(quantizer).__name__, 'findings': findings}))`;

/** In the prepared view `root()`, pick (pick-node.mjs) each node of `facts.why` and compare its drawer's lines with
 * the kernel's; `each(id)` runs with that drawer open (a surface's own layout checks, screenshots). */
export async function checkWhyLines(root, facts, pick, each = async () => {}) {
  for (const id of Object.keys(facts.why)) {
    await pick(id);
    assert.ok(facts.why[id].length > 0, `the kernel has a why line for ${id}`);
    const lines = await root().locator('.pl-drawer:not([hidden]) .pl-why li').allTextContents();
    assert.deepEqual(lines, facts.why[id], id);
    await each(id);
  }
  // an observer's line says which annotation requested it: the quantizer that made the request
  for (const id of facts.observers.filter((o) => o in facts.why))
    assert.ok(
      facts.why[id].some((l) => l.includes(facts.quantizer)),
      facts.why[id].join(' | '),
    );
  await root().locator('.pl-drawer-close').click();
  await root().locator('.pl-toolbar input[type="search"]').fill('');
}
