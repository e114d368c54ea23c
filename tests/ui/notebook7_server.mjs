// A throwaway Jupyter Notebook 7 server (`jupyter notebook`) with this worktree's labextension and kernel
// package, no auth, the app exposed as window.jupyterapp.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { freePort, PYTHON } from './lab_server.mjs';
import { ROOT } from './pages.mjs';

/** `files`: name → text, or a path to copy. */
export async function startNotebook7(files) {
  const port = await freePort();
  const tmp = mkdtempSync(join(tmpdir(), 'pt2e-lens-nb7-'));
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
    'notebook',
    '--no-browser',
    `--port=${port}`,
    '--ServerApp.port_retries=0',
    '--ServerApp.ip=127.0.0.1',
    '--IdentityProvider.token=',
    '--ServerApp.password=',
    '--ServerApp.disable_check_xsrf=True',
    '--ServerApp.allow_root=True',
    `--ServerApp.root_dir=${root}`,
    '--JupyterNotebookApp.expose_app_in_browser=True',
    `--JupyterNotebookApp.extra_labextensions_path=${ext}`,
    `--JupyterNotebookApp.workspaces_dir=${join(tmp, 'ws')}`,
  ];
  const env = {
    ...process.env,
    PYTHONPATH: join(ROOT, 'kernel_pkg'),
    PYTHONWARNINGS: 'ignore',
    JUPYTER_CONFIG_DIR: join(tmp, 'config'),
  };
  const proc = spawn(PYTHON, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  proc.stdout.on('data', (d) => (log += d));
  proc.stderr.on('data', (d) => (log += d));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`${url}/api/status`)).ok) return { url, stop: () => proc.kill('SIGTERM'), log: () => log };
    } catch {
      // not up yet
    }
    if (proc.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  proc.kill('SIGKILL');
  throw new Error(`jupyter notebook did not start:\n${log}`);
}
