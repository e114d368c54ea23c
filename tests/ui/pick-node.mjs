// Selecting a node as a user finds one, in any view root (a notebook output, the side panel): shared by the
// real-kernel JupyterLab tests.
import assert from 'node:assert/strict';
import { paneOf, settled } from './settled.mjs';

/** `pageOf()`: the test's page (made in its before hook); `selected()`: the ids of the selected nodes under `root()`; `pick(id)`: type the id in the search box, Enter
 * until it is the hit (centred), click it, and wait for its drawer. */
export function nodePicker(pageOf, root) {
  const selected = () =>
    root()
      .locator('.pl-node.pl-selected')
      .evaluateAll((ns) => ns.map((n) => n.dataset.id));
  async function pick(id) {
    const input = root().locator('.pl-toolbar input[type="search"]');
    await input.fill(id);
    // each Enter selects the next hit and centres it: its pane settles once that is drawn
    for (let i = 0; i < 5 && (await selected()).join() !== id; i++)
      await settled(pageOf(), paneOf(input), () => input.press('Enter'));
    await settled(pageOf(), paneOf(input), () => root().locator(`.pl-node[data-id="${id}"]`).click());
    await root().locator('.pl-drawer:not([hidden])').waitFor();
    assert.deepEqual(await selected(), [id]);
  }
  return { selected, pick };
}
