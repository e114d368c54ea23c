// The frame the static-report tests put around each check: a page opened at a width and colour scheme, the check
// run on it, then no error raised by the page, and the page closed.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { openReady } from './pages.mjs';

/** Opens `url` in `browser` (openReady, `scheme` as its colour scheme, the other options as they are), runs
 * `body(page)`, asserts the page raised no error and closes it (also when the check failed). */
export async function withPage(browser, url, { scheme, ...options }, body) {
  const { page, errors } = await openReady(browser, url, { ...options, colorScheme: scheme });
  try {
    await body(page);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
}

/** A test per colour scheme and width of `cases` ({ light: [1300, 280], dark: [260] }), named `title(scheme, width)`:
 * `setup(scheme, width)` makes the page and returns its url (or `{ url, ...more }`: what the check needs of it),
 * withPage opens it in `browser()`, and `check(page, { scheme, width, ...more })` runs on it. */
export function eachPage(browser, cases, setup, check, title = (scheme, width) => `${scheme} at ${width} px`) {
  for (const [scheme, widths] of Object.entries(cases))
    for (const width of widths)
      it(title(scheme, width), async () => {
        const made = await setup(scheme, width);
        const { url, ...more } = typeof made === 'string' ? { url: made } : made;
        await withPage(browser(), url, { width, scheme }, (page) => check(page, { scheme, width, ...more }));
      });
}
