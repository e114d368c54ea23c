// Sortable, filterable plain HTML tables from View.tables[].
import { breakable } from './breaks';
import { clear, h } from './dom';
import { fmtValue } from './heat';
import { EN, named, type Tr } from './i18n';
import type { Cell, Table, TableName } from './types';

export const MAX_ROWS = 2000;

/** Columns people read first, per table (the rest keep their order after these). */
const FIRST: Partial<Record<TableName, string[]>> = {
  observers: ['id', 'observer', 'observes', 'min', 'max', 'scale', 'zero_point', 'dtype', 'qscheme', 'group'],
  qdq: ['node', 'kind', 'scale', 'zero_point', 'dtype', 'tensor'],
  annotations: ['node', 'op', 'inputs', 'input specs', 'output', 'output spec'],
};

/** Display order of a table's columns, as indices into its columns. */
export function columnOrder(t: Table): number[] {
  const first = FIRST[t.name] ?? [];
  const idx = t.columns.map((_, i) => i);
  const rank = (i: number): number => {
    const r = first.indexOf(t.columns[i]);
    return r < 0 ? first.length + i : r;
  };
  return idx.sort((a, b) => rank(a) - rank(b));
}

/** A column's header: `columns` are data keys (the contract's, read by code), so only the header is translated. */
export function columnHeader(t: Tr, column: string): string {
  return named(t, 'col.', column);
}

/** A signed delta: "+2", "−2", "0". */
export function signed(v: number): string {
  return v > 0 ? `+${v}` : v < 0 ? `−${-v}` : '0';
}

// the contract writes numbers JSON cannot hold as strings ($defs.NonFinite): an exact match's SQNR is "Infinity"
const NON_FINITE = new Map([
  ['Infinity', '∞'],
  ['-Infinity', '−∞'],
  ['NaN', '—'], // 0/0, e.g. the SQNR of a tensor that is all zero on both sides
]);

/** A fraction to 6 significant digits, as Python's tables print it (an observer's min read 16 digits); the
 * full value stays in the cell's tooltip. Integers as they are. */
export function numberText(v: number): string {
  return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(6)));
}

/** A list cell (a finding's node ids) as Python's tables print it: up to 4 items, else the first and a count. */
function listText(items: readonly string[]): string {
  return items.length <= 4 ? items.join(', ') : `${items[0]}, … (${items.length})`;
}

function cellText(c: Cell): string {
  if (c === null) return '';
  if (typeof c === 'number') return numberText(c);
  if (Array.isArray(c)) return listText(c);
  return (typeof c === 'string' ? NON_FINITE.get(c) : undefined) ?? String(c);
}

/** What the row filter matches: every item of a list cell, not only the ones shown. */
const searchText = (c: Cell): string => (Array.isArray(c) ? c.join(' ') : cellText(c));

// columns whose few values people filter on alone (the backend table's outcome: "fp32" also matches a kernel name)
const CHOICE_COLUMNS = new Set(['outcome']);

/** Groups with more than one member (a sharing table's rows are members; a lone member shares nothing). */
function sharedGroups(t: Table, col: number): Set<Cell> {
  const count = new Map<Cell, number>();
  for (const r of t.rows) count.set(r[col], (count.get(r[col]) ?? 0) + 1);
  return new Set([...count].filter(([, n]) => n > 1).map(([g]) => g));
}

/** `td` showing `text`; a long identifier (`_native_batch_norm_legit_no_training`) wraps between its words. */
function cellWithBreaks(td: HTMLElement, text: string): HTMLElement {
  td.append(text.length > 16 ? breakable(td.ownerDocument, text) : text);
  return td;
}

const isNumber = (c: Cell): boolean => typeof c === 'number' || (typeof c === 'string' && NON_FINITE.has(c));

function compare(a: Cell, b: Cell): number {
  if (a === null || a === '') return b === null || b === '' ? 0 : 1;
  if (b === null || b === '') return -1;
  if (Array.isArray(a) || Array.isArray(b)) return cellText(a).localeCompare(cellText(b), undefined, { numeric: true });
  if (isNumber(a) && isNumber(b)) {
    const [x, y] = [Number(a), Number(b)]; // ±Infinity compare as numbers; NaN sorts last
    if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : 1) : -1;
    return x === y ? 0 : x > y ? 1 : -1;
  }
  return String(a).localeCompare(String(b), undefined, { numeric: true });
}

/** Issue 26.4: no column cut at the output's edge. A table whose columns do not fit its output even wrapped is shown
 * stacked — each row a block of "column: value" lines (the headers stay above as sort buttons) — and side by side
 * again once the output is as wide as the table needs. Returns the update to call after the rows change. */
function stackWhenCut(wrap: HTMLElement, scroll: HTMLElement, table: HTMLElement): () => void {
  let natural = 0; // the width the table needed side by side when it was last stacked
  const update = (): void => {
    const w = scroll.clientWidth;
    if (w === 0) return; // a hidden tab: its first layout updates it
    if (wrap.classList.contains('pl-table-stacked')) {
      if (w < natural) return;
      wrap.classList.remove('pl-table-stacked');
    }
    if (scroll.scrollWidth > w + 1) {
      natural = table.scrollWidth;
      wrap.classList.add('pl-table-stacked');
    }
  };
  if (typeof ResizeObserver !== 'undefined') new ResizeObserver(update).observe(scroll);
  return update;
}

/** `onNode`: called with a row's `node` cell when the table has such a column and the row is clicked. */
export function renderTable(
  doc: Document,
  t: Table,
  onNode?: (id: string) => void,
  o: { skipTitle?: string | null; t?: Tr } = {},
): HTMLElement {
  const say = o.t ?? EN;
  const nodeCol = onNode ? t.columns.indexOf('node') : -1;
  const order = columnOrder(t);
  const deltaCol = t.columns.indexOf('delta');
  // decibels (SQNR) read to two decimals, as the heat legend shows them; the full value in the tooltip
  const dbCols = new Set(t.columns.flatMap((c, i) => (/_db$/.test(c) ? [i] : [])));
  const wrap = h(doc, 'div', { class: 'pl-table-wrap', 'data-table': t.name });
  // the view's own title is not repeated over its table
  if (t.title && t.title !== o.skipTitle) wrap.appendChild(h(doc, 'div', { class: 'pl-title' }, t.title));
  const bar = h(doc, 'div', { class: 'pl-toolbar' });
  const filter = h(doc, 'input', {
    type: 'search',
    placeholder: say('ui.filter_rows'),
    'aria-label': say('ui.filter_rows_label'),
  });
  const count = h(doc, 'span', { class: 'pl-status' });
  bar.append(filter);
  // one select per choice column: "int8" picks the outcome, not every kernel or reason that says int8
  const choices = t.columns.flatMap((c, i) => {
    if (!CHOICE_COLUMNS.has(c)) return [];
    const values = [...new Set(t.rows.map((r) => cellText(r[i] ?? null)))].filter((v) => v).sort();
    const select = h(doc, 'select', { class: 'pl-choice', 'data-col': c, 'aria-label': columnHeader(say, c) });
    select.appendChild(h(doc, 'option', { value: '' }, say('ui.filter_any', { column: columnHeader(say, c) })));
    for (const v of values) select.appendChild(h(doc, 'option', { value: v }, v));
    bar.appendChild(select);
    return [{ i, select }];
  });
  const groupCol = t.name === 'sharing' ? t.columns.indexOf('group') : -1;
  const shared = groupCol >= 0 ? sharedGroups(t, groupCol) : new Set<Cell>();
  let sharedOnly: HTMLInputElement | null = null;
  if (groupCol >= 0) {
    sharedOnly = h(doc, 'input', { type: 'checkbox', class: 'pl-shared-only' });
    const label = h(doc, 'label', { class: 'pl-check' });
    label.append(sharedOnly, ` ${say('ui.shared_only')}`);
    bar.appendChild(label);
  }
  bar.appendChild(count);
  const scroll = h(doc, 'div', { class: 'pl-table-scroll' });
  const table = h(doc, 'table', { class: 'pl-table' });
  const thead = h(doc, 'thead');
  const tbody = h(doc, 'tbody');
  table.append(thead, tbody);
  scroll.appendChild(table);
  const frame = h(doc, 'div', { class: 'pl-table-frame' });
  frame.appendChild(scroll);
  wrap.append(bar, frame);
  const stack = stackWhenCut(wrap, scroll, table);

  let sortCol = -1;
  let sortDir = 1;
  const heads: HTMLElement[] = [];
  const labels = t.columns.map((c) => columnHeader(say, c));
  const hr = h(doc, 'tr');
  order.forEach((i) => {
    const c = t.columns[i];
    const th = h(doc, 'th', { 'data-col': i, 'data-key': c, title: say('ui.click_to_sort') }, columnHeader(say, c));
    th.addEventListener('click', () => {
      sortDir = sortCol === i ? -sortDir : 1;
      sortCol = i;
      draw();
    });
    heads.push(th);
    hr.appendChild(th);
  });
  thead.appendChild(hr);

  const draw = (): void => {
    const q = filter.value.trim().toLowerCase();
    let rows = q ? t.rows.filter((r) => r.some((c) => searchText(c).toLowerCase().includes(q))) : t.rows.slice();
    for (const { i, select } of choices)
      if (select.value) rows = rows.filter((r) => cellText(r[i] ?? null) === select.value);
    if (sharedOnly?.checked) rows = rows.filter((r) => shared.has(r[groupCol]));
    if (sortCol >= 0) rows = rows.sort((a, b) => sortDir * compare(a[sortCol], b[sortCol]));
    heads.forEach((th, j) => {
      const i = order[j];
      th.textContent = columnHeader(say, t.columns[i]) + (i === sortCol ? (sortDir > 0 ? ' ▲' : ' ▼') : '');
      th.setAttribute('aria-sort', i === sortCol ? (sortDir > 0 ? 'ascending' : 'descending') : 'none');
    });
    clear(tbody);
    for (const r of rows.slice(0, MAX_ROWS)) {
      const tr = h(doc, 'tr');
      const id = nodeCol >= 0 ? r[nodeCol] : null;
      if (typeof id === 'string' && id) {
        tr.setAttribute('title', say('ui.show_in_graph', { id }));
        tr.style.cursor = 'pointer';
        tr.addEventListener('click', () => onNode!(id));
      }
      for (const i of order) {
        const v = r[i] ?? null;
        const n = tr.childElementCount;
        if (i === deltaCol && typeof v === 'number') {
          const cls = v > 0 ? 'pl-num pl-pos' : v < 0 ? 'pl-num pl-neg' : 'pl-num';
          tr.appendChild(h(doc, 'td', { class: cls }, signed(v)));
        } else if (dbCols.has(i) && typeof v === 'number')
          tr.appendChild(h(doc, 'td', { class: 'pl-num', title: String(v) }, fmtValue(v)));
        else if (typeof v === 'number' && !Number.isInteger(v))
          tr.appendChild(h(doc, 'td', { class: 'pl-num', title: String(v) }, numberText(v)));
        else tr.appendChild(cellWithBreaks(h(doc, 'td', isNumber(v) ? { class: 'pl-num' } : undefined), cellText(v)));
        // stacked, a cell names its column (pl-table-stacked)
        tr.children[n]?.setAttribute('data-label', labels[i]);
      }
      tbody.appendChild(tr);
    }
    count.textContent =
      rows.length > MAX_ROWS
        ? say('ui.rows_capped', { n: rows.length, total: t.rows.length, max: MAX_ROWS })
        : say('ui.rows', { n: rows.length, total: t.rows.length });
    stack();
  };
  filter.addEventListener('input', draw);
  for (const { select } of choices) select.addEventListener('change', draw);
  sharedOnly?.addEventListener('change', draw);
  draw();
  return wrap;
}
