// The two course chapters executed and built (tests/ui/book_build.py: the Jupyter Book and each chapter's
// nbconvert page), once per test command: scripts/test.sh names a fresh PT2E_LENS_EXECUTED folder, and the first
// host test that needs the build makes it there (from the chapters pytest's tests/test_course_notebooks.py
// executed into it, when it ran first); alone, a test builds into tests/ui/artifacts/book
// (PT2E_LENS_BOOK_BUILT=1 reuses that while iterating on a test).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PYTHON } from './lab_server.mjs';
import { ARTIFACTS, ROOT } from './pages.mjs';

export function builtCourse() {
  const shared = process.env.PT2E_LENS_EXECUTED;
  const dir = shared ? join(shared, 'book') : join(ARTIFACTS, 'book');
  const made = existsSync(join(dir, 'expected.json'));
  if (shared ? !made : !(process.env.PT2E_LENS_BOOK_BUILT && made)) {
    const env = { ...process.env, PYTHONPATH: join(ROOT, 'kernel_pkg') };
    execFileSync(PYTHON, [join(ROOT, 'tests/ui/book_build.py'), dir], { env, stdio: 'inherit', timeout: 900000 });
  }
  return dir;
}
