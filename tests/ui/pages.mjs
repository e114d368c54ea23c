// Builds self-contained offline HTML pages: the report bundle inlined once + one JSON script per output,
// the way the Python side writes saved reports.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { idle } from './settled.mjs';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const ARTIFACTS = join(ROOT, 'tests/ui/artifacts');
export const MIME = JSON.parse(readFileSync(join(ROOT, 'kernel_pkg/pt2e_lens/schema/contract.json'), 'utf8')).mime_type;

/** JSON safe inside <script>: no "</script>", no "<!--". */
export function scriptJson(doc) {
  return JSON.stringify(doc)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export function reportPage(docs, title = 'pt2e-lens report', head = '') {
  const bundle = readFileSync(join(ROOT, 'kernel_pkg/pt2e_lens/_static/report.js'), 'utf8').replace(
    /<\/script/gi,
    '<\\/script',
  );
  const outputs = docs
    .map(
      (d) =>
        `<div class="output"></div>\n<script type="${MIME}">${typeof d === 'string' ? d.replace(/</g, '\\u003c') : scriptJson(d)}</script>`,
    )
    .join('\n');
  return `<!doctype html>\n<html><head><meta charset="utf-8"><title>${title}</title>
<meta name="color-scheme" content="light dark">
${head}<style>body{margin:12px}</style></head><body>
${outputs}
<script>${bundle}</script>
</body></html>\n`;
}

/** The Views in outputs' MIME data (packed, or plain from 0.1), read by pt2e_lens.schema.packed.unpack, the one
 * documented way (docs/contract.md, "Packed transport"): one Python call for the whole list. */
export function unpackOutputs(datas) {
  const python = process.env.PT2E_LENS_PYTHON ?? join(ROOT, '.venv', 'bin', 'python');
  const code = [
    'import json, sys',
    'from pt2e_lens.schema.packed import unpack',
    'print(json.dumps([unpack(d) for d in json.load(sys.stdin)]))',
  ].join('\n');
  const env = { ...process.env, PYTHONPATH: join(ROOT, 'kernel_pkg') };
  const out = execFileSync(python, ['-c', code], { input: JSON.stringify(datas), env, maxBuffer: 1 << 30 });
  return JSON.parse(out.toString('utf8'));
}

/** A View packed as the Python side packs it (the plain `gzip+base64` encoding, made here with node's zlib). */
export const packedEnvelope = (doc) => ({
  format: 'pt2e-lens.packed',
  encoding: 'gzip+base64',
  schema_version: 1,
  data: gzipSync(JSON.stringify(doc)).toString('base64'),
});

export function fixture(name) {
  return JSON.parse(readFileSync(join(ROOT, 'tests/ts/fixtures', name), 'utf8'));
}

/** Write a page under tests/ui/artifacts and return its file:// URL. */
export function writePage(name, docs, head = '') {
  mkdirSync(ARTIFACTS, { recursive: true });
  const p = join(ARTIFACTS, name);
  writeFileSync(p, reportPage(docs, 'pt2e-lens report', head));
  return pathToFileURL(p).href;
}

/** A new page at `url`, once every pt2e-lens output on it is drawn and its panes are settled (settled.mjs);
 * `errors` collects the page's uncaught errors. */
export async function openReady(
  browser,
  url,
  { width = 1300, height = 900, colorScheme = 'light', timeout = 60000 } = {},
) {
  const page = await browser.newPage({ viewport: { width, height }, colorScheme });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForFunction(
    () => [...document.querySelectorAll('.pt2e-lens')].every((r) => r.getAttribute('data-state') === 'ready'),
    null,
    { timeout },
  );
  const roots = page.locator('.pt2e-lens');
  if (await roots.count()) await idle(page, roots);
  return { page, errors };
}
