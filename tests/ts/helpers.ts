import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, onTestFinished } from 'vitest';
import { type RenderHandle, render } from '../../src/core/index';

export function fixture(name: string): any {
  return JSON.parse(readFileSync(join(__dirname, 'fixtures', name), 'utf8'));
}

export async function mount(doc: unknown, opts = {}): Promise<{ el: HTMLElement; handle: RenderHandle }> {
  const el = document.createElement('div');
  document.body.appendChild(el);
  const handle = render(el, doc, opts);
  // a view left alive after its test goes on settling after the file's jsdom is torn down (an unhandled rejection
  // at the end of a run): destroyed when the test that mounted it ends
  if (expect.getState().currentTestName !== undefined) onTestFinished(() => handle.destroy());
  await handle.ready;
  return { el, handle };
}

export function countBy<T>(xs: T[], key: (x: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of xs) out[key(x)] = (out[key(x)] ?? 0) + 1;
  return out;
}

/** Until pane `gv` has settled (docs/frontend.md, "Ready signal"): its first layout and paint done, no work under
 * way. Work a change starts marks the pane busy at once, so this waits for that work too. */
export function paneIdle(gv: { el: HTMLElement }): Promise<void> {
  const drawing = gv.el.querySelector('[data-settled]');
  if (!drawing) return Promise.resolve(); // an empty graph draws nothing
  const idle = (): boolean => Number(drawing.getAttribute('data-settled')) >= 1 && !drawing.hasAttribute('data-busy');
  if (idle()) return Promise.resolve();
  return new Promise((resolve) => {
    const on = (): void => {
      if (!idle()) return;
      gv.el.removeEventListener('pl-settled', on);
      resolve();
    };
    gv.el.addEventListener('pl-settled', on);
  });
}
