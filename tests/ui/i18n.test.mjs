// zh-TW in Chromium: the CLI's report (`pt2e-lens report --example tiny --lang zh-TW`) shows no English UI
// word, says lang="zh-TW", and a view with Chinese notes and title draws them whole (screenshot in artifacts/).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { launch } from './browser.mjs';
import { ARTIFACTS, ROOT } from './pages.mjs';

const PY = process.env.PT2E_LENS_PYTHON ?? 'python3';
const LOCALES = join(ROOT, 'kernel_pkg/pt2e_lens/locales');
const en = JSON.parse(readFileSync(join(LOCALES, 'en.json'), 'utf8'));
const zh = JSON.parse(readFileSync(join(LOCALES, 'zh-TW.json'), 'utf8'));
const words = (s) => (s.replace(/\{\w+\}/g, ' ').match(/[A-Za-z][A-Za-z_]+/g) ?? []).map((w) => w.toLowerCase());

// words only the English catalogue uses: seeing one on a zh-TW page means an untranslated UI string
const zhWords = new Set(Object.values(zh).flatMap(words));
const englishOnly = new Set(
  Object.keys(en)
    .filter((k) => en[k] !== zh[k])
    .flatMap((k) => words(en[k]))
    .filter((w) => !zhWords.has(w)),
);

/** Words the data spells (node, op, module, class, dtype names; table cells): they stay as torch spells them. */
function dataWords(view) {
  const out = new Set();
  const add = (v) => {
    if (typeof v === 'string') for (const w of words(v)) out.add(w);
    else if (Array.isArray(v)) v.forEach(add);
  };
  for (const p of view.panes) {
    add(p.label);
    const s = p.snapshot;
    add(s.stage);
    for (const n of s.nodes) {
      [n.id, n.target, n.target_full, n.module_path, n.module_stack, n.op, n.observer, n.dtype, n.source].forEach(add);
      // the annotator functions a why line names (why.via: "（在 {fns} 裡）") are the quantizer's own code
      for (const line of n.why ?? []) for (const m of line.matchAll(/（在 (.+?) 裡）/g)) add(m[1]);
    }
    for (const sp of s.specs) [sp.id, sp.kind, sp.dtype, sp.qscheme, sp.observer].forEach(add);
    for (const o of s.observers) [o.class, o.names, o.dtype, o.qscheme].forEach(add);
    for (const q of s.qdq) [q.op, q.kind, q.granularity, q.dtype].forEach(add);
    for (const a of s.annotations) add(a.quantizer);
  }
  for (const t of view.tables) for (const r of t.rows) add(r.map((c) => (typeof c === 'string' ? c : '')));
  return out;
}

let browser;
let dir;
before(async () => {
  browser = await launch();
  dir = mkdtempSync(join(tmpdir(), 'pt2e-lens-i18n-'));
  mkdirSync(ARTIFACTS, { recursive: true });
});
after(async () => {
  await browser?.close();
});

async function open(file) {
  const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(pathToFileURL(file).href);
  await page.waitForFunction(
    () => [...document.querySelectorAll('.pt2e-lens')].every((r) => r.getAttribute('data-state') === 'ready'),
    null,
    { timeout: 120000 },
  );
  return { page, errors };
}

/** Everything a reader sees or is told: visible text, placeholders, tooltips and labels. */
const seen = (page) =>
  page.evaluate(() => {
    const attrs = [...document.querySelectorAll('[placeholder],[title],[aria-label]')].flatMap((e) =>
      ['placeholder', 'title', 'aria-label'].map((a) => e.getAttribute(a) ?? ''),
    );
    const svgTitles = [...document.querySelectorAll('svg title')].map((t) => t.textContent);
    // biome-ignore lint/performance/useDomNodeTextContent: what is visible is the point (hidden tabs are not)
    return [document.body.innerText, ...attrs, ...svgTitles].join('\n');
  });

describe('zh-TW report in chromium', () => {
  it('pt2e-lens report --lang zh-TW: lang attribute set, no English UI word on any tab or in the details', async () => {
    const html = join(dir, 'tiny.zh.html');
    execFileSync(
      PY,
      ['-m', 'pt2e_lens', 'report', '--example', 'tiny', '--lang', 'zh-TW', '--out', join(dir, 'out'), '--html', html],
      {
        stdio: 'pipe',
      },
    );
    const { page, errors } = await open(html);
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-TW');
    assert.equal(await page.evaluate(() => document.querySelector('.pt2e-lens').getAttribute('lang')), 'zh-TW');
    // the View the page carries (packed), unpacked by the page's own viewer
    const view = await page.evaluate(() =>
      globalThis.pt2eLens.unpack(
        document.querySelector('script[type="application/vnd.pt2e-lens.v1+json"]').textContent,
      ),
    );
    const allowed = dataWords(view);
    let text = await seen(page);
    // every main tab (graph, each table) and a node's details
    const tabs = await page.$$('.pl-main-tabs .pl-tab');
    assert.ok(tabs.length > 3);
    for (const tab of tabs.slice(1)) {
      await tab.click();
      text += `\n${await seen(page)}`;
    }
    await tabs[0].click();
    await page.click('.pl-pane:not([style*="none"]) .pl-node[data-role="compute"]');
    text += `\n${await seen(page)}`;
    assert.match(text, /置中|全部收合/);
    const leaks = [...new Set(words(text))].filter((w) => englishOnly.has(w) && !allowed.has(w));
    const where = text.split('\n').filter((l) => leaks.some((w) => words(l).includes(w)));
    assert.deepEqual(
      leaks,
      [],
      `English UI words on the zh-TW page: ${leaks.join(', ')} in: ${where.slice(0, 8).join(' | ')}`,
    );
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('Chinese notes and title are drawn whole (not clipped), with Chinese UI; screenshot', async () => {
    const html = join(dir, 'notes.zh.html');
    const notes = {
      conv2d: '這裡是 stem 的 conv：weight 與輸入各有一個 observer，輸出標籤貼在 relu 上',
      relu: 'relu 的輸出才插入量化點，conv 與 relu 之間不量化',
    };
    const title = 'stem 的 conv → bn → relu：標註之後、calibrate 之前，observer 放在哪裡';
    const script = `
import json, sys
import pt2e_lens as pl
from pt2e_lens.examples import example_inputs, get_model, quantizer_by_name
from pt2e_lens.report import write_html
pl.set_locale("zh-TW")  # findings are worded when a stage is captured: choose the language first
run = pl.Run(get_model("tiny").eval(), example_inputs(4))
run.prepare(quantizer_by_name("conv_relu"))
notes = json.loads(sys.argv[2])
write_html(pl.show(run["prepared"], focus=list(notes), hops=1, notes=notes, title=sys.argv[3]), sys.argv[1])
`;
    execFileSync(PY, ['-c', script, html, JSON.stringify(notes), title], { stdio: 'pipe' });
    const { page, errors } = await open(html);
    // the title: one box, nothing cut off
    const t = await page.evaluate(() => {
      const e = document.querySelector('.pt2e-lens .pl-title');
      return { text: e.textContent, over: e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1 };
    });
    assert.equal(t.text, title);
    assert.equal(t.over, false);
    // each note: every character drawn, and every line inside its callout box
    const drawn = await page.evaluate(() =>
      [...document.querySelectorAll('.pl-callout')].map((g) => {
        const box = g.querySelector('rect').getBoundingClientRect();
        const lines = [...g.querySelectorAll('text')];
        const inside = lines.every((l) => {
          const r = l.getBoundingClientRect();
          return (
            r.left >= box.left - 0.5 &&
            r.right <= box.right + 0.5 &&
            r.top >= box.top - 0.5 &&
            r.bottom <= box.bottom + 0.5
          );
        });
        return { text: lines.map((l) => l.textContent).join(''), inside };
      }),
    );
    assert.equal(drawn.length, 2);
    for (const note of Object.values(notes))
      assert.ok(
        drawn.some((d) => d.text.replace(/^✎ /, '').replace(/\s/g, '') === note.replace(/\s/g, '') && d.inside),
        note,
      );
    assert.match(await page.evaluate(() => document.querySelector('.pl-toolbar').textContent), /置中/);
    // the finding (an fp32 island from max_pool2d on) is worded in Chinese too
    assert.match(
      await page.evaluate(() => document.querySelector('.pl-findings').textContent),
      /fp32 孤島：\d+ 個 op 的 fp32 孤島（max_pool2d →/,
    );
    await page.screenshot({ path: join(ARTIFACTS, 'i18n-zh-TW-notes.png'), fullPage: true });
    assert.deepEqual(errors, []);
    await page.close();
  });
});
