// Sortable, filterable plain HTML tables from View.tables[].
import { clear, h } from './dom';
import type { Cell, Table } from './types';

export const MAX_ROWS = 2000;

function cellText(c: Cell): string {
  return c === null ? '' : String(c);
}

function compare(a: Cell, b: Cell): number {
  if (a === null || a === '') return b === null || b === '' ? 0 : 1;
  if (b === null || b === '') return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true });
}

/** `onNode`: called with a row's `node` cell when the table has such a column and the row is clicked. */
export function renderTable(doc: Document, t: Table, onNode?: (id: string) => void): HTMLElement {
  const nodeCol = onNode ? t.columns.indexOf('node') : -1;
  const wrap = h(doc, 'div', { class: 'pl-table-wrap', 'data-table': t.name });
  if (t.title) wrap.appendChild(h(doc, 'div', { class: 'pl-title' }, t.title));
  const bar = h(doc, 'div', { class: 'pl-toolbar' });
  const filter = h(doc, 'input', { type: 'search', placeholder: 'filter rows…', 'aria-label': 'filter rows' });
  const count = h(doc, 'span', { class: 'pl-status' });
  bar.append(filter, count);
  const scroll = h(doc, 'div', { class: 'pl-table-scroll' });
  const table = h(doc, 'table', { class: 'pl-table' });
  const thead = h(doc, 'thead');
  const tbody = h(doc, 'tbody');
  table.append(thead, tbody);
  scroll.appendChild(table);
  wrap.append(bar, scroll);

  let sortCol = -1;
  let sortDir = 1;
  const heads: HTMLElement[] = [];
  const hr = h(doc, 'tr');
  t.columns.forEach((c, i) => {
    const th = h(doc, 'th', { 'data-col': i, title: 'click to sort' }, c);
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
    let rows = q ? t.rows.filter((r) => r.some((c) => cellText(c).toLowerCase().includes(q))) : t.rows.slice();
    if (sortCol >= 0) rows = rows.sort((a, b) => sortDir * compare(a[sortCol], b[sortCol]));
    heads.forEach((th, i) => {
      th.textContent = t.columns[i] + (i === sortCol ? (sortDir > 0 ? ' ▲' : ' ▼') : '');
      th.setAttribute('aria-sort', i === sortCol ? (sortDir > 0 ? 'ascending' : 'descending') : 'none');
    });
    clear(tbody);
    for (const r of rows.slice(0, MAX_ROWS)) {
      const tr = h(doc, 'tr');
      const id = nodeCol >= 0 ? r[nodeCol] : null;
      if (typeof id === 'string' && id) {
        tr.setAttribute('title', `show ${id} in the graph`);
        tr.style.cursor = 'pointer';
        tr.addEventListener('click', () => onNode!(id));
      }
      for (let i = 0; i < t.columns.length; i++)
        tr.appendChild(
          h(doc, 'td', typeof r[i] === 'number' ? { class: 'pl-num' } : undefined, cellText(r[i] ?? null)),
        );
      tbody.appendChild(tr);
    }
    count.textContent =
      rows.length > MAX_ROWS
        ? `${rows.length} of ${t.rows.length} rows (first ${MAX_ROWS} shown)`
        : `${rows.length} of ${t.rows.length} rows`;
  };
  filter.addEventListener('input', draw);
  draw();
  return wrap;
}
