// The anywidget ESM and the VS Code renderer, loaded as modules in chromium and driven with stubs.

import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { launch } from './browser.mjs';
import { ARTIFACTS, fixture, ROOT } from './pages.mjs';

let browser;
let page;
before(async () => {
  browser = await launch();
  mkdirSync(ARTIFACTS, { recursive: true });
  const blank = join(ARTIFACTS, 'blank.html');
  writeFileSync(blank, '<!doctype html><meta charset="utf-8"><body><div id="host"></div></body>');
  page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  await page.goto(pathToFileURL(blank).href);
});
after(async () => {
  await browser?.close();
});

const src = (p) => readFileSync(join(ROOT, p), 'utf8');

describe('host entries', () => {
  it('anywidget: renders view_json (plain, then packed), re-renders on change:view_json, injects its CSS', async () => {
    const a = JSON.stringify(fixture('conv_prepared.json'));
    const b = JSON.stringify(fixture('packed/conv_converted.json')); // what LensWidget sends since the packed transport
    const res = await page.evaluate(
      async ({ code, a, b }) => {
        const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
        const mod = await import(url);
        const handlers = {};
        const model = {
          value: a,
          get: () => model.value,
          on: (e, f) => (handlers[e] = f),
          off: (e) => delete handlers[e],
        };
        const el = document.getElementById('host');
        const cleanup = mod.default.render({ model, el });
        const wait = () =>
          new Promise((ok, fail) => {
            const deadline = Date.now() + 20000;
            const t = setInterval(() => {
              if (el.querySelector('[data-state="ready"]')) {
                clearInterval(t);
                ok();
              } else if (Date.now() > deadline) {
                clearInterval(t);
                fail(new Error('the anywidget view never became ready'));
              }
            }, 20);
          });
        await wait();
        const first = el.querySelectorAll('.pl-node').length;
        model.value = b;
        handlers['change:view_json']();
        await wait();
        const second = el.querySelectorAll('.pl-node').length;
        const css = !!document.getElementById('pt2e-lens-style');
        cleanup();
        return { first, second, css, off: !handlers['change:view_json'] };
      },
      { code: src('kernel_pkg/pt2e_lens/_static/widget.js'), a, b },
    );
    assert.deepEqual(res, {
      first: fixture('conv_prepared.json').panes[0].snapshot.nodes.length,
      second: fixture('conv_converted.json').panes[0].snapshot.nodes.length,
      css: true,
      off: true,
    });
  });

  for (const [name, form] of [
    ['compare.json', 'a plain View (0.1 outputs)'],
    ['packed/compare.json', 'a packed View'],
  ])
    it(`VS Code renderer: activate() → renderOutputItem(item, element) with ${form}`, async () => {
      await vscodeRenders(fixture(name), fixture('compare.json'));
    });

  async function vscodeRenders(doc, view) {
    const res = await page.evaluate(
      async ({ code, doc }) => {
        const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
        const mod = await import(url);
        const r = mod.activate({});
        const el = document.getElementById('host');
        const item = {
          id: 'out-1',
          mime: 'application/vnd.pt2e-lens.v1+json',
          json: () => doc,
          text: () => JSON.stringify(doc),
        };
        r.renderOutputItem(item, el);
        await new Promise((ok, fail) => {
          const deadline = Date.now() + 20000;
          const t = setInterval(() => {
            if (el.querySelector('[data-state="ready"]')) {
              clearInterval(t);
              ok();
            } else if (Date.now() > deadline) {
              clearInterval(t);
              fail(new Error('the VS Code renderer never became ready'));
            }
          }, 20);
        });
        const panes = el.querySelectorAll('.pl-pane').length;
        const nodes = el.querySelectorAll('.pl-node').length;
        r.disposeOutputItem('out-1'); // disposing empties the drawing: count before
        return { panes, nodes, left: el.querySelectorAll('.pl-node').length };
      },
      { code: src('extension/vscode/renderer.js'), doc },
    );
    assert.equal(res.panes, 2);
    assert.equal(res.nodes, view.panes[0].snapshot.nodes.length + view.panes[1].snapshot.nodes.length);
    assert.equal(res.left, 0, 'disposeOutputItem leaves no drawing behind');
    await page.screenshot({ path: join(ARTIFACTS, 'vscode-compare.png'), fullPage: true });
  }

  it('extension/vscode/package.json contributes the renderer for the MIME type', () => {
    const pkg = JSON.parse(src('extension/vscode/package.json'));
    const r = pkg.contributes.notebookRenderer[0];
    assert.deepEqual(r.mimeTypes, ['application/vnd.pt2e-lens.v1+json']);
    assert.equal(r.entrypoint, './renderer.js');
  });
});
