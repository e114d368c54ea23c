// A throwaway code-server (VS Code in the browser, scripts/ensure-code-server.sh) with our .vsix installed.
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { freePort } from './lab_server.mjs';
import { ROOT } from './pages.mjs';
import { serverLog } from './server-log.mjs';

export const VSIX = join(ROOT, 'dist/pt2e-lens-renderer.vsix');

/** Installs code-server if missing (slow the first time) and returns its entry point. */
export function ensureCodeServer() {
  const out = execFileSync('bash', [join(ROOT, 'scripts/ensure-code-server.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 1800000,
  });
  return out.trim().split('\n').pop();
}

// Offline and quiet: no welcome page, no trust prompt, no update or gallery checks; .ipynb always opens
// in the notebook editor (else a file opened before the ipynb extension activates shows as JSON).
const SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'update.mode': 'none',
  'workbench.editorAssociations': { '*.ipynb': 'jupyter-notebook' },
};

/** Starts code-server on a folder holding `files` (paths copied in); returns { url, folder, settings, stop, log,
 * seen } (server-log.mjs). */
export async function startCodeServer(entry, files) {
  const tmp = mkdtempSync(join(tmpdir(), 'pt2e-lens-vscode-'));
  const userData = join(tmp, 'user-data');
  const extensions = join(tmp, 'extensions');
  const folder = join(tmp, 'workspace');
  for (const d of [join(userData, 'User'), extensions, folder]) mkdirSync(d, { recursive: true });
  writeFileSync(join(userData, 'User', 'settings.json'), JSON.stringify(SETTINGS));
  for (const f of files) copyFileSync(f, join(folder, basename(f)));
  const common = ['--user-data-dir', userData, '--extensions-dir', extensions, '--config', join(tmp, 'config.yaml')];
  execFileSync(process.execPath, [entry, ...common, '--install-extension', VSIX], { stdio: 'inherit' });
  const listed = execFileSync(process.execPath, [entry, ...common, '--list-extensions'], { encoding: 'utf8' });
  const port = await freePort();
  const args = [
    entry,
    ...common,
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    folder,
  ];
  const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const url = `http://127.0.0.1:${port}`;
  // code-server prints "HTTP server listening on http://127.0.0.1:<port>/" once it listens
  const log = serverLog(proc, `127.0.0.1:${port}`);
  try {
    await log.listening;
    if (!(await fetch(`${url}/healthz`)).ok) throw new Error('/healthz answered no');
  } catch (e) {
    proc.kill('SIGKILL');
    throw new Error(`code-server did not start (${e.message}):\n${log.text()}`);
  }
  return {
    url,
    folder,
    extensions: listed.trim().split('\n'),
    // the running workbench follows its user settings file (a colour theme, say)
    settings: (extra) =>
      writeFileSync(join(userData, 'User', 'settings.json'), JSON.stringify({ ...SETTINGS, ...extra })),
    stop: () => proc.kill('SIGTERM'),
    log: log.text,
    seen: log.seen,
  };
}
