// The executed quickstart (nbclient) and what torchao's own graphs say, made once per test command:
// scripts/test.sh names a fresh folder in PT2E_LENS_EXECUTED; the first test that needs it fills it (pytest's
// tests/test_notebook.py may have put the executed notebook there already: notebook_page.py then reads it).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, ROOT } from './pages.mjs';

const PYTHON = process.env.PT2E_LENS_PYTHON ?? join(ROOT, '.venv', 'bin', 'python');

/** { dir, notebook: path of the executed .ipynb, expected: torchao's numbers (see notebook_page.py) } */
export function executedQuickstart() {
  const dir = process.env.PT2E_LENS_EXECUTED ?? join(ARTIFACTS, 'executed');
  if (!process.env.PT2E_LENS_EXECUTED || !existsSync(join(dir, 'expected.json'))) {
    execFileSync(PYTHON, [join(ROOT, 'tests/ui/notebook_page.py'), dir], { stdio: 'inherit', timeout: 600000 });
  }
  return {
    dir,
    notebook: join(dir, 'quickstart.ipynb'),
    expected: JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')),
  };
}
