// `npm run build`, unless its outputs are newer than everything they are built from: a test run builds the front end
// once (the editable install of scripts/setup.sh builds it; `npm run test:browser` then finds it fresh), and a
// changed source file still rebuilds it. `--check` only says whether a build is due (exit 1 when it is).
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const INPUTS = [
  'src',
  'style',
  'kernel_pkg/pt2e_lens/locales',
  'kernel_pkg/pt2e_lens/schema',
  'scripts/build.mjs',
  'scripts/gen-contract.mjs',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'extension/vscode/package.json',
];
const OUTPUTS = [
  'kernel_pkg/pt2e_lens/_static/report.js',
  'kernel_pkg/pt2e_lens/_static/widget.js',
  'kernel_pkg/pt2e_lens/_static/workbench.js',
  'extension/vscode/renderer.js',
  'extension/labextension/package.json',
  'lib/lab/index.js',
];

/** newest mtime under `p` (a file or a folder), or 0 when it does not exist; the build's own generated sources
 * (`*.generated.ts`, rewritten by `npm test` too) are made from the inputs scanned here and do not count */
function newest(p) {
  if (p.endsWith('.generated.ts')) return 0;
  let st;
  try {
    st = statSync(p);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let m = 0;
  for (const e of readdirSync(p)) m = Math.max(m, newest(join(p, e)));
  return m;
}

const built = Math.min(...OUTPUTS.map((p) => newest(join(ROOT, p)) || -1));
const source = Math.max(...INPUTS.map((p) => newest(join(ROOT, p))));
const due = built <= 0 || source > built;
if (process.argv.includes('--check')) process.exit(due ? 1 : 0);
if (!due) console.log('front end built and newer than its sources: no rebuild');
else execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
