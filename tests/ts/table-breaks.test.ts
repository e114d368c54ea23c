// Course tables (issue 18.3): long identifiers break between their words (after `_` and `.`), never inside one;
// the text itself is unchanged, and cells are left-aligned in hosts whose own table CSS right-aligns them.
import { describe, expect, it } from 'vitest';
import { breakable } from '../../src/core/breaks';
import { injectStyles } from '../../src/core/styles';
import { renderTable } from '../../src/core/tables';

describe('table cells', () => {
  it('break long identifiers after _ and . only', () => {
    const t = {
      name: 'decomposition',
      title: null,
      columns: ['node', 'ops'],
      rows: [
        ['batch_norm', '_native_batch_norm_legit_no_training + getitem'],
        ['conv2d_1', 'block.0.conv1'],
      ],
    };
    const el = renderTable(document, t as never);
    const cells = [...el.querySelectorAll('tbody td')];
    const long = cells.find((c) => c.textContent === '_native_batch_norm_legit_no_training + getitem') as Element;
    const pieces = [...long.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent);
    expect(pieces).toEqual(['_native_', 'batch_', 'norm_', 'legit_', 'no_', 'training + getitem']);
    expect(long.querySelectorAll('wbr')).toHaveLength(5);
    expect(cells.find((c) => c.textContent === 'batch_norm')?.querySelectorAll('wbr')).toHaveLength(0); // short
    expect(cells.find((c) => c.textContent === 'block.0.conv1')?.childNodes).toHaveLength(1); // 13 characters
  });

  it('break by the same rule as the details drawer: a leading _ or a __ stays with its word', () => {
    const pieces = (text: string) =>
      [...breakable(document, text).childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent);
    expect(pieces('_guards_fn.__call__')).toEqual(['_guards_', 'fn.__call__']);
    expect(pieces('activation_post_process_0')).toEqual(['activation_', 'post_', 'process_', '0']);
  });

  it('are left-aligned (numbers stay right)', () => {
    const el = document.createElement('div');
    document.body.appendChild(el);
    injectStyles(el);
    const css = document.getElementById('pt2e-lens-style')?.textContent ?? '';
    expect(css).toMatch(/table\.pl-table td\{text-align:left;/);
    expect(css).toMatch(/table\.pl-table td\.pl-num\{text-align:right/);
  });

  it("show a list cell (a finding's node ids) as Python prints it, and filter on every item", () => {
    const t = {
      name: 'findings',
      title: null,
      columns: ['kind', 'nodes'],
      rows: [
        ['fp32-island', ['conv2d', 'relu']],
        ['decomposed', ['a', 'b', 'c', 'd', 'e_hidden']],
        ['nothing-quantized', []],
      ],
    };
    const el = renderTable(document, t as never);
    const texts = [...el.querySelectorAll('tbody tr')].map((r) => r.querySelectorAll('td')[1].textContent);
    expect(texts).toEqual(['conv2d, relu', 'a, … (5)', '']);
    const filter = el.querySelector('input') as HTMLInputElement;
    filter.value = 'e_hidden';
    filter.dispatchEvent(new Event('input'));
    expect(el.querySelectorAll('tbody tr')).toHaveLength(1);
  });
});
