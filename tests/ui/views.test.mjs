// Theme and layout of the views in chromium: light/dark theme variables (static report, a JupyterLab-themed
// page at the side panel's 250 px), re-fit on resize, compare panes on one scale with aligned tops and hover
// counterparts, notes laid out as callouts, the wheel scrolling the page, badges on closed groups.
// Screenshots of each surface in both themes go to tests/ui/artifacts/views-*.png.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { launch } from './browser.mjs';
import { ARTIFACTS, fixture, ROOT, writePage } from './pages.mjs';
import { idle, settled } from './settled.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function open(url, { width = 1300, height = 900, colorScheme = 'light' } = {}) {
  const page = await browser.newPage({ viewport: { width, height }, colorScheme });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForFunction(
    () => {
      const roots = [...document.querySelectorAll('.pt2e-lens')];
      return roots.length > 0 && roots.every((r) => r.getAttribute('data-state') !== 'loading');
    },
    null,
    { timeout: 60000 },
  );
  await idle(page, page.locator('.pt2e-lens')); // the first layout, Fit and paint of every pane
  return { page, errors };
}

const shot = (page, name) => page.screenshot({ path: join(ARTIFACTS, `views-${name}.png`), fullPage: true });

/** In the page: WCAG contrast of an element's text colour against its (first opaque) background. */
async function textContrast(page, selector) {
  return page.$eval(selector, (el) => {
    const parse = (c) => {
      const m = c.match(/[\d.]+/g).map(Number);
      return { r: m[0], g: m[1], b: m[2], a: m.length > 3 ? m[3] : 1 };
    };
    let bg = null;
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c.a > 0.99) {
        bg = c;
        break;
      }
    }
    bg ??= { r: 255, g: 255, b: 255, a: 1 };
    const fg = parse(getComputedStyle(el).color);
    const mix = (k) => fg[k] * fg.a + bg[k] * (1 - fg.a);
    const lum = (r, g, b) => {
      const f = (x) => {
        const v = x / 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const a = lum(mix('r'), mix('g'), mix('b'));
    const b = lum(bg.r, bg.g, bg.b);
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  });
}

/** Current zoom scale of the n-th pane's viewport. */
const scaleOf = (page, n = 0) =>
  page.$$eval('.pl-viewport', (els, i) => Number(/scale\(([\d.e-]+)\)/.exec(els[i].getAttribute('transform'))[1]), n);

// JupyterLab's own theme variables (JupyterLab 4 light / dark), and our lab stylesheet, for a page that
// looks like a JupyterLab document
const JP = {
  light:
    '--jp-layout-color0:#ffffff;--jp-layout-color1:#ffffff;--jp-layout-color2:#eeeeee;--jp-layout-color3:#bdbdbd;--jp-ui-font-color1:rgba(0,0,0,.87);--jp-ui-font-color2:rgba(0,0,0,.54);--jp-border-color1:#bdbdbd',
  dark: '--jp-layout-color0:#111111;--jp-layout-color1:#212121;--jp-layout-color2:#424242;--jp-layout-color3:#616161;--jp-ui-font-color1:rgba(255,255,255,.87);--jp-ui-font-color2:rgba(255,255,255,.54);--jp-border-color1:#616161',
};
const LAB_CSS = readFileSync(join(ROOT, 'style/index.css'), 'utf8');

async function jupyterTheme(page, theme) {
  await page.evaluate(
    ([vars, light]) => {
      document.body.setAttribute('style', `${vars};background:var(--jp-layout-color0);margin:0`);
      document.body.setAttribute('data-jp-theme-light', String(light));
      document.body.setAttribute('data-jp-theme-name', light ? 'JupyterLab Light' : 'JupyterLab Dark');
    },
    [JP[theme], theme === 'light'],
  );
  // SVG panes do no work of their own for a theme: the styles the test reads are computed as it reads them
}

const NOTES = {
  conv2d: '這個 conv2d 的權重以 per-channel int8 量化，輸入是 uint8：兩者的 scale 相乘就是輸出的 scale。',
  relu: 'fused with conv1 by the quantizer pattern (conv → relu): one output observer for both',
  linear: '線性層在這裡留在 fp32',
};

describe('views: theme and layout', () => {
  it('static report: light and dark (prefers-color-scheme) use different colours, text keeps contrast', async () => {
    const doc = fixture('real_run.json');
    const url = writePage('views-report.html', [doc]);
    const seen = {};
    for (const scheme of ['light', 'dark']) {
      const { page, errors } = await open(url, { colorScheme: scheme });
      seen[scheme] = await page.evaluate(() => ({
        bg: getComputedStyle(document.querySelector('.pt2e-lens')).backgroundColor,
        node: getComputedStyle(document.querySelector('.pl-node rect.pl-box')).fill,
        btn: getComputedStyle(document.querySelector('button.pl-btn')).backgroundColor,
      }));
      for (const sel of ['button.pl-btn', '.pl-tab[aria-selected="true"]', '.pl-status', '.pl-legend'])
        assert.ok((await textContrast(page, sel)) >= 4.5, `${scheme}: ${sel} contrast`);
      await shot(page, `report-${scheme}`);
      // a table tab: numbers first, signed delta
      await page.locator('.pl-main-tabs .pl-tab', { hasText: 'Observers' }).click();
      const heads = await page.$$eval('table.pl-table th', (ths) => ths.map((t) => t.textContent));
      assert.deepEqual(heads.slice(0, 6), ['id', 'observes', 'min', 'max', 'scale', 'zero_point']);
      assert.match(await page.locator('.pl-table-wrap .pl-title').textContent(), /from calibrated|observers/);
      await shot(page, `table-${scheme}`);
      await page.locator('.pl-main-tabs .pl-tab', { hasText: 'Op diff' }).click();
      const deltas = await page.$$eval('td.pl-neg, td.pl-pos', (tds) => tds.map((t) => t.textContent));
      assert.ok(deltas.length > 0 && deltas.every((t) => /^[+−]\d+$/.test(t)), deltas.join(' '));
      assert.deepEqual(errors, []);
      await page.close();
    }
    assert.notEqual(seen.light.bg, seen.dark.bg);
    assert.notEqual(seen.light.node, seen.dark.node);
    assert.notEqual(seen.light.btn, seen.dark.btn);
  });

  it('JupyterLab theme variables at the side panel width (250 px): host colours, readable text', async () => {
    const doc = fixture('real_run.json');
    const head = `<style>${LAB_CSS}\n.output{width:250px}</style>`;
    const url = writePage('views-lab.html', [doc], head);
    const seen = {};
    // a dark OS preference must not override a light JupyterLab theme
    const { page, errors } = await open(url, { width: 600, colorScheme: 'dark' });
    for (const theme of ['light', 'dark']) {
      await jupyterTheme(page, theme);
      seen[theme] = await page.evaluate(() => ({
        bg: getComputedStyle(document.querySelector('.pt2e-lens')).backgroundColor,
        node: getComputedStyle(document.querySelector('.pl-node rect.pl-box')).fill,
      }));
      assert.equal(seen[theme].bg, theme === 'light' ? 'rgb(255, 255, 255)' : 'rgb(17, 17, 17)');
      for (const sel of ['button.pl-btn', '.pl-status'])
        assert.ok((await textContrast(page, sel)) >= 4.5, `${theme}: ${sel} contrast`);
      // no text below ~9 px: node labels are 12 px at the fit scale
      assert.ok((await scaleOf(page, 0)) * 12 >= 9);
      await shot(page, `lab-250-${theme}`);
    }
    assert.notEqual(seen.light.node, seen.dark.node);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('re-fits when its container changes size', async () => {
    const head = '<style>.output{width:1200px}</style>';
    const { page } = await open(writePage('views-refit.html', [fixture('conv_converted.json')], head));
    const before = await scaleOf(page, 0);
    const fits = async () =>
      page.$$eval('.pl-canvas', (cs) =>
        cs.map((c) => {
          const a = c.getBoundingClientRect();
          const b = c.querySelector('.pl-viewport').getBoundingClientRect();
          return b.left >= a.left - 1 && b.right <= a.right + 1;
        }),
      );
    const pane = page.locator('.pl-graph');
    const resize = (w) =>
      settled(page, pane, () =>
        page.evaluate((w) => {
          document.querySelector('.output').style.width = w;
        }, w),
      );
    await resize('500px'); // the re-fit of the ResizeObserver
    const narrow = await scaleOf(page, 0);
    assert.ok(narrow < before, `scale ${before} → ${narrow}`);
    // fits the narrower width by its full width while labels stay >= 11 px (pan-zoom.ts MIN_READABLE, 0.92); a
    // graph that would need less pans at 0.92
    assert.ok(narrow >= 0.92 - 1e-6, `scale ${narrow}`);
    if (Math.abs(narrow - 0.92) > 1e-6) {
      assert.deepEqual(await fits(), [true]);
    }
    await resize('1200px');
    assert.ok(Math.abs((await scaleOf(page, 0)) - before) < 1e-6);
    await page.close();
  });

  it('compare panes: one scale, aligned tops (even with a finding banner), counterparts on hover', async () => {
    const doc = fixture('real_compare.json');
    doc.panes[0].snapshot.findings.push({
      kind: 'nothing-quantized',
      message: 'a banner over one pane only',
      nodes: [],
    });
    for (const scheme of ['light', 'dark']) {
      // wide enough for both panes side by side at a readable scale (narrower, they stack: compare-stacking.mjs)
      const { page } = await open(writePage('views-compare.html', [doc]), { colorScheme: scheme, width: 2400 });
      const tops = await page.$$eval('.pl-canvas', (cs) => cs.map((c) => Math.round(c.getBoundingClientRect().top)));
      assert.equal(tops.length, 2);
      assert.equal(tops[0], tops[1]);
      assert.equal(await scaleOf(page, 0), await scaleOf(page, 1));
      const graphTops = await page.$$eval('.pl-viewport', (vs) =>
        vs.map((v) => Math.round(v.getBoundingClientRect().top)),
      );
      assert.ok(Math.abs(graphTops[0] - graphTops[1]) <= 2, graphTops.join(' vs '));
      // hover an observer in the prepared pane: what it became in the converted pane lights up
      const diff = doc.diffs[0];
      const [obs, became] = Object.entries(diff.became)[0];
      await page.locator(`.pl-pane[data-pane="0"] .pl-node[data-id="${obs}"]`).hover();
      const lit = await page.$$eval('.pl-pane[data-pane="1"] .pl-node.pl-hover', (ns) =>
        ns.map((n) => n.getAttribute('data-id')).sort(),
      );
      assert.deepEqual(lit, [...became].sort());
      await shot(page, `compare-${scheme}`);
      await page.mouse.move(2, 2);
      assert.equal(await page.locator('.pl-node.pl-hover').count(), 0);
      await page.close();
    }
  });

  it('notes are callouts inside the pane that overlap no node (Chinese text wraps)', async () => {
    const doc = fixture('conv_prepared.json');
    doc.notes = [NOTES];
    for (const scheme of ['light', 'dark']) {
      // tall enough to show the whole graph at a readable scale (>= 0.92), so every callout is on show
      const head = '<style>.output{--pl-height:2000px}</style>';
      const { page } = await open(writePage('views-notes.html', [doc], head), { colorScheme: scheme, height: 2200 });
      const r = await page.evaluate(() => {
        const canvas = document.querySelector('.pl-canvas').getBoundingClientRect();
        const nodes = [...document.querySelectorAll('.pl-node rect.pl-box')].map((n) => n.getBoundingClientRect());
        return [...document.querySelectorAll('.pl-callout rect')].map((c) => {
          const b = c.getBoundingClientRect();
          const inside =
            b.left >= canvas.left && b.right <= canvas.right && b.top >= canvas.top && b.bottom <= canvas.bottom;
          const hits = nodes.filter(
            (n) => n.left < b.right && n.right > b.left && n.top < b.bottom && n.bottom > b.top,
          ).length;
          const lines = c.parentNode.querySelectorAll('text').length;
          return { inside, hits, lines };
        });
      });
      assert.equal(r.length, Object.keys(NOTES).length);
      for (const c of r) {
        assert.ok(c.inside, 'callout inside the pane');
        assert.equal(c.hits, 0, 'callout over a node');
      }
      assert.ok(
        r.some((c) => c.lines > 1),
        'long notes wrap',
      );
      await shot(page, `notes-${scheme}`);
      await page.close();
    }
  });

  it("a note the pane's right edge would cut shows at its node's left, inside the pane (issue 26 point 4)", async () => {
    const doc = fixture('conv_prepared.json');
    doc.notes = [NOTES];
    for (const scheme of ['light', 'dark']) {
      // a narrow output: the drawing is wider than its pane and is panned
      const { page } = await open(writePage('views-notes-edge.html', [doc]), { colorScheme: scheme, width: 560 });
      const input = page.locator('.pl-toolbar input[type="search"]');
      for (const id of Object.keys(NOTES)) {
        // found as a user finds it (Enter centres the hit), then dragged by the node until its right edge sits
        // 12 px inside the canvas's: there the callout, laid out at the node's right, would be cut by the edge
        await input.fill(id);
        await settled(page, page.locator('.pl-graph'), () => input.press('Enter'));
        await page.locator('.pl-drawer-close').click();
        const box = page.locator(`.pl-node[data-id="${id}"] rect.pl-box`);
        const c = await page.locator('.pl-canvas').boundingBox();
        const b = await box.boundingBox();
        const [sx, sy] = [b.x + 8, b.y + b.height / 2];
        await page.mouse.move(sx, sy);
        await page.mouse.down();
        await settled(page, page.locator('.pl-graph'), () =>
          page.mouse.move(sx + (c.x + c.width - 12 - (b.x + b.width)), sy, { steps: 4 }),
        );
        await page.mouse.up();
        const r = await page.evaluate((id) => {
          const canvas = document.querySelector('.pl-canvas').getBoundingClientRect();
          const node = document.querySelector(`.pl-node[data-id="${id}"]`);
          const nb = node.querySelector('rect.pl-box').getBoundingClientRect();
          const cb = node.querySelector('.pl-callout rect').getBoundingClientRect();
          const others = [...document.querySelectorAll('.pl-node rect.pl-box')].map((n) => n.getBoundingClientRect());
          return {
            side: node.querySelector('.pl-callout').dataset.side,
            nodeIn: nb.right <= canvas.right && nb.left >= canvas.left,
            inside: cb.left >= canvas.left && cb.right <= canvas.right,
            hits: others.filter((n) => n.left < cb.right && n.right > cb.left && n.top < cb.bottom && n.bottom > cb.top)
              .length,
          };
        }, id);
        assert.ok(r.nodeIn, `${id} dragged to the right edge, in view`);
        assert.deepEqual(r, { side: 'left', nodeIn: true, inside: true, hits: 0 }, id);
        await shot(page, `notes-edge-${id}-${scheme}`);
        await input.fill('');
      }
      await page.close();
    }
  });

  it('a drawing taller than its pane: an output grows to show it whole; a fixed-height pane says "more ▾" (issue 26 point 4)', async () => {
    // conv_prepared's first twelve nodes: ~710 px tall at 1:1, taller than the 520 px pane, whole in 800 (GROW_MAX)
    const doc = fixture('conv_prepared.json');
    const ids = doc.panes[0].snapshot.nodes.map((n) => n.id);
    doc.focus = [[...ids.slice(0, 5), 'conv2d', 'relu', 'activation_post_process_2', ...ids.slice(5, 8), 'conv2d_1']];
    for (const scheme of ['light', 'dark']) {
      const page = await browser.newPage({ viewport: { width: 1000, height: 900 }, colorScheme: scheme });
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(writePage('views-tall.html', []));
      await page.waitForFunction(() => window.pt2eLens);
      // an output (no height given) and the side panel's way (a fixed height)
      await page.evaluate(async (doc) => {
        for (const height of [undefined, 300]) {
          const host = document.createElement('div');
          host.className = 'output';
          document.body.appendChild(host);
          await window.pt2eLens.render(host, doc, height ? { height } : {}).ready;
        }
      }, doc);
      const views = page.locator('.pt2e-lens');
      await idle(page, views);
      const seen = await views.evaluateAll((roots) =>
        roots.map((r) => {
          const c = r.querySelector('.pl-canvas').getBoundingClientRect();
          const out = [...r.querySelectorAll('.pl-node rect.pl-box')]
            .map((n) => n.getBoundingClientRect())
            .filter((b) => b.top < c.top - 1 || b.bottom > c.bottom + 1).length;
          const hints = [...r.querySelectorAll('.pl-offscreen:not([hidden])')].map((b) => b.textContent);
          return { height: Math.round(c.height), out, hints };
        }),
      );
      // the output: taller than 520 px, every node inside, nothing to hint at
      assert.ok(seen[0].height > 520 && seen[0].height <= 800, JSON.stringify(seen[0]));
      assert.deepEqual([seen[0].out, seen[0].hints], [0, []]);
      // the fixed pane keeps its height; its cut bottom says so, a button a reader (and a screen reader) can press
      assert.equal(seen[1].height, 300);
      assert.ok(seen[1].out > 0);
      assert.deepEqual(seen[1].hints, ['more ▾']);
      const fixed = views.nth(1);
      const down = fixed.getByRole('button', { name: 'more ▾' });
      assert.match((await down.getAttribute('title')) ?? '', /more of the graph/);
      const top = () =>
        fixed
          .locator('.pl-node rect.pl-box')
          .first()
          .evaluate((e) => e.getBoundingClientRect().top);
      const before = await top();
      await settled(page, fixed.locator('.pl-graph'), () => down.click());
      assert.ok((await top()) < before - 100, 'the click panned down');
      assert.ok(await fixed.getByRole('button', { name: '▴ more' }).isVisible(), 'what lies above says so now');
      await page.screenshot({ path: join(ARTIFACTS, `views-tall-${scheme}.png`), fullPage: true });
      assert.deepEqual(errors, []);
      await page.close();
    }
  });

  it('the wheel scrolls the page; Ctrl+wheel (or wheel after a click into the graph) zooms', async () => {
    const head = '<style>body{padding-bottom:2000px}</style>';
    const { page } = await open(writePage('views-wheel.html', [fixture('conv_prepared.json')], head), {
      height: 700,
    });
    const box = await page.locator('.pl-canvas').boundingBox();
    const k0 = await scaleOf(page);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, 300);
    // the wheel's handler has run once the page scrolled (it calls no preventDefault): the zoom would be set by then
    await page.waitForFunction(() => window.scrollY > 0);
    assert.equal(await scaleOf(page), k0, 'plain wheel does not zoom');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForFunction(() => window.scrollY === 0);
    const box2 = await page.locator('.pl-canvas').boundingBox();
    await page.mouse.move(box2.x + box2.width / 2, box2.y + 40);
    const pane = page.locator('.pl-graph');
    await page.keyboard.down('Control');
    await settled(page, pane, () => page.mouse.wheel(0, -200));
    await page.keyboard.up('Control');
    const k1 = await scaleOf(page);
    assert.ok(k1 > k0, `ctrl+wheel zooms in (${k0} → ${k1})`);
    await page.mouse.click(box2.x + 5, box2.y + 5);
    await settled(page, pane, () => page.mouse.wheel(0, 200));
    assert.ok((await scaleOf(page)) < k1, 'after a click the plain wheel zooms');
    await page.close();
  });

  it('a large quantized model opens collapsed with badges that count what each group holds', async () => {
    const doc = fixture('real_large.json');
    const snap = doc.panes[0].snapshot;
    for (const scheme of ['light', 'dark']) {
      const { page } = await open(writePage('views-large.html', [doc]), { colorScheme: scheme });
      assert.ok((await page.locator('.pl-group.pl-collapsed').count()) >= 1);
      // open `blocks`: eight closed blocks, each with badges
      const blocks = page.locator('.pl-group.pl-collapsed[data-group="blocks"]');
      if (await blocks.count()) {
        await blocks.click();
        await page.locator('.pl-group.pl-collapsed[data-group="blocks.0"]').waitFor();
      }
      const counted = await page.$$eval('.pl-group.pl-collapsed', (gs) =>
        gs.map((g) => ({
          key: g.getAttribute('data-group'),
          q: Number(g.getAttribute('data-q')),
          b: g.querySelectorAll('.pl-gbadge').length,
        })),
      );
      assert.ok(counted.length >= 8, JSON.stringify(counted));
      assert.ok(counted.every((c) => c.b > 0));
      const total = counted.reduce((s, c) => s + c.q, 0);
      const drawnQ = await page.locator('.pl-node[data-role="quantize"]').count();
      assert.equal(total + drawnQ, snap.qdq.filter((q) => q.kind === 'quantize').length);
      await page.locator('.pl-btn', { hasText: 'Fit' }).click();
      await shot(page, `large-${scheme}`);
      // blocks.0's attention stayed fp32: its closed box says so
      await page.locator('.pl-group.pl-collapsed[data-group="blocks.0"]').click();
      const attn = page.locator('.pl-group.pl-collapsed[data-group="blocks.0.attn"]');
      await attn.waitFor();
      assert.ok(await attn.evaluate((g) => g.classList.contains('pl-all-fp32')));
      assert.equal(await attn.getAttribute('data-annotated'), '0');
      await shot(page, `large-open-${scheme}`);
      await page.close();
    }
  });

  it('details open in a drawer beside the graph and keep the selection visible', async () => {
    const { page } = await open(writePage('views-drawer.html', [fixture('conv_converted.json')]), { width: 900 });
    // the rightmost node in view: the drawer opens over that side, the view must move it clear
    const id = await page.evaluate(() => {
      const c = document.querySelector('.pl-canvas').getBoundingClientRect();
      const inView = [...document.querySelectorAll('.pl-node')].filter((n) => {
        const b = n.getBoundingClientRect();
        return b.left >= c.left && b.right <= c.right && b.top >= c.top && b.bottom <= c.bottom;
      });
      inView.sort((a, b) => b.getBoundingClientRect().right - a.getBoundingClientRect().right);
      return inView[0].getAttribute('data-id');
    });
    await page.locator(`.pl-node[data-id="${id}"]`).click();
    const drawer = await page.locator('.pl-drawer').boundingBox();
    const canvas = await page.locator('.pl-canvas').boundingBox();
    assert.ok(drawer && drawer.y < canvas.y + canvas.height && drawer.x > canvas.x, 'drawer beside, not below');
    const sel = await page.locator('.pl-node.pl-selected rect.pl-box').boundingBox();
    assert.ok(sel.x + sel.width <= drawer.x + 1, 'selection left of the drawer');
    assert.ok(sel.y >= canvas.y && sel.y + sel.height <= canvas.y + canvas.height, 'selection in view');
    await shot(page, 'drawer-light');
    await page.close();
  });
});
