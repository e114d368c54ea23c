// The shipped course chapters, executed and exported by nbconvert (a page that says lang="en"), read offline in
// light and dark, with scripts on and off (issue 18): every output speaks zh-TW because the chapter chose it
// (course_setup), and the seed's own M00-3 draw_stages call shows its four groups inside the panes.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { launch } from './browser.mjs';
import { builtCourse } from './course-build.mjs';
import { PYTHON } from './lab_server.mjs';
import { ARTIFACTS, ROOT } from './pages.mjs';

const hasBook = spawnSync(PYTHON, ['-c', 'import jupyter_book'], { encoding: 'utf8' }).status === 0;
const skip = hasBook ? false : 'jupyter-book not installed (pip install -e ".[test]")';
const CHAPTERS = ['m00_3_decomposition', 'm03_6_partial_composable_order'];
// what an English output shows (the front end's buttons and legend, Python's summaries and table words)
const ENGLISH =
  /Collapse all|Expand all|\bLegend\b|\bFit\b|\d nodes|observers,|sharing groups|\(output\)|observer added/;
const zh = JSON.parse(readFileSync(join(ROOT, 'kernel_pkg/pt2e_lens/locales/zh-TW.json'), 'utf8'));

let browser;
let dir;
const problems = { dialogs: [], errors: [] };

before(async () => {
  if (skip) return;
  dir = builtCourse();
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** A chapter's nbconvert page, offline; `scripts` false: JavaScript off, as GitHub or a stripped page shows it. */
async function open(chapter, theme, scripts) {
  const context = await browser.newContext({
    viewport: { width: 1300, height: 900 },
    javaScriptEnabled: scripts,
    colorScheme: theme,
  });
  const page = await context.newPage();
  await page.route(/^(?!file:|data:|blob:).*/, (route) => route.abort());
  page.on('dialog', async (d) => {
    problems.dialogs.push(d.message());
    await d.dismiss();
  });
  page.on('pageerror', (e) => problems.errors.push(`${chapter}: ${e.message}`));
  const file = `${chapter}.nbconvert${theme === 'dark' ? '-dark' : ''}.html`;
  await page.goto(pathToFileURL(join(dir, file)).href);
  if (scripts)
    await page.waitForFunction(
      () => {
        const roots = [...document.querySelectorAll('.pt2e-lens')];
        return roots.length > 0 && roots.every((r) => r.getAttribute('data-state') === 'ready');
      },
      null,
      { timeout: 120000 },
    );
  return page;
}

/** The text people read in every pt2e-lens output, and the language each output says it is in. */
function outputsText(page, selector) {
  return page.evaluate(
    (sel) =>
      [...document.querySelectorAll(sel)].map((r) => ({
        lang: r.closest('[lang]')?.getAttribute('lang'),
        // visible words plus the buttons' and badges' tooltips and labels
        text: [
          r.textContent,
          ...[...r.querySelectorAll('[title],[aria-label]')].map(
            (e) => `${e.getAttribute('title') ?? ''} ${e.getAttribute('aria-label') ?? ''}`,
          ),
        ].join('\n'),
      })),
    selector,
  );
}

describe('the course chapters on an nbconvert page, in zh-TW', { skip }, () => {
  for (const chapter of CHAPTERS)
    for (const theme of ['light', 'dark']) {
      it(`${chapter} (${theme}), scripts on: every output draws in zh-TW on a lang="en" page`, async () => {
        const page = await open(chapter, theme, true);
        assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
        const outs = await outputsText(page, '.pt2e-lens');
        assert.ok(outs.length >= (chapter.startsWith('m00') ? 4 : 9), `outputs: ${outs.length}`);
        for (const o of outs) {
          assert.equal(o.lang, 'zh-TW');
          assert.doesNotMatch(o.text, ENGLISH);
        }
        const words = outs.map((o) => o.text).join('\n');
        for (const key of ['ui.fit', 'ui.collapse_all', 'ui.expand_all', 'ui.legend.toggle'])
          assert.ok(words.includes(zh[key]), key);
        await page.screenshot({ path: join(ARTIFACTS, `course-${chapter}-${theme}.png`) });
        await page.close();
      });

      it(`${chapter} (${theme}), scripts off: the static fallback is zh-TW too`, async () => {
        const page = await open(chapter, theme, false);
        const outs = await outputsText(page, '.pt2e-lens-root');
        assert.ok(outs.length >= 4, `outputs: ${outs.length}`);
        for (const o of outs) {
          assert.equal(o.lang, 'zh-TW');
          assert.doesNotMatch(o.text, ENGLISH);
        }
        const words = outs.map((o) => o.text).join('\n');
        assert.match(words, /個 node、\d+ 個 observer/); // the summaries, worded by Python in zh-TW
        await page.screenshot({ path: join(ARTIFACTS, `course-${chapter}-${theme}-noscript.png`) });
        await page.close();
      });
    }

  /** Every output area of a page, top to bottom: printed lines, tables and graphs alike. */
  const outputAreas = (page, selector) =>
    page.evaluate((sel) => [...document.querySelectorAll(sel)].map((o) => o.textContent), selector);

  for (const chapter of CHAPTERS)
    for (const scripts of [true, false]) {
      const how = scripts ? 'scripts on' : 'scripts off';
      it(`${chapter}, ${how}: every output area of the nbconvert page, top to bottom, has no English UI word`, async () => {
        const page = await open(chapter, 'light', scripts);
        const areas = await outputAreas(page, '.jp-OutputArea-output');
        assert.ok(areas.length >= 8, `output areas: ${areas.length}`);
        const english = areas.filter((t) => ENGLISH.test(t)).map((t) => t.slice(0, 120));
        assert.deepEqual(english, []);
        await page.close();
      });

      it(`${chapter}, ${how}: the Jupyter Book page reads in zh-TW, top to bottom`, async () => {
        const context = await browser.newContext({
          viewport: { width: 1300, height: 900 },
          javaScriptEnabled: scripts,
        });
        const page = await context.newPage();
        await page.route(/^(?!file:|data:|blob:).*/, (route) => route.abort());
        page.on('pageerror', (e) => problems.errors.push(`book ${chapter}: ${e.message}`));
        await page.goto(pathToFileURL(join(dir, '_build/html', `${chapter}.html`)).href);
        const roots = scripts ? '.pt2e-lens' : '.pt2e-lens-root';
        if (scripts)
          await page.waitForFunction(
            () => [...document.querySelectorAll('.pt2e-lens')].every((r) => r.getAttribute('data-state') === 'ready'),
            null,
            { timeout: 120000 },
          );
        const outs = await outputsText(page, roots);
        assert.ok(outs.length >= 4, `outputs: ${outs.length}`);
        for (const o of outs) assert.equal(o.lang, 'zh-TW');
        const areas = await outputAreas(page, '.cell_output');
        assert.ok(areas.length >= 5, `output areas: ${areas.length}`);
        assert.deepEqual(
          areas.filter((t) => ENGLISH.test(t)).map((t) => t.slice(0, 120)),
          [],
        );
        await context.close();
      });
    }

  it('M00-3: the seed’s draw_stages call shows all four groups inside the panes, nothing cropped', async () => {
    const page = await open(CHAPTERS[0], 'light', true);
    const outside = await page.evaluate(() => {
      const root = [...document.querySelectorAll('.pt2e-lens')].find(
        (r) => r.querySelector('.pl-title')?.textContent === 'stem 的 conv → bn → relu',
      );
      const off = [];
      for (const canvas of root.querySelectorAll('.pl-canvas')) {
        const box = canvas.getBoundingClientRect();
        for (const n of canvas.querySelectorAll('.pl-node')) {
          const r = n.getBoundingClientRect();
          if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1)
            off.push(n.getAttribute('data-id'));
        }
      }
      root.scrollIntoView();
      return { off, nodes: root.querySelectorAll('.pl-node').length };
    });
    assert.equal(outside.nodes, 12 + 16); // four groups: 3 nodes each before, 4 after
    assert.deepEqual(outside.off, []);
    await page.screenshot({ path: join(ARTIFACTS, 'course-m00_3-groups.png') });
    await page.close();
  });

  // issue 18.5: M03-6 part C shows the two orders side by side, the moved observer marked in both panes
  const MOVED_LINE = zh['compare.moved.line'].split('{')[0]; // "observer 換了位置："
  for (const theme of ['light', 'dark']) {
    it(`M03-6 (${theme}): pl.compare of the two orders marks the observer torchao moved, in both panes`, async () => {
      const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')).moved_observer;
      const page = await open(CHAPTERS[1], theme, true);
      const seen = await page.evaluate((line) => {
        const root = [...document.querySelectorAll('.pt2e-lens')].find((r) =>
          r.querySelector('.pl-title')?.textContent.startsWith(line),
        );
        root.scrollIntoView();
        const panes = [...root.querySelectorAll('.pl-pane')];
        const ids = (pane, cls) => [...pane.querySelectorAll(`.pl-node.${cls}`)].map((n) => n.getAttribute('data-id'));
        return {
          title: root.querySelector('.pl-title').textContent,
          removed: ids(panes[0], 'pl-removed'),
          added: ids(panes[1], 'pl-added'),
          otherMarks: [...ids(panes[0], 'pl-added'), ...ids(panes[1], 'pl-removed')],
          notes: panes.map((p) => [...p.querySelectorAll('.pl-callout')].map((c) => c.textContent).join(' ')),
          labels: panes.map((p) => p.querySelector('.pl-pane-label')?.textContent),
        };
      }, MOVED_LINE);
      // where torchao's own prepare_pt2e put it: after relu (big first), between conv2d and relu (small first)
      assert.deepEqual(seen.removed, [expected[0]]);
      assert.deepEqual(seen.added, [expected[1]]);
      assert.deepEqual(seen.otherMarks, []);
      assert.deepEqual(seen.labels, ['大 pattern 先', '小 pattern 先']);
      assert.match(seen.title, /relu 的輸出.*conv2d 的輸出/);
      assert.match(seen.notes[0], /relu/);
      assert.match(seen.notes[1], /conv2d/);
      for (const n of seen.notes) assert.ok(n.includes('那裡沒有'), n);
      await page.screenshot({ path: join(ARTIFACTS, `course-m03_6-orders-${theme}.png`) });
      await page.close();
    });

    it(`M03-6 (${theme}), scripts off: the line and the table say which observer moved`, async () => {
      const page = await open(CHAPTERS[1], theme, false);
      const text = await page.evaluate(
        (line) =>
          [...document.querySelectorAll('.pt2e-lens-root')]
            .map((r) => r.textContent)
            .find((t) => t.includes(line) && t.includes('大 pattern 先')),
        MOVED_LINE,
      );
      assert.ok(text, 'no fallback says what moved');
      assert.match(text, /大 pattern 先.*relu 的輸出/);
      assert.match(text, /小 pattern 先.*conv2d 的輸出/);
      await page.close();
    });
  }

  it('ran without page errors or dialogs', () => {
    assert.deepEqual(problems, { dialogs: [], errors: [] });
  });
});
