// Issue 15 at the side panel's width, static report, light and dark: a compare stacks its panes one above the other
// below two readable panes' width (compare-stack.ts) and goes side by side again when widened, the panes still
// moving and selecting together; sharing groups the fills cannot tell apart differ by their number chip
// (group-cues.mjs); no text of the details drawer runs past its edge, with long names that have no `_` or `.` in
// zh-TW (drawer-fit.mjs). Screenshots: tests/ui/artifacts/narrow-*.png.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { launch } from './browser.mjs';
import { checkStacking, notedCompare } from './compare-stacking.mjs';
import { checkDrawerFits, longNames } from './drawer-fit.mjs';
import { checkGroupCues, manyGroups } from './group-cues.mjs';
import { ARTIFACTS, fixture, openReady, writePage } from './pages.mjs';
import { nodePicker } from './pick-node.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const shot = (page, name) => page.screenshot({ path: join(ARTIFACTS, `narrow-${name}.png`), fullPage: true });

describe('compare: stacked below two readable panes, side by side again when wide', () => {
  for (const scheme of ['light', 'dark']) {
    it(`${scheme}: 260 px → 1300 px → 280 px`, async () => {
      const { page, errors } = await openReady(
        browser,
        writePage(`narrow-compare-${scheme}.html`, [notedCompare(fixture('real_compare.json'))]),
        { width: 260, colorScheme: scheme },
      );
      const root = page.locator('.pt2e-lens').first();
      const size = (width) => () => page.setViewportSize({ width, height: 900 });
      await checkStacking(page, root, {
        toWide: size(1300),
        toNarrow: size(280),
        shot: (step) => shot(page, `compare-${step}-${scheme}`),
      });
      assert.deepEqual(errors, []);
      await page.close();
    });
  }
});

describe('sharing groups past the palette: a second cue', () => {
  for (const [scheme, width] of [
    ['light', 1300],
    ['dark', 1300],
    ['light', 280],
    ['dark', 280],
  ]) {
    it(`${scheme} at ${width} px`, async () => {
      const { view, groupOf } = manyGroups(fixture('conv_prepared.json'));
      const { page, errors } = await openReady(browser, writePage(`narrow-groups-${scheme}-${width}.html`, [view]), {
        width,
        colorScheme: scheme,
      });
      await checkGroupCues(page.locator('.pt2e-lens').first(), groupOf);
      await shot(page, `groups-${scheme}-${width}`);
      assert.deepEqual(errors, []);
      await page.close();
    });
  }
});

describe('the details drawer: no text past its edge', () => {
  for (const [scheme, width] of [
    ['light', 260],
    ['dark', 260],
    ['light', 280],
    ['dark', 1300],
  ]) {
    it(`zh-TW, long names with no break point, ${scheme} at ${width} px`, async () => {
      const { view, ids } = longNames(fixture('conv_prepared.json'));
      const { page, errors } = await openReady(browser, writePage(`narrow-drawer-${scheme}-${width}.html`, [view]), {
        width,
        colorScheme: scheme,
      });
      const root = page.locator('.pt2e-lens').first();
      // found as a user finds a node the first view does not show (readable labels pan a wide graph)
      const { pick } = nodePicker(
        () => page,
        () => root,
      );
      for (const id of ids) {
        await pick(id);
        await checkDrawerFits(root);
      }
      await shot(page, `drawer-${scheme}-${width}`);
      assert.deepEqual(errors, []);
      await page.close();
    });
  }
});
