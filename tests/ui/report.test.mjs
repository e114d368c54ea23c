// Browser tests: Debian chromium (playwright-core, no browser download) opens offline file:// pages made
// of the inlined report bundle + fixture JSON, the way saved reports look.

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { synthView } from '../ts/fixtures/synth.mjs';
import { launch } from './browser.mjs';
import { ARTIFACTS, fixture, writePage } from './pages.mjs';
import { idle, settled } from './settled.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function open(url, { width = 1300, height = 900 } = {}) {
  const page = await browser.newPage({ viewport: { width, height } });
  const problems = { dialogs: [], errors: [], requests: [] };
  page.on('dialog', async (d) => {
    problems.dialogs.push(d.message());
    await d.dismiss();
  });
  page.on('pageerror', (e) => problems.errors.push(e.message));
  page.on('request', (r) => {
    if (!/^(file|blob|data):/.test(r.url())) problems.requests.push(r.url());
  });
  await page.goto(url);
  await page.waitForFunction(
    () => {
      const roots = [...document.querySelectorAll('.pt2e-lens')];
      return roots.length > 0 && roots.every((r) => r.getAttribute('data-state') !== 'loading');
    },
    null,
    { timeout: 60000 },
  );
  return { page, problems };
}

const countRoles = (nodes) =>
  nodes.reduce((m, n) => {
    m[n.role] = (m[n.role] ?? 0) + 1;
    return m;
  }, {});

describe('report bundle in chromium (file://, offline)', () => {
  it('draws as many nodes per role as the JSON says, for several outputs on one page, in a worker', async () => {
    const names = ['conv_prepared.json', 'conv_converted.json', 'compare.json', 'run.json'];
    const docs = names.map(fixture);
    const { page, problems } = await open(writePage('fixtures.html', docs));
    assert.equal(await page.evaluate(() => window.pt2eLens.layoutMode()), 'worker');
    const outputs = await page.$$('.output');
    assert.equal(outputs.length, names.length);
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i];
      const panes = await outputs[i].$$('.pl-pane');
      const visible = [];
      for (const p of panes) if (await p.isVisible()) visible.push(p);
      const expectPanes = doc.mode === 'run' ? [doc.panes.length - 1] : doc.panes.map((_, j) => j);
      assert.equal(visible.length, expectPanes.length, names[i]);
      for (let k = 0; k < visible.length; k++) {
        const roles = await visible[k].$$eval('.pl-node', (els) => els.map((e) => e.getAttribute('data-role')));
        assert.deepEqual(
          countRoles(roles.map((role) => ({ role }))),
          countRoles(doc.panes[expectPanes[k]].snapshot.nodes),
          `${names[i]} pane ${k}`,
        );
      }
    }
    assert.deepEqual(problems, { dialogs: [], errors: [], requests: [] });
    await page.screenshot({ path: join(ARTIFACTS, 'fixtures.png'), fullPage: true });
    await page.close();
  });

  it('falls back to in-page layout when a CSP forbids workers', async () => {
    const csp = `<meta http-equiv="Content-Security-Policy" content="worker-src 'none'">`;
    const doc = fixture('conv_converted.json');
    const { page, problems } = await open(writePage('no-worker.html', [doc], csp));
    assert.equal(await page.locator('.pl-node').count(), doc.panes[0].snapshot.nodes.length);
    assert.equal(await page.evaluate(() => window.pt2eLens.layoutMode()), 'inline');
    assert.deepEqual(problems.dialogs, []);
    assert.deepEqual(problems.requests, []);
    await page.close();
  });

  it('renders a hostile module name as text and runs no script from the data', async () => {
    const { page, problems } = await open(writePage('hostile.html', [fixture('hostile.json')]));
    // everything drawn and painted: an element the data smuggled in would be in the DOM now (none may be)
    await idle(page, page.locator('.pt2e-lens'));
    assert.equal(await page.locator('.pt2e-lens img').count(), 0);
    assert.equal(await page.locator('.pt2e-lens script').count(), 0);
    const label = await page.locator('.pl-group .pl-glabel').first().textContent();
    assert.match(label, /<img src=x onerror=alert\(1\)>/);
    assert.equal(await page.locator('.pl-title').first().textContent(), '<img src=y onerror=alert(4)>');
    await page.locator('input[type="search"]').fill('relu');
    await page.locator('.pl-result', { hasText: 'relu' }).click();
    await page.locator('.pl-node.pl-selected[data-id="relu"]').waitFor();
    assert.match(await page.locator('.pl-details').textContent(), /<img src=z onerror=alert\(5\)> note/);
    await page.locator('.pl-main-tabs .pl-tab', { hasText: 'Op diff' }).click();
    assert.equal(await page.locator('td').first().textContent(), '<img src=x onerror=alert(1)>');
    assert.deepEqual(problems, { dialogs: [], errors: [], requests: [] });
    await page.screenshot({ path: join(ARTIFACTS, 'hostile.png'), fullPage: true });
    await page.close();
  });

  it('opens a 20k-node graph collapsed and stays responsive while groups open', async () => {
    const view = synthView(20000);
    const url = writePage('synth-20k.html', [view]);
    const t0 = Date.now();
    const { page, problems } = await open(url);
    const openMs = Date.now() - t0;
    assert.ok(openMs < 15000, `opened in ${openMs} ms`);
    assert.ok((await page.locator('.pl-node').count()) < 10);
    assert.ok((await page.locator('.pl-group.pl-collapsed').count()) >= 1);
    const t1 = Date.now();
    await page.locator('.pl-group.pl-collapsed[data-group="layers"]').click();
    await page.locator('.pl-group.pl-expanded[data-group="layers"]').waitFor();
    const sections = page.locator('.pl-group.pl-collapsed');
    const first = sections.first();
    await first.click();
    await page.waitForFunction(() => document.querySelectorAll('.pl-group.pl-collapsed').length > 100, null, {
      timeout: 30000,
    });
    const expandMs = Date.now() - t1;
    // the page answers quickly while and after laying out (layout runs in the worker)
    const lag = await page.evaluate(
      () =>
        new Promise((r) => {
          const t = performance.now();
          setTimeout(() => r(performance.now() - t), 0);
        }),
    );
    assert.ok(lag < 500, `event loop lag ${lag} ms`);
    const block = page.locator('.pl-group.pl-collapsed[data-group="layers.3"]');
    await block.dispatchEvent('click'); // may lie outside the visible canvas: a DOM click, as after a pan
    await page.locator('[data-id="bn_3"]').waitFor();
    await page.locator('input[type="search"]').fill('bn_3');
    await page.getByRole('button', { name: 'bn_3', exact: true }).click();
    await page.locator('.pl-node.pl-selected[data-id="bn_3"]').waitFor();
    assert.match(await page.locator('.pl-details').textContent(), /aten\.batch_norm\.default/);
    assert.deepEqual(problems, { dialogs: [], errors: [], requests: [] });
    writeFileSync(join(ARTIFACTS, 'timings-20k.json'), JSON.stringify({ openMs, expandMs, lag }, null, 1));
    await page.screenshot({ path: join(ARTIFACTS, 'synth-20k.png') });
    await page.close();
  });

  it('zooms with the wheel, pans with a drag and fits back', async () => {
    const { page } = await open(writePage('zoom.html', [fixture('conv_prepared.json')]));
    const vp = page.locator('.pl-viewport');
    const before = await vp.getAttribute('transform');
    const box = await page.locator('.pl-canvas').boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    // the plain wheel scrolls the page (views.test.mjs); Ctrl + wheel zooms
    await page.keyboard.down('Control');
    await settled(page, page.locator('.pl-graph'), () => page.mouse.wheel(0, -400));
    await page.keyboard.up('Control');
    const zoomed = await vp.getAttribute('transform');
    assert.notEqual(zoomed, before);
    const scale = (t) => Number(/scale\(([^)]+)\)/.exec(t)[1]);
    assert.ok(scale(zoomed) > scale(before));
    await page.mouse.move(box.x + 20, box.y + 20);
    await page.mouse.down();
    await page.mouse.move(box.x + 120, box.y + 80, { steps: 4 });
    await page.mouse.up();
    assert.notEqual(await vp.getAttribute('transform'), zoomed);
    await page.locator('button', { hasText: 'Fit' }).click();
    assert.equal(await vp.getAttribute('transform'), before);
    await page.close();
  });

  it('a view drawn while hidden fits itself once shown', async () => {
    const { page } = await open(writePage('hidden.html', [fixture('conv_prepared.json')]));
    const doc = fixture('conv_converted.json');
    const res = await page.evaluate(async (doc) => {
      const host = document.createElement('div');
      host.style.display = 'none';
      document.body.prepend(host);
      await window.pt2eLens.render(host, doc).ready;
      const vp = host.querySelector('.pl-viewport');
      const hidden = vp.getAttribute('transform');
      host.style.display = '';
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const visible = host.querySelector('.pl-canvas').getBoundingClientRect().width;
      return { hidden, shown: vp.getAttribute('transform'), visible };
    }, doc);
    assert.ok(res.visible > 900);
    assert.notEqual(res.shown, res.hidden);
    // once shown, it is fitted like a view drawn visible from the start (the page's first output)
    const direct = await page.locator('.output .pl-viewport').first().getAttribute('transform');
    const scale = (s) => Number(/scale\(([^)]+)\)/.exec(s)[1]);
    assert.ok(scale(res.shown) > 0.3 && scale(direct) > 0.3, `${res.shown} / ${direct}`);
    await page.close();
  });

  it('search reveals a node hidden in a closed group', async () => {
    const { page } = await open(writePage('search.html', [synthView(2000)]));
    assert.equal(await page.locator('[data-id="bn2_42"]').count(), 0);
    await page.locator('input[type="search"]').fill('bn2_42');
    await page.locator('.pl-result', { hasText: 'bn2_42' }).click();
    await page.locator('.pl-node.pl-selected[data-id="bn2_42"]').waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'search.png') });
    await page.close();
  });
});
