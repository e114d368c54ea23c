// Issue 26.4 tables: observer numbers rounded (the full value in the tooltip), the backend table filtered on its
// outcome column alone, and a sharing table's "shared only" filter (groups with more than one member).
import { describe, expect, it } from 'vitest';
import { translator } from '../../src/core/i18n';
import { renderTable } from '../../src/core/tables';
import type { Table } from '../../src/core/types';
import { fixture, mount } from './helpers';

const real = fixture('real_run.json');
const sharing: Table = real.tables.find((t: Table) => t.name === 'sharing');

const bodyRows = (el: Element) =>
  [...el.querySelectorAll('tbody tr')].map((r) => [...r.children].map((c) => c.textContent));

describe('tables', () => {
  it('print a fraction to 6 significant digits, the full value in its tooltip', () => {
    const t = { name: 'observers', title: null, columns: ['id', 'min', 'max'], rows: [['o0', -4.343278884887695, 3]] };
    const el = renderTable(document, t as never);
    const cells = [...el.querySelectorAll('tbody td')];
    expect(cells.map((c) => c.textContent)).toEqual(['o0', '-4.34328', '3']);
    expect(cells[1].getAttribute('title')).toBe('-4.343278884887695');
  });

  it('filter the backend table on its outcome column alone', () => {
    const t = {
      name: 'backend',
      title: null,
      columns: ['node', 'op', 'outcome', 'kernel', 'reason'],
      rows: [
        ['conv2d', 'conv2d', 'int8', 'qconv2d_pointwise', null],
        ['linear', 'linear', 'fp32', null, 'no fusion pattern'],
        ['add', 'add', 'fp32', 'int8 add declined', null], // "int8" in the kernel text: not an int8 outcome
      ],
    };
    const el = renderTable(document, t as never);
    const select = el.querySelector('select.pl-choice[data-col="outcome"]') as HTMLSelectElement;
    expect([...select.options].map((o) => o.value)).toEqual(['', 'fp32', 'int8']);
    select.value = 'int8';
    select.dispatchEvent(new Event('change'));
    expect(bodyRows(el).map((r) => r[0])).toEqual(['conv2d']);
    const search = el.querySelector('input[type=search]') as HTMLInputElement;
    search.value = 'int8';
    select.value = '';
    select.dispatchEvent(new Event('change'));
    expect(bodyRows(el).map((r) => r[0])).toEqual(['conv2d', 'add']); // the free-text filter reads every column
  });

  it('show only the sharing groups with more than one member, in the table language', () => {
    const groups = sharing.rows.map((r) => r[0]);
    const multi = groups.filter((g) => groups.filter((x) => x === g).length > 1);
    expect(multi.length).toBeGreaterThan(0); // the real capture shares an observer (x feeds conv2d and add)
    expect(multi.length).toBeLessThan(groups.length);
    const el = renderTable(document, sharing, undefined, { t: translator('zh-TW') });
    const box = el.querySelector('input.pl-shared-only') as HTMLInputElement;
    expect(box.closest('label')?.textContent).toContain('只看共用的');
    box.checked = true;
    box.dispatchEvent(new Event('change'));
    const col = sharing.columns.indexOf('group');
    expect(bodyRows(el).map((r) => r[col])).toEqual(multi.map(String));
    expect(renderTable(document, real.tables[0]).querySelector('input.pl-shared-only')).toBeNull();
  });

  it('name their tabs short: a known table by its kind, any other by the start of its title', async () => {
    const view = fixture('run.json');
    const long = 'pl.observer_ranges of the calibrated stage, per observer, with the batches that set them';
    view.tables = [
      {
        name: 'moved_observers',
        title: 'big first: relu observer moved after relu; small first: …',
        columns: ['pane'],
        rows: [['a']],
      },
      { name: 'table', title: long, columns: ['a'], rows: [[1]] },
      { name: 'table', title: 'short one', columns: ['a'], rows: [[1]] },
    ];
    const { el } = await mount(view, { worker: false, locale: 'en' });
    const tabs = [...el.querySelectorAll('.pl-main-tabs .pl-tab')].map((t) => t.textContent ?? '');
    expect(tabs.slice(1)).toEqual(['Moved', `${long.slice(0, 23).trimEnd()}…`, 'short one']);
    expect(Math.max(...tabs.map((t) => t.length))).toBeLessThanOrEqual(24);
  });
});

describe("a graph's node count", () => {
  it("is the graph's own (len(graph.nodes), _guards_fn included), as the panel's picker and the CLI say", async () => {
    const view = fixture('real_lowered.json');
    const snap = view.panes[0].snapshot;
    expect(snap.nodes.some((n: { id: string }) => n.id === '_guards_fn')).toBe(true); // drawn only when focused
    expect(snap.meta.node_count).toBe(snap.nodes.length); // the kernel's len(graph.nodes)
    const { el } = await mount(view, { worker: false, locale: 'en' });
    const status = el.querySelector('.pl-toolbar .pl-status')!.textContent ?? '';
    expect(status).toMatch(new RegExp(`^lowered · ${snap.nodes.length} nodes · showing \\d+ nodes`));
  });
});
