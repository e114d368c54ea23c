// Big groups are laid out by the fast layered pass (src/core/layered-layout.ts), not dagre: how they read.
// A 400-block section of a 5k-node graph opened by a click, and a real converted PT2E graph (q/dq pairs,
// weights, observers) with its module groups removed so all 367 nodes are one group. Screenshots in both
// themes go to tests/ui/artifacts/layered-*.png; the page must report no error.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { synthView } from '../ts/fixtures/synth.mjs';
import { launch } from './browser.mjs';
import { ARTIFACTS, fixture, openReady, writePage } from './pages.mjs';
import { settled } from './settled.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const open = (url, colorScheme, width = 1300) => openReady(browser, url, { width, colorScheme, timeout: 120000 });

/** Node boxes drawn (any renderer that marks them with data-id, else none). */
const drawnNodes = (page) => page.$$eval('[data-id]', (els) => els.length);

/** The real converted graph with every module_stack emptied: one group of all its nodes. */
function flatReal() {
  const v = fixture('real_large.json');
  for (const n of v.panes[0].snapshot.nodes) {
    n.module_stack = [];
    n.module_path = '';
  }
  v.title = 'converted graph, one flat group (layered layout)';
  return v;
}

describe('layered layout of big groups, in the browser', () => {
  for (const scheme of ['light', 'dark']) {
    it(`opens a 400-block section of a 5k graph (${scheme})`, async () => {
      const { page, errors } = await open(writePage('layered-synth.html', [synthView(5000)]), scheme);
      // as a user: open `layers`, then its first section (400 blocks: the biggest group)
      const groups = () => page.$$eval('[data-group]', (els) => els.length);
      for (const label of ['layers', '§1/2']) {
        const n = await groups();
        await settled(page, page.locator('.pl-graph'), () => page.click(`.pl-collapsed:has-text("${label}")`));
        assert.ok((await groups()) > n, `${label} opened`);
      }
      assert.ok((await groups()) > 400);
      await page.screenshot({ path: join(ARTIFACTS, `layered-synth-section-${scheme}.png`) });
      assert.deepEqual(errors, []);
      await page.close();
    });

    it(`a real converted graph as one 367-node group (${scheme})`, async () => {
      const view = flatReal();
      // every node is drawn but torch.export's _guards_fn (hidden unless a focus names it)
      const shown = view.panes[0].snapshot.nodes.filter((n) => !(n.op === 'call_module' && n.target === '_guards_fn'));
      assert.equal(view.panes[0].snapshot.nodes.length, 367);
      const { page, errors } = await open(writePage('layered-real.html', [view]), scheme);
      assert.equal(await drawnNodes(page), shown.length);
      await page.screenshot({ path: join(ARTIFACTS, `layered-real-${scheme}.png`) });
      assert.deepEqual(errors, []);
      await page.close();
    });
  }
});
