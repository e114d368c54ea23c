// Big outputs opened in the layout worker (open-doc.ts) on a static page, the report bundle: a 20k-node View as
// text and the same View packed draw the same graph; a big packed View with a hostile string draws it as text (no
// element made of it); a big packed View the schema refuses shows the one line a worker-less page shows.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { synthView } from '../ts/fixtures/synth.mjs';
import { launch } from './browser.mjs';
import { packedEnvelope as envelope, writePage } from './pages.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const HOSTILE = '<img src=x onerror=window.__pwned=1>';

// runs before the page's scripts: which documents the page sends its workers to open
function recordOpens() {
  window.__opens = [];
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (m, ...rest) {
    if (m?.kind === 'open') window.__opens.push(typeof m.doc === 'string' ? 'text' : 'packed');
    return post.call(this, m, ...rest);
  };
}

describe('big outputs opened in the layout worker', () => {
  it('a 20k-node View as text and packed draw the same graph; a hostile string stays text', async () => {
    const view = synthView(20000);
    const hostile = synthView(20000);
    hostile.title = HOSTILE;
    hostile.panes[0].snapshot.nodes[10].target = HOSTILE;
    const packed = envelope(view);
    assert.ok(packed.data.length > 100_000, 'big enough to be opened in the worker');
    const url = writePage('open-worker.html', [JSON.stringify(view), packed, envelope(hostile)]);
    const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.addInitScript(recordOpens);
    await page.goto(url);
    await page.waitForFunction(
      () => [...document.querySelectorAll('.pt2e-lens')].every((r) => r.getAttribute('data-state') === 'ready'),
      null,
      { timeout: 240000 },
    );
    const seen = await page.evaluate(() => ({
      mode: window.pt2eLens.layoutMode(),
      states: [...document.querySelectorAll('.pt2e-lens')].map((r) => r.getAttribute('data-state')),
      groups: [...document.querySelectorAll('.pt2e-lens')].map((r) =>
        [...r.querySelectorAll('[data-group]')].map((g) => g.getAttribute('data-group')).join(' '),
      ),
      statuses: [...document.querySelectorAll('.pt2e-lens')].map((r) => r.querySelector('.pl-status')?.textContent),
      title: document.querySelectorAll('.pt2e-lens')[2].querySelector('.pl-title')?.textContent,
      imgs: document.querySelectorAll('.pt2e-lens img').length,
      pwned: window.__pwned ?? null,
      opens: window.__opens,
    }));
    assert.equal(seen.mode, 'worker');
    assert.deepEqual(seen.opens.sort(), ['packed', 'packed', 'text']); // each opened in a worker
    assert.deepEqual(seen.states, ['ready', 'ready', 'ready']);
    assert.ok(seen.groups[0].length > 0, 'the collapsed graph is drawn');
    assert.equal(seen.groups[1], seen.groups[0]);
    assert.equal(seen.groups[2], seen.groups[0]);
    assert.equal(seen.statuses[1], seen.statuses[0]);
    assert.equal(seen.title, HOSTILE); // as text
    assert.equal(seen.imgs, 0);
    assert.equal(seen.pwned, null);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('a big packed View the schema refuses: the line a worker-less page shows', async () => {
    const bad = synthView(20000);
    bad.panes[0].snapshot.nodes[15000].role = 'wizard';
    const url = writePage('open-worker-refused.html', [envelope(bad)]);
    const lines = [];
    for (const worker of [true, false]) {
      const page = await browser.newPage();
      if (!worker) await page.addInitScript(() => delete window.Worker);
      await page.goto(url);
      await page.waitForFunction(
        () => document.querySelector('.pt2e-lens')?.getAttribute('data-state') === 'error',
        null,
        {
          timeout: 240000,
        },
      );
      lines.push(
        await page.evaluate(() => [window.pt2eLens.layoutMode(), document.querySelector('[role=alert]').textContent]),
      );
      await page.close();
    }
    assert.deepEqual(
      lines.map(([mode]) => mode),
      ['worker', 'inline'],
    );
    assert.match(
      lines[0][1],
      /^pt2e-lens: malformed output: panes\[0\]\.snapshot\.nodes\[15000\]\.role: expected one of/,
    );
    assert.equal(lines[0][1], lines[1][1]);
  });
});
