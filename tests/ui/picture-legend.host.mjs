// The static picture's legend where no script runs (issue 18.2): a course chapter (zh-TW), filled by
// `python -m pt2e_lens.pictures`, exported by nbconvert in light and dark, every <script> stripped, opened with
// JavaScript off. Each picture shows its legend under the graph, in the chapter's language: the roles its nodes
// have, in the catalogue's words.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { launch } from './browser.mjs';
import { builtCourse } from './course-build.mjs';
import { PYTHON } from './lab_server.mjs';
import { ARTIFACTS, ROOT } from './pages.mjs';

const OUT = join(ARTIFACTS, 'picture-legend');
const CHAPTER = 'm00_3_decomposition';
const zh = JSON.parse(readFileSync(join(ROOT, 'kernel_pkg/pt2e_lens/locales/zh-TW.json'), 'utf8'));
const ENGLISH =
  /\b(compute|input|output|param|closed group|removed|added|annotated|higher is better|lower is better)\b/;
let browser;
const pages = {};

before(async () => {
  const book = builtCourse();
  mkdirSync(OUT, { recursive: true });
  const nbPath = join(OUT, `${CHAPTER}.ipynb`);
  copyFileSync(join(book, `${CHAPTER}.ipynb`), nbPath);
  const env = { ...process.env, PYTHONPATH: join(ROOT, 'kernel_pkg') };
  execFileSync(PYTHON, ['-m', 'pt2e_lens.pictures', nbPath], { env, stdio: 'inherit', timeout: 600000 });
  const code = [
    'import sys, nbformat',
    'from nbconvert import HTMLExporter',
    'nb = nbformat.read(sys.argv[1], as_version=4)',
    'for theme in ("light", "dark"):',
    '    body, _ = HTMLExporter(template_name="lab", theme=theme).from_notebook_node(nb)',
    '    open(sys.argv[2] + "-" + theme + ".html", "w", encoding="utf-8").write(body)',
  ].join('\n');
  execFileSync(PYTHON, ['-c', code, nbPath, join(OUT, CHAPTER)], { env, stdio: 'inherit' });
  browser = await launch();
  for (const theme of ['light', 'dark']) {
    const html = readFileSync(join(OUT, `${CHAPTER}-${theme}.html`), 'utf8');
    const stripped = html.replace(/<script\b[\s\S]*?<\/script>/gi, '');
    const file = join(OUT, `${CHAPTER}-${theme}-stripped.html`);
    writeFileSync(file, stripped);
    const context = await browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 1300, height: 900 },
      colorScheme: theme,
    });
    const page = await context.newPage();
    await page.route(/^(?!file:|data:).*/, (route) => route.abort());
    await page.goto(pathToFileURL(file).href);
    pages[theme] = page;
  }
});
after(async () => {
  await browser?.close();
});

describe('a course chapter’s pictures with scripts stripped', () => {
  for (const theme of ['light', 'dark'])
    it(`(${theme}) every picture shows its legend in zh-TW: the roles its nodes have`, async () => {
      const page = pages[theme];
      const pics = await page.evaluate(() =>
        [...document.querySelectorAll('.pt2e-lens-root .pt2e-lens-picture > svg')].map((svg) => ({
          roles: [...new Set([...svg.querySelectorAll('.pl-node')].map((n) => n.getAttribute('data-role')))],
          legend: [...svg.querySelectorAll('.pl-picture-legend')].map((g) => g.textContent),
          box: svg.querySelector('.pl-picture-legend')?.getBoundingClientRect().height ?? 0,
        })),
      );
      assert.ok(pics.length >= 3, `pictures: ${pics.length}`);
      for (const p of pics) {
        assert.ok(p.legend.length >= 1 && p.box > 10, JSON.stringify(p));
        for (const text of p.legend) {
          for (const r of p.roles) assert.ok(text.includes(zh[`ui.role.${r}`]), `${r} in ${text}`);
          assert.doesNotMatch(text, ENGLISH);
        }
      }
      const first = page.locator('.pt2e-lens-picture .pl-picture-legend').first();
      await first.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ARTIFACTS, `picture-legend-${theme}.png`) });
    });
});
