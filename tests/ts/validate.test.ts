import { describe, expect, it } from 'vitest';
import { checkDoc } from '../../src/core/validate';
import { fixture, mount } from './helpers';

describe('schema checks', () => {
  it('refuses an unknown schema_version with the upgrade message, without throwing', async () => {
    const { el } = await mount(fixture('future.json'));
    const msg = el.querySelector('.pl-message');
    expect(msg?.textContent).toBe(
      'pt2e-lens: this output uses schema_version 3; this viewer understands 1, 2 — upgrade pt2e-lens',
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

describe('structural check against view.schema.json', () => {
  // each breaks one field a renderer reads; every one must render one line, never a broken view
  const breakers: Array<[string, (d: any) => void, string]> = [
    ['a node without an id', (d) => delete d.panes[0].snapshot.nodes[0].id, 'nodes[0]: missing the field "id"'],
    ['an edge arg as text', (d) => (d.panes[0].snapshot.edges[0].arg = '0'), 'edges[0].arg: expected integer'],
    ['nodes as an object', (d) => (d.panes[0].snapshot.nodes = {}), 'snapshot.nodes: expected array'],
    ['an unknown role', (d) => (d.panes[0].snapshot.nodes[0].role = 'boss'), 'nodes[0].role: expected one of'],
    ['a stray field', (d) => (d.panes[0].snapshot.extra = 1), 'snapshot: unknown field "extra"'],
    ['a missing diffs', (d) => delete d.diffs, 'the document: missing the field "diffs"'],
    ['a bad focus', (d) => (d.focus = [[1]]), 'focus[0][0]: expected string'],
    ['an observer min as text', (d) => (d.panes[0].snapshot.observers[0].min = 'low'), 'observers[0].min'],
    [
      'a table cell object',
      (d) => (d.tables = [{ name: 'table', title: null, columns: ['a'], rows: [[{}]] }]),
      'rows[0][0]',
    ],
    ['a bad EdgeOrNode', (d) => (d.panes[0].snapshot.specs[0].shared_with = { edge: ['a'] }), 'shared_with.edge'],
    ['an unknown mode', (d) => (d.mode = 'movie'), 'mode: expected one of'],
  ];

  it.each(breakers)('%s: one line naming the field', async (_what, edit, where) => {
    const doc = fixture('conv_prepared.json');
    edit(doc);
    const r = checkDoc(doc);
    expect(r.ok).toBe(false);
    const message = r.ok ? '' : r.message;
    expect(message).toMatch(/^pt2e-lens: malformed output: /);
    expect(message).toContain(where);
    expect(message).not.toContain('\n');
    const { el } = await mount(doc);
    expect(el.querySelector('.pl-message')?.textContent).toBe(message);
    expect(el.querySelector('svg')).toBeNull();
    expect(el.querySelector('.pl-node')).toBeNull();
  });

  it('accepts every fixture the Python side wrote', () => {
    for (const name of ['conv_prepared.json', 'conv_converted.json', 'compare.json', 'run.json', 'real_run.json']) {
      const r = checkDoc(fixture(name));
      expect(r.ok ? '' : r.message).toBe('');
    }
  });

  it('does not trust inherited names: a field called "constructor" is unknown, not a function', () => {
    const doc = fixture('conv_prepared.json');
    doc.panes[0].snapshot.nodes[0] = JSON.parse('{"constructor": 1, "__proto__": {"id": "x"}}');
    const r = checkDoc(doc);
    expect(!r.ok && r.message).toContain('nodes[0]: missing the field "id"');
  });
});
