// What the viewer (report.js, inlined in every saved output) is made of, gzipped: each module's minified code
// gzipped on its own (an upper bound of its share: gzip also finds repeats across modules) and the whole bundle
// gzipped, as esbuild makes it (scripts/report-build.mjs; the build then runs terser over it, ~3 % less).
//   npm run build:worker && node bench/viewer_weight.mjs [--top 25]
// A saved output carries it LZMA-compressed in base91 (16 characters per 13 bytes) with a ~1.7 kB unpacker:
// bench/notebook_size.py gives those exact bytes. kB = 1,000 B.

import { gzipSync } from 'node:zlib';
import { build, transform } from 'esbuild';
import { REPORT } from '../scripts/report-build.mjs';

const top = Number(process.argv[process.argv.indexOf('--top') + 1]) || 25;
const gz = (s) => gzipSync(Buffer.from(s), { level: 9 }).length;
const kb = (n) => `${(n / 1000).toFixed(1)} kB`;
const base = {
  ...REPORT,
  bundle: true,
  target: ['es2020'],
  legalComments: 'none',
  write: false,
  logLevel: 'warning',
  supported: { 'inline-script': false },
};

const whole = (await build({ ...base, minify: true })).outputFiles[0].text;
// minified but for whitespace: esbuild keeps a `// path` line before each module's code, so it can be cut there
const marked = (await build({ ...base, minifySyntax: true, minifyIdentifiers: true })).outputFiles[0].text;
const parts = marked.split(/^ {2}\/\/ (\S+)\n/m);
const rows = [];
for (let i = 1; i < parts.length; i += 2) {
  // a piece that does not parse alone (the wrapper's closing `})();`) loses its indentation only
  const code = await transform(parts[i + 1], { loader: 'js', minifyWhitespace: true, logLevel: 'silent' }).then(
    (r) => r.code,
    () => parts[i + 1].replace(/^\s+/gm, ''),
  );
  rows.push({ module: parts[i], raw: Buffer.byteLength(code), gzip: gz(code) });
}
rows.sort((a, b) => b.gzip - a.gzip);
const total = gz(whole);
console.log(`report.js (esbuild): ${kb(Buffer.byteLength(whole))} raw, gzip -9 ${kb(total)}\n`);
console.log('| module | minified | gzip alone | share of the sum |\n|---|---|---|---|');
const sum = rows.reduce((s, r) => s + r.gzip, 0);
for (const r of rows.slice(0, top))
  console.log(`| ${r.module} | ${kb(r.raw)} | ${kb(r.gzip)} | ${((100 * r.gzip) / sum).toFixed(1)} % |`);
const rest = rows.slice(top);
if (rest.length)
  console.log(
    `| ${rest.length} more | ${kb(rest.reduce((s, r) => s + r.raw, 0))} | ${kb(rest.reduce((s, r) => s + r.gzip, 0))} | |`,
  );
console.log(`\nsum of the modules gzipped alone ${kb(sum)}; the bundle gzipped ${kb(total)}`);
