// The quickstart notebook, executed by nbclient and exported by nbconvert, opened offline in chromium:
// what it draws must be what torchao produced (numbers from torchao's graphs, see notebook_page.py).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { launch } from './browser.mjs';
import { executedQuickstart } from './executed.mjs';
import { ARTIFACTS, MIME, ROOT } from './pages.mjs';

let OUT;

let browser;
let page;
let expected;
const problems = { dialogs: [], errors: [] };

before(async () => {
  // the quickstart executed once per test command (executed.mjs), shared with the host tests
  const run = executedQuickstart();
  OUT = run.dir;
  expected = run.expected;
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
  // offline: nbconvert's page links require.js and MathJax from CDNs; refuse every non-file request
  await page.route(/^(?!file:|data:|blob:).*/, (route) => route.abort());
  page.on('dialog', async (d) => {
    problems.dialogs.push(d.message());
    await d.dismiss();
  });
  page.on('pageerror', (e) => problems.errors.push(e.message));
  await page.goto(pathToFileURL(join(OUT, 'quickstart.html')).href);
  await page.waitForFunction(
    () => {
      const roots = [...document.querySelectorAll('.pt2e-lens')];
      return roots.length >= 6 && roots.every((r) => r.getAttribute('data-state') !== 'loading');
    },
    null,
    { timeout: 60000 },
  );
});
after(async () => {
  await browser?.close();
});

/** The element a pt2e-lens output rendered into, found through its View (unpacked by the page's viewer). */
async function host(predicate) {
  const handle = await page.evaluateHandle(
    async ([mime, src]) => {
      const test = new Function('v', `return (${src})(v)`);
      for (const sc of document.querySelectorAll(`script[type="${mime}"]`)) {
        if (test(await globalThis.pt2eLens.unpack(sc.textContent))) return sc.previousElementSibling;
      }
      return null;
    },
    [MIME, predicate.toString()],
  );
  assert.ok(await handle.evaluate((el) => el !== null), 'output not found');
  return handle;
}

describe('nbconvert page of the executed quickstart, offline', () => {
  it('draws exactly the q and dq nodes torchao put in the converted tiny model', async () => {
    const el = await host((v) => v.mode === 'graph' && v.title === 'tiny, converted');
    const ids = await el.evaluate((root) =>
      [...root.querySelectorAll('.pl-node[data-role="quantize"], .pl-node[data-role="dequantize"]')]
        .map((n) => n.getAttribute('data-id'))
        .sort(),
    );
    assert.deepEqual(ids, expected.qdq_nodes);
    await el.evaluate((root) => root.scrollIntoView());
    await page.screenshot({ path: join(OUT, 'converted.png') });
  });

  it('marks the four batch_norm nodes of M00-3 as removed in the stage comparison', async () => {
    const el = await host((v) => v.mode === 'compare');
    const removed = await el.evaluate((root) =>
      [...root.querySelectorAll('.pl-node.pl-removed')]
        .map((n) => n.getAttribute('data-id'))
        .filter((id) => id.startsWith('batch_norm'))
        .sort(),
    );
    assert.deepEqual(removed, expected.removed_batch_norms);
    await el.evaluate((root) => root.scrollIntoView());
    await page.screenshot({ path: join(OUT, 'compare.png') });
  });

  it('follows the notebook theme: the dark export draws the outputs dark (screenshots of both)', async () => {
    const colours = async (p) =>
      p.evaluate(() => {
        const root = [...document.querySelectorAll('.pt2e-lens')].find((r) => r.querySelector('.pl-node rect'));
        root.scrollIntoView();
        return [getComputedStyle(root).backgroundColor, getComputedStyle(root.querySelector('.pl-node rect')).fill];
      });
    const light = await colours(page);
    await page.screenshot({ path: join(ARTIFACTS, 'views-notebook-light.png') });
    const dark = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    await dark.route(/^(?!file:|data:|blob:).*/, (route) => route.abort());
    await dark.goto(pathToFileURL(join(OUT, 'quickstart-dark.html')).href);
    // the first output ready may be a table: wait until a graph has drawn its nodes
    await dark.waitForFunction(() => document.querySelector('.pt2e-lens .pl-node rect'), null, { timeout: 60000 });
    const got = await colours(dark);
    assert.notEqual(got[0], light[0]);
    assert.notEqual(got[1], light[1]);
    await dark.screenshot({ path: join(ARTIFACTS, 'views-notebook-dark.png') });
    await dark.close();
  });

  it('with PT2E_LENS_VIEWER=once only the first output carries the viewer, and every output still draws', async () => {
    const once = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    const errors = [];
    once.on('pageerror', (e) => errors.push(e.message));
    await once.route(/^(?!file:|data:|blob:).*/, (route) => route.abort());
    const file = join(OUT, 'quickstart-once.html');
    const html = readFileSync(file, 'utf8');
    const unpacker = readFileSync(join(ROOT, 'kernel_pkg', 'pt2e_lens', '_static', 'unpacker.js'), 'utf8').trim();
    assert.equal(html.split(unpacker).length - 1, 1, 'one inlined viewer in the page');
    assert.equal(html.split(`type="${MIME}"`).length - 1, 6, 'six outputs');
    await once.goto(pathToFileURL(file).href);
    await once.waitForFunction(
      () => {
        const roots = [...document.querySelectorAll('.pt2e-lens')];
        return roots.length >= 6 && roots.every((r) => r.getAttribute('data-state') === 'ready');
      },
      null,
      { timeout: 60000 },
    );
    const ids = await once.evaluate(async (mime) => {
      for (const sc of document.querySelectorAll(`script[type="${mime}"]`)) {
        const v = await globalThis.pt2eLens.unpack(sc.textContent);
        if (v.mode === 'graph' && v.title === 'tiny, converted')
          return [
            ...sc.previousElementSibling.querySelectorAll(
              '.pl-node[data-role="quantize"], .pl-node[data-role="dequantize"]',
            ),
          ]
            .map((n) => n.getAttribute('data-id'))
            .sort();
      }
      return null;
    }, MIME);
    assert.deepEqual(ids, expected.qdq_nodes);
    assert.deepEqual(errors, []);
    await once.close();
  });

  it('ran without page errors or dialogs', () => {
    assert.deepEqual(problems, { dialogs: [], errors: [] });
  });
});
