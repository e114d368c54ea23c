// Issue 15 points 2, 3, 4 and 8 on a static report page of a real capture (the kernel's own views of the tiny model,
// ConvQuantizer), light at a notebook's width and dark at the side panel's 260 px: the drawer's why-not lines are
// pl.why_not's in the process that made the views (why-lines.mjs), search filters by module, annotating quantizer,
// sharing group, dtype and SQNR threshold select what torchao's graphs say, Worst picks the lowest SQNR, compare
// panes close groups, select and zoom together (search-sync.mjs), and the marks as drawn tell apart
// (drawn-colours.mjs); at 260 px the drawer's identifiers wrap at `_` and `.` only. The same checks (but the last) run
// in JupyterLab in output-reading.lab.mjs.
// Screenshots: tests/ui/artifacts/reading-real-*.png.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { launch } from './browser.mjs';
import { checkDrawnColours } from './drawn-colours.mjs';
import { ARTIFACTS, openReady, ROOT, writePage } from './pages.mjs';
import { nodePicker } from './pick-node.mjs';
import { checkCompareSync, checkFilters, FACTS_CODE, VIEWS } from './search-sync.mjs';
import { checkWhyLines, WHY_CODE } from './why-lines.mjs';

let browser;
let facts;
let why;
let views;
before(async () => {
  const python = process.env.PT2E_LENS_PYTHON ?? join(ROOT, '.venv', 'bin', 'python');
  const code = `${FACTS_CODE}\n${WHY_CODE}\nprint('VIEWS', json.dumps([${VIEWS.map((v) => `${v}.view`).join(', ')}]))`;
  const env = { ...process.env, PYTHONPATH: join(ROOT, 'kernel_pkg') };
  const out = execFileSync(python, ['-c', code], { env, maxBuffer: 1 << 28 }).toString('utf8');
  const line = (tag) =>
    JSON.parse(
      out
        .split('\n')
        .find((l) => l.startsWith(`${tag} `))
        .slice(tag.length + 1),
    );
  facts = line('FACTS');
  why = line('WHY');
  views = line('VIEWS');
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

describe('why lines, search filters, compare sync and drawn colours on a real capture, static report', () => {
  for (const [scheme, width] of [
    ['light', 1300],
    ['dark', 260],
  ]) {
    it(`${scheme} at ${width} px`, async () => {
      const { page, errors } = await openReady(browser, writePage(`reading-real-${scheme}.html`, views), {
        width,
        colorScheme: scheme,
      });
      const outs = page.locator('.pt2e-lens');
      const prep = () => outs.nth(0);
      await checkWhyLines(prep, why, nodePicker(() => page, prep).pick, async (id) => {
        if (id === 'add' || id === why.observers[0])
          await prep().screenshot({ path: join(ARTIFACTS, `reading-real-why-${id}-${scheme}-${width}.png`) });
      });
      await checkFilters(page, outs.nth(0), outs.nth(1), facts);
      await outs.nth(1).screenshot({ path: join(ARTIFACTS, `reading-real-worst-${scheme}-${width}.png`) });
      await outs.nth(2).scrollIntoViewIfNeeded();
      await checkCompareSync(page, outs.nth(2), facts, (step) =>
        outs.nth(2).screenshot({ path: join(ARTIFACTS, `reading-real-compare-${step}-${scheme}-${width}.png`) }),
      );
      await checkDrawnColours(page, outs.nth(2));
      if (width < 400) await checkBreaks(outs.nth(0), facts);
      if (errors.length) throw new Error(errors.join('\n'));
      await page.close();
    });
  }
});

/** Point 7 at the panel's width: in the drawer (docked below the canvas) of the prepared stage's last observer and
 * of a weight node, a title or value that wraps breaks at `_`, `.` or a space, never between two letters or digits. */
async function checkBreaks(root, facts) {
  const mid = [];
  for (const id of [facts.observers.at(-1), 'block_0_conv1_weight']) {
    const input = root.locator('.pl-toolbar input[type="search"]');
    await input.fill(id);
    await input.press('Enter');
    await root.locator('.pl-drawer:not([hidden]) .pl-details h4').first().waitFor();
    const got = await root.locator('.pl-drawer:not([hidden]) .pl-details').evaluate((box) => {
      const out = { lines: 0, mid: [] };
      for (const el of box.querySelectorAll('h4, dd')) {
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        let prev = null; // [character, its line's top]
        for (let t = walker.nextNode(); t; t = walker.nextNode())
          for (let i = 0; i < t.data.length; i++) {
            const r = document.createRange();
            r.setStart(t, i);
            r.setEnd(t, i + 1);
            const top = r.getClientRects()[0]?.top;
            if (top === undefined) continue;
            if (prev && top > prev[1] + 2) {
              out.lines++;
              if (/[\p{L}\p{N}]/u.test(prev[0]) && /[\p{L}\p{N}]/u.test(t.data[i]))
                out.mid.push(`${el.localName} "${el.textContent}" at "${prev[0]}|${t.data[i]}"`);
            }
            prev = [t.data[i], top];
          }
      }
      return out;
    });
    assert.ok(got.lines > 0, `${id}: something wraps at this width, so the check checks something`);
    mid.push(...got.mid);
    await root
      .locator('.pl-drawer:not([hidden])')
      .first()
      .screenshot({ path: join(ARTIFACTS, `reading-real-breaks-${id}.png`) });
    await input.fill('');
  }
  assert.deepEqual(mid, []);
}
