// The page the real-kernel JupyterLab tests read: a notebook of a started JupyterLab, opened once its kernel is idle.
import { launch } from './browser.mjs';
import { kernelIdle } from './lab_server.mjs';

/** A chromium page (1400×1000, downloads on, 60 s per step) on notebook `file` of `lab`, its uncaught errors pushed
 * into `errors`; returns { browser, page }, for the test to close the browser. */
export async function openLabNotebook(lab, file, errors) {
  const browser = await launch();
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
  page.setDefaultTimeout(60000);
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${lab.url}/lab/tree/${file}`);
  await kernelIdle(page, 120000);
  return { browser, page };
}
