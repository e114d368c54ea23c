import { describe, expect, it } from 'vitest';
import { checkDoc } from '../../src/core/validate';
import { fixture, mount } from './helpers';

describe('schema checks', () => {
  it('refuses an unknown schema_version with the upgrade message, without throwing', async () => {
    const { el } = await mount(fixture('future.json'));
    const msg = el.querySelector('.pl-message');
    expect(msg?.textContent).toBe(
      'pt2e-lens: this output uses schema_version 2; this viewer understands 1 — upgrade pt2e-lens',
    );
    expect(el.querySelector('svg')).toBeNull();
    expect(el.querySelector('.pt2e-lens')?.getAttribute('data-state')).toBe('error');
  });

  it('names the version of a nested snapshot too', () => {
    const doc = fixture('conv_prepared.json');
    doc.panes[0].snapshot.schema_version = 7;
    const r = checkDoc(doc);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toContain('schema_version 7');
  });

  it('shows "empty graph" for a snapshot with no nodes', async () => {
    const { el } = await mount(fixture('empty.json'));
    expect(el.querySelector('.pl-empty')?.textContent).toBe('empty graph');
    expect(el.querySelectorAll('.pl-node').length).toBe(0);
  });

  it('handles junk input with a message', async () => {
    for (const junk of ['not json {', '', null, 42, { format: 'something-else', schema_version: 1 }]) {
      const { el } = await mount(junk);
      expect(el.querySelector('.pl-message')?.textContent).toMatch(/^pt2e-lens: /);
    }
  });

  it('accepts a JSON string and a bare Snapshot', async () => {
    const view = fixture('conv_prepared.json');
    const a = await mount(JSON.stringify(view), { worker: false });
    expect(a.el.querySelectorAll('.pl-node').length).toBe(view.panes[0].snapshot.nodes.length);
    const b = await mount(view.panes[0].snapshot, { worker: false });
    expect(b.el.querySelectorAll('.pl-node').length).toBe(view.panes[0].snapshot.nodes.length);
  });
});
