import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type RenderHandle, render } from '../../src/core/index';

export function fixture(name: string): any {
  return JSON.parse(readFileSync(join(__dirname, 'fixtures', name), 'utf8'));
}

export async function mount(doc: unknown, opts = {}): Promise<{ el: HTMLElement; handle: RenderHandle }> {
  const el = document.createElement('div');
  document.body.appendChild(el);
  const handle = render(el, doc, opts);
  await handle.ready;
  return { el, handle };
}

export function countBy<T>(xs: T[], key: (x: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of xs) out[key(x)] = (out[key(x)] ?? 0) + 1;
  return out;
}
