// The set-up every real-kernel JupyterLab test (*.lab.mjs) shares: a throwaway JupyterLab on the file's notebooks,
// a chromium page on it and, when asked, one notebook opened with its kernel idle.
import { launch } from './browser.mjs';
import { dismissKernelDialogs, kernelIdle, startLab } from './lab_server.mjs';

/** JupyterLab on `files` (startLab: name → text) and a chromium page on it: `viewport`, `timeout` ms per step,
 * downloads on, the page's uncaught errors pushed into `errors` when given. With `open`, that notebook is opened,
 * its kernel idle and the kernel dialogs of restored notebooks answered. Returns { lab, browser, page, close };
 * `close()` (the file's after()) stops the browser and the server. A set-up that fails half way stops what it
 * started before it throws. */
export async function labPage(files, { open, viewport = { width: 1400, height: 1000 }, timeout = 60000, errors } = {}) {
  const lab = await startLab(files);
  let browser;
  const close = async () => {
    await browser?.close();
    lab.stop();
  };
  try {
    browser = await launch();
    const page = await browser.newPage({ viewport, acceptDownloads: true });
    page.setDefaultTimeout(timeout);
    if (errors) page.on('pageerror', (e) => errors.push(e.message));
    if (open) {
      await page.goto(`${lab.url}/lab/tree/${open}`);
      await kernelIdle(page, 120000);
      await dismissKernelDialogs(page);
    }
    return { lab, browser, page, close };
  } catch (e) {
    await close();
    throw e;
  }
}
