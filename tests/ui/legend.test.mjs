// The legend at the side panel's ~250 px: folded to one line by default, one toggle opens it, the choice is
// remembered (a reload keeps it), wide outputs start open; readable in JupyterLab's light and dark themes.
// Screenshots: tests/ui/artifacts/views-legend-250-{light,dark}-{folded,open}.png

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { launch } from './browser.mjs';
import { ARTIFACTS, fixture, ROOT, writePage } from './pages.mjs';
import { idle } from './settled.mjs';

// JupyterLab 4's own light / dark theme variables and our lab stylesheet (as views.test.mjs uses them)
const JP = {
  light:
    '--jp-layout-color0:#ffffff;--jp-layout-color1:#ffffff;--jp-layout-color2:#eeeeee;--jp-layout-color3:#bdbdbd;--jp-ui-font-color1:rgba(0,0,0,.87);--jp-ui-font-color2:rgba(0,0,0,.54);--jp-border-color1:#bdbdbd',
  dark: '--jp-layout-color0:#111111;--jp-layout-color1:#212121;--jp-layout-color2:#424242;--jp-layout-color3:#616161;--jp-ui-font-color1:rgba(255,255,255,.87);--jp-ui-font-color2:rgba(255,255,255,.54);--jp-border-color1:#616161',
};
const LAB_CSS = readFileSync(join(ROOT, 'style/index.css'), 'utf8');

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function open(context, url) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await ready(page);
  return { page, errors };
}

/** Drawn and settled: a rendered frame after the panes' last paint, so the legend's ResizeObserver has folded it. */
async function ready(page) {
  await page.waitForFunction(() => document.querySelector('.pt2e-lens')?.getAttribute('data-state') === 'ready');
  await idle(page, page.locator('.pt2e-lens'));
}

const legend = (page) =>
  page.$eval('.pl-legend', (lg) => {
    const t = lg.querySelector('.pl-legend-toggle');
    const line = Number.parseFloat(getComputedStyle(lg).fontSize) * 2.6; // one line of text, its padding
    const a = lg.getBoundingClientRect();
    const b = t.getBoundingClientRect();
    return {
      toggleShown: b.height > 0 && b.top >= a.top - 0.5 && b.bottom <= a.bottom + 0.5,
      folded: lg.classList.contains('pl-legend-folded'),
      expanded: t.getAttribute('aria-expanded'),
      height: lg.getBoundingClientRect().height,
      line,
      label: t.textContent,
      toggleBg: getComputedStyle(t).backgroundColor,
    };
  });

async function theme(page, name) {
  await page.evaluate(
    ([vars, light]) => {
      document.body.setAttribute('style', `${vars};background:var(--jp-layout-color0);margin:0`);
      document.body.setAttribute('data-jp-theme-light', String(light));
    },
    [JP[name], name === 'light'],
  );
  // no work of the views' own: the styles read next are computed as they are read
}

describe('legend at the side panel width', () => {
  it('starts folded to one line at 250 px, opens with one toggle, remembers the choice; themed', async () => {
    const url = writePage(
      'legend-250.html',
      [fixture('real_run.json')],
      `<style>${LAB_CSS}\n.output{width:250px}</style>`,
    );
    const context = await browser.newContext({ viewport: { width: 600, height: 1200 } });
    const { page, errors } = await open(context, url);
    const bg = {};
    for (const name of ['light', 'dark']) {
      await theme(page, name);
      const folded = await legend(page);
      assert.equal(folded.folded, true, `${name}: folded by default when narrow`);
      assert.equal(folded.expanded, 'false');
      assert.ok(folded.height <= folded.line, `${name}: one line, got ${folded.height}px`);
      assert.ok(folded.toggleShown, `${name}: the toggle is not clipped`);
      bg[name] = folded.toggleBg;
      await page.locator('.pl-legend').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ARTIFACTS, `views-legend-250-${name}-folded.png`) });
    }
    assert.notEqual(bg.light, bg.dark); // the toggle follows the theme
    await page.click('.pl-legend-toggle');
    const open1 = await legend(page);
    assert.equal(open1.folded, false);
    assert.equal(open1.expanded, 'true');
    assert.ok(open1.height > 2 * open1.line, `open: every item shown, got ${open1.height}px`);
    for (const name of ['light', 'dark']) {
      await theme(page, name);
      await page.locator('.pl-legend').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ARTIFACTS, `views-legend-250-${name}-open.png`) });
    }
    // remembered: a reload (and every other legend) opens as the user left it
    await page.reload();
    await ready(page);
    assert.equal((await legend(page)).folded, false);
    await page.click('.pl-legend-toggle');
    await page.reload();
    await ready(page);
    assert.equal((await legend(page)).folded, true);
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('a wide output starts with the whole legend open', async () => {
    const context = await browser.newContext({ viewport: { width: 1300, height: 900 } });
    const { page, errors } = await open(context, writePage('legend-wide.html', [fixture('real_run.json')]));
    const lg = await legend(page);
    assert.equal(lg.folded, false);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
