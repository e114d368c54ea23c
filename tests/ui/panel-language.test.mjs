// The PT2E panel follows JupyterLab's own language setting (read from its ITranslator), not the browser's:
// a real JupyterLab whose user setting says zh_TW (no language pack needed for the setting to be read) shows
// the panel in zh-TW; with no setting, English. (JupyterLab also sets <html lang> from the same setting, so
// this checks the whole path; that ITranslator wins over <html lang> is tests/ts/panel/locale.test.ts.)

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { launch } from './browser.mjs';
import { PYTHON, startLab } from './lab_server.mjs';
import { ARTIFACTS, ROOT } from './pages.mjs';

const hasLab = spawnSync(PYTHON, ['-c', 'import jupyterlab'], { encoding: 'utf8' }).status === 0;
const built = existsSync(join(ROOT, 'extension/labextension/package.json'));
const skip = !hasLab ? 'jupyterlab not installed' : !built ? 'labextension not built (npm run build)' : false;
const catalogue = (lang) =>
  JSON.parse(readFileSync(join(ROOT, 'kernel_pkg/pt2e_lens/locales', `${lang}.json`), 'utf8'));

let browser;
// one JupyterLab for the file: its settings are read from disk when a page loads, so each test writes (or removes)
// the language setting and opens a page of its own
let lab;
before(async () => {
  if (skip) return;
  browser = await launch();
  lab = await startLab({});
});
after(async () => {
  await browser?.close();
  lab?.stop();
});

/** The panel's status line and caption in a JupyterLab whose language setting is `locale` (null: none). */
async function panelIn(locale) {
  // the user settings of this throwaway server live under its JUPYTER_CONFIG_DIR
  const dir = join(dirname(lab.root), 'config/lab/user-settings/@jupyterlab/translation-extension');
  const file = join(dir, 'plugin.jupyterlab-settings');
  if (locale) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, JSON.stringify({ locale }));
  } else rmSync(file, { force: true });
  const page = await browser.newPage({ viewport: { width: 1300, height: 900 }, locale: 'en-US' });
  await page.goto(`${lab.url}/lab`);
  await page.waitForFunction(() => window.jupyterapp?.commands?.hasCommand('pt2e-lens:open-panel'), null, {
    timeout: 90000,
  });
  await page.evaluate(() => window.jupyterapp.commands.execute('pt2e-lens:open-panel'));
  const panel = page.locator('#pt2e-lens-panel');
  await panel.locator('.pl-panel-status').waitFor();
  const got = {
    lang: await panel.getAttribute('lang'),
    status: await panel.locator('.pl-panel-status').textContent(),
  };
  await page.screenshot({ path: join(ARTIFACTS, `panel-language-${locale ?? 'default'}.png`) });
  await page.close();
  return got;
}

describe("the panel follows JupyterLab's language setting", { skip }, () => {
  it('zh_TW in JupyterLab: the panel speaks zh-TW on an English browser', async () => {
    const got = await panelIn('zh_TW');
    assert.equal(got.lang, 'zh-TW');
    assert.equal(got.status, catalogue('zh-TW')['ui.panel.open_notebook']);
  });

  it('no setting: English', async () => {
    const got = await panelIn(null);
    assert.equal(got.lang, 'en');
    assert.equal(got.status, catalogue('en')['ui.panel.open_notebook']);
  });
});
