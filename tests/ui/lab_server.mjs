// Throwaway JupyterLab / Notebook 7 servers with this checkout's labextension and kernel package, no auth, the
// app exposed as window.jupyterapp, for UI tests.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { ROOT } from './pages.mjs';
import { serverLog } from './server-log.mjs';
import { resized } from './settled.mjs';

export const PYTHON = process.env.PT2E_LENS_PYTHON ?? join(ROOT, '.venv', 'bin', 'python');

/** A notebook file from a list of code cells. */
export function notebook(cells) {
  return JSON.stringify({
    nbformat: 4,
    nbformat_minor: 5,
    metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } },
    cells: cells.map((source, i) => ({
      cell_type: 'code',
      id: `c${i}`,
      metadata: {},
      execution_count: null,
      outputs: [],
      source,
    })),
  });
}

export function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** A JupyterLab server on `files` (name → text, or an absolute path to copy). */
export function startLab(files) {
  return startJupyter('jupyterlab', 'LabApp', 'LabServerApp', files);
}

/** A Jupyter Notebook 7 server (`jupyter notebook`), set up the same way. */
export function startNotebook7(files) {
  return startJupyter('notebook', 'JupyterNotebookApp', 'JupyterNotebookApp', files);
}

async function startJupyter(module, app, serverApp, files) {
  const port = await freePort();
  const tmp = mkdtempSync(join(tmpdir(), 'pt2e-lens-ui-'));
  const root = join(tmp, 'root');
  const ext = join(tmp, 'labextensions');
  mkdirSync(root);
  mkdirSync(ext);
  symlinkSync(join(ROOT, 'extension/labextension'), join(ext, 'pt2e-lens'));
  for (const [name, text] of Object.entries(files)) {
    if (text.startsWith('/')) copyFileSync(text, join(root, basename(name)));
    else writeFileSync(join(root, name), text);
  }
  const args = [
    '-m',
    module,
    '--no-browser',
    `--port=${port}`,
    '--ServerApp.port_retries=0',
    '--ServerApp.ip=127.0.0.1',
    '--IdentityProvider.token=',
    '--ServerApp.password=',
    '--ServerApp.disable_check_xsrf=True',
    '--ServerApp.allow_root=True',
    `--ServerApp.root_dir=${root}`,
    `--${app}.expose_app_in_browser=True`,
    `--${serverApp}.extra_labextensions_path=${ext}`,
    `--${app}.workspaces_dir=${join(tmp, 'ws')}`,
  ];
  const env = {
    ...process.env,
    PYTHONPATH: join(ROOT, 'kernel_pkg'),
    PYTHONWARNINGS: 'ignore',
    JUPYTER_CONFIG_DIR: join(tmp, 'config'),
  };
  const proc = spawn(PYTHON, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = `http://127.0.0.1:${port}`;
  const log = serverLog(proc, `${url}/`);
  try {
    await log.listening;
    // Jupyter prints its URL before its IOLoop binds the port (a callback of the loop): a refused connection then
    // means "not yet". jupyter_lsp logs which language servers it skipped from a task of the running loop, which
    // runs after that bind: wait for that line, then ask again.
    const status = () => fetch(`${url}/api/status`).catch(() => null);
    let answer = await status();
    if (answer === null && (await log.seen((t) => t.includes('Skipped non-installed server'), 120000)))
      answer = await status();
    if (!answer?.ok) throw new Error(answer ? '/api/status answered no' : 'fetch failed');
  } catch (e) {
    proc.kill('SIGKILL');
    throw new Error(`jupyter ${module} did not start (${e.message}):\n${log.text()}`);
  }
  return { url, root, stop: () => stopServer(proc), log: log.text };
}

// SIGTERM lets the server shut its kernels down; a server that is still there 5 s later (seen on a loaded
// machine) is killed, so the test process never waits on it.
function stopServer(proc) {
  proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.exitCode === null && proc.kill('SIGKILL'), 5000);
  timer.unref();
  proc.once('exit', () => clearTimeout(timer));
}

/** Until JupyterLab on `page` has restored its workspace (its `restored` promise): a notebook opened before that
 * may lose the focus to what the restore adds (a launcher in an empty main area). */
export async function labRestored(page) {
  await page.waitForFunction(() => window.jupyterapp?.restored);
  await page.evaluate(() => window.jupyterapp.restored);
}

/** From now on, answer "No Kernel" whenever JupyterLab asks `page` for a notebook's kernel: a restored notebook
 * asks when its session starts, which can come after a one-time look (dismissKernelDialogs) on a busy machine.
 * Playwright runs the handler before any action or wait the dialog would block; it answers every dialog shown
 * (several restored notebooks ask at once), so that none is left when playwright checks. */
export async function answerKernelDialogs(page) {
  const nope = page.getByRole('dialog').getByRole('button', { name: 'No Kernel' });
  await page.addLocatorHandler(nope.first(), () => dismissKernelDialogs(page));
}

/** Answer "No Kernel" to each kernel dialog JupyterLab opens (one per restored notebook). */
export async function dismissKernelDialogs(page) {
  const dialog = page.getByRole('dialog');
  const nope = dialog.getByRole('button', { name: 'No Kernel' });
  for (let k = 0; k < 10 && (await nope.count()); k++) {
    const shown = await dialog.first().elementHandle();
    await nope.first().click();
    await page.waitForFunction((d) => !d.isConnected, shown); // that dialog closed (the next may follow)
  }
}

/** Wait until the current notebook's kernel is idle (`timeout` ms, else the page's default). */
export async function kernelIdle(page, timeout) {
  await page.waitForFunction(
    () => window.jupyterapp?.shell.currentWidget?.sessionContext?.session?.kernel?.status === 'idle',
    null,
    timeout === undefined ? {} : { timeout },
  );
}

/** Answer JupyterLab's "news" toast, if it shows within 10 s, so that it covers nothing. */
export async function dismissNewsToast(page) {
  await page
    .locator('#react-toastify-container button', { hasText: /^No$/ })
    .first()
    .click({ timeout: 10000 })
    .catch(() => {});
}

/** Switch JupyterLab's theme ('JupyterLab Light' / 'JupyterLab Dark') and wait until the page wears it. */
export async function setLabTheme(page, theme) {
  await page.evaluate((t) => window.jupyterapp.commands.execute('apputils:change-theme', { theme: t }), theme);
  // JupyterLab shows its splash while it loads a theme and removes it 200 ms after the fade: a second theme change
  // inside that window appends the same splash again and one removal throws (its own race): wait until it is gone
  await page.waitForFunction(
    (t) => document.body.dataset.jpThemeName === t && !document.getElementById('jupyterlab-splash'),
    theme,
    { timeout: 30000 },
  );
}

/** Every pt2e-lens output of the page at `width` px (null: as wide as the notebook gives it), once the
 * ResizeObservers' re-fits are drawn. */
export async function setOutputsWidth(page, width) {
  await resized(page, page.locator('.jp-Pt2eLens .pt2e-lens'), () =>
    page.evaluate((w) => {
      for (const e of document.querySelectorAll('.jp-Pt2eLens')) {
        e.style.width = w ? `${w}px` : '';
        e.style.flex = w ? 'none' : '';
      }
    }, width),
  );
}
