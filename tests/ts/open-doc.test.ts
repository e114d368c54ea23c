// @vitest-environment node
// (no DOM here: the node environment spares this file the set-up of jsdom)
// A big View's text opened in the worker (openParts) and joined on the page (OpenJoin): the same View as
// checkDoc's, in parts of at most OPEN_CHUNK items; a refused document is one part saying so.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPEN_CHUNK, OpenJoin, type OpenPart, openParts } from '../../src/core/open-doc';
import { unpack } from '../../src/core/packed';
import { checkDoc } from '../../src/core/validate';
import { synthView } from './fixtures/synth.mjs';

const packed = (name: string): any => JSON.parse(readFileSync(join(__dirname, 'fixtures', 'packed', name), 'utf8'));

async function open(doc: any): Promise<{ parts: OpenPart[]; view: unknown }> {
  const parts: OpenPart[] = [];
  // each part goes through structuredClone, as postMessage would carry it
  await openParts({ kind: 'open', id: 7, doc }, (p) => parts.push(structuredClone(p)));
  const join = new OpenJoin();
  for (const p of parts) join.add(p);
  return { parts, view: join.view };
}

describe('a View text opened in the worker, joined on the page', () => {
  it('joins to the View checkDoc gives, in parts of at most OPEN_CHUNK items, the last one done', async () => {
    const text = JSON.stringify(synthView(9000));
    const { parts, view } = await open(text);
    const want = checkDoc(text);
    expect(want.ok).toBe(true);
    expect(view).toEqual(want.ok && want.view);
    expect(parts.length).toBeGreaterThan(3);
    expect(parts.every((p) => p.id === 7)).toBe(true);
    expect(parts.map((p) => p.done)).toEqual([...parts.map(() => false).slice(1), true]);
    for (const p of parts) if ('items' in p) expect(p.items.length).toBeLessThanOrEqual(OPEN_CHUNK);
  });

  it('a bare Snapshot opens as a one-pane View', async () => {
    const text = JSON.stringify(synthView(5000).panes[0].snapshot);
    const want = checkDoc(text);
    expect((await open(text)).view).toEqual(want.ok && want.view);
  });

  it('a refused document: one part, no View (the page words the refusal)', async () => {
    const v = synthView(5000) as any;
    v.panes[0].snapshot.nodes[4500].role = 'wizard';
    for (const text of [JSON.stringify(v), '{"format": ', '']) {
      const { parts, view } = await open(text);
      expect(parts).toEqual([{ kind: 'open', id: 7, ok: false, done: true }]);
      expect(view).toBeNull();
    }
  });

  it('a packed View: unpacked and checked in the worker, the View unpack gives', async () => {
    for (const name of ['real_run.json', 'compare.json', 'tables.json']) {
      const want = checkDoc(await unpack(packed(name)));
      expect(want.ok).toBe(true);
      expect((await open(packed(name))).view).toEqual(want.ok && want.view);
    }
  });

  it('a damaged packed View is refused (the page unpacks it again for the words)', async () => {
    const { parts } = await open({ ...packed('tables.json'), data: 'bm90IGd6aXA=' });
    expect(parts).toEqual([{ kind: 'open', id: 7, ok: false, done: true }]);
  });
});
