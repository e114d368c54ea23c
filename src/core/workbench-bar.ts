// The workbench's step bar (pl.workbench): step buttons, preset picker, calibration progress, fp32 picks from the
// graph's selection, rerun and cancel. Shared by its two hosts: the anywidget (src/widget/workbench.ts) and the
// JupyterLab side panel (src/lab/panel), which drive the same kernel object. Every text comes from the kernel in
// the user's locale (state_json) and is placed with textContent only.
import { clear, h } from './dom';
import type { RenderHandle } from './index';
import { injectStyles } from './styles';

interface Step {
  name: string;
  label: string;
  done: boolean;
  running: boolean;
}

export interface WorkbenchState {
  steps: Step[];
  next: string | null;
  running: string | null;
  /** cancel was pressed and the step under way has not stopped yet */
  cancelling?: boolean;
  error: string | null;
  status: string;
  progress: [number, number] | null;
  presets: Array<{ name: string; label: string }>;
  preset: string;
  picks: string[];
  picks_text: string;
  sqnr: string | null;
  comparison: { title: string; columns: string[]; rows: Array<Array<string | number | null>> } | null;
  /** wb.recipe's sites, offered as picks */
  offered: { title: string; sites: Array<{ id: string; text: string }> } | null;
  can_recipe: boolean;
  code: string;
  texts: Record<string, string>;
  /** the widget's worker has not finished its last action (the step may have ended already) */
  busy?: boolean;
}

/** What the user typed into the controls: read from and written to the widget model (its `recipe_target` trait),
 * so it outlives the redraws of the controls and the views made anew when the cell's output is replaced. */
export interface Typed {
  target?: string;
  typed?: (target: string) => void;
}

const CSS = `
.pl-workbench .pl-wb-bar{display:flex;flex-wrap:wrap;gap:4px 6px;align-items:center;margin-bottom:4px}
.pl-workbench .pl-wb-step[data-done="true"]{border-color:var(--pl-int);font-weight:600}
.pl-workbench .pl-wb-step[data-running="true"]{outline:2px solid var(--pl-int);outline-offset:1px}
.pl-workbench button.pl-btn:disabled{opacity:.45;cursor:default}
.pl-workbench select{font:inherit;background:var(--pl-bg);color:var(--pl-fg);border:1px solid var(--pl-border);border-radius:3px}
.pl-workbench .pl-wb-line{font-size:12px;color:var(--pl-muted);display:flex;gap:8px;align-items:center;flex-wrap:wrap;margin:2px 0}
.pl-workbench .pl-wb-error{font-size:12px;color:var(--pl-fg);background:var(--pl-warn-bg);border:1px solid var(--pl-warn);border-radius:3px;padding:2px 6px;margin:2px 0}
.pl-workbench .pl-wb-pick{font:inherit;font-size:12px;padding:0 5px;border:1px solid var(--pl-border);border-radius:8px;background:var(--pl-raised);color:var(--pl-fg);cursor:pointer}
.pl-workbench table.pl-wb-compare{border-collapse:collapse;font-size:12px;margin:2px 0}
.pl-workbench table.pl-wb-compare td,.pl-workbench table.pl-wb-compare th{border:1px solid var(--pl-border);padding:1px 6px;text-align:left}
.pl-workbench pre.pl-wb-code{font-size:12px;margin:2px 0;padding:4px;background:var(--pl-raised);border:1px solid var(--pl-border);overflow:auto}
`;

export function parse(text: string): WorkbenchState | null {
  try {
    const s = JSON.parse(text) as WorkbenchState;
    return Array.isArray(s.steps) ? s : null;
  } catch {
    return null;
  }
}

function button(doc: Document, label: string, onClick: () => void, disabled: boolean, cls = ''): HTMLButtonElement {
  const b = h(doc, 'button', { class: `pl-btn ${cls}`.trim(), type: 'button' }, label);
  b.disabled = disabled;
  b.addEventListener('click', onClick);
  return b;
}

/** The node or group selected in the stage on show (run mode builds panes per stage and hides all but one; a
 * pane's own element is `display: contents`, so its holder says whether it is on show). */
export function selected(handle: RenderHandle | null): string | null {
  for (const p of handle?.panes ?? []) {
    if (!p) continue; // run mode makes a stage's pane when its tab is first opened: the others are holes
    const holder = p.el.parentElement;
    if (p.selected && p.el.isConnected && holder && holder.getClientRects().length > 0) return p.selected;
  }
  return null;
}

/** Draw the controls from the state; `act` sends one action to the kernel. */
export function drawBar(
  bar: HTMLElement,
  s: WorkbenchState,
  act: (action: string, extra?: Record<string, string>) => void,
  pick: () => string | null,
  typed: Typed = {},
  gone = false,
): void {
  const doc = bar.ownerDocument;
  clear(bar);
  // gone: the kernel restarted or died, so no button can reach it; what it last sent stays as a static view
  const working = s.running !== null || s.busy === true;
  const busy = working || gone;
  const row = h(doc, 'div', { class: 'pl-wb-bar' });
  const select = h(doc, 'select', { 'aria-label': s.texts.quantizer, class: 'pl-wb-preset' });
  for (const p of s.presets) {
    const o = h(doc, 'option', { value: p.name }, p.label);
    o.selected = p.name === s.preset;
    select.appendChild(o);
  }
  select.disabled = busy;
  select.addEventListener('change', () => act('use', { name: select.value }));
  row.append(h(doc, 'span', {}, `${s.texts.quantizer}:`), select);
  for (const st of s.steps) {
    const b = button(doc, st.done ? `✓ ${st.label}` : st.label, () => act('advance'), busy || st.name !== s.next);
    b.classList.add('pl-wb-step');
    b.dataset.step = st.name;
    b.dataset.done = String(st.done);
    b.dataset.running = String(st.running);
    row.appendChild(b);
  }
  row.append(
    button(doc, s.texts.run_all, () => act('run_all'), busy || s.next === null, 'pl-wb-run-all'),
    button(
      doc,
      s.texts.cancel,
      () => act('cancel'),
      s.running === null || s.cancelling === true || gone,
      'pl-wb-cancel',
    ),
  );
  bar.appendChild(row);

  const status = h(doc, 'div', { class: 'pl-wb-line', role: 'status' });
  if (s.progress) {
    const [seen, total] = s.progress;
    status.appendChild(h(doc, 'progress', { value: seen, max: total, class: 'pl-wb-progress' }));
  }
  status.appendChild(h(doc, 'span', { class: 'pl-wb-status' }, s.status));
  if (s.sqnr) status.appendChild(h(doc, 'span', { class: 'pl-wb-sqnr' }, s.sqnr));
  bar.appendChild(status);
  if (gone) bar.appendChild(h(doc, 'div', { class: 'pl-wb-error pl-wb-gone', role: 'alert' }, s.texts.kernel_gone));
  else if (s.error) bar.appendChild(h(doc, 'div', { class: 'pl-wb-error', role: 'alert' }, s.error));

  const picks = h(doc, 'div', { class: 'pl-wb-line pl-wb-picks' });
  picks.appendChild(h(doc, 'span', {}, s.picks_text));
  for (const label of s.picks) {
    const b = h(doc, 'button', { class: 'pl-wb-pick', type: 'button', title: s.texts.quantize }, `${label} ×`);
    b.disabled = busy;
    b.addEventListener('click', () => act('quantize', { label }));
    picks.appendChild(b);
  }
  const keep = button(
    doc,
    s.texts.keep_fp32,
    () => {
      const id = pick();
      if (id) act('keep_fp32', { id });
    },
    busy || !s.steps[0].done,
    'pl-wb-keep',
  );
  picks.append(
    keep,
    button(doc, s.texts.rerun, () => act('rerun'), busy || !s.steps[0].done, 'pl-wb-rerun'),
  );
  bar.appendChild(picks);
  bar.appendChild(recipeRow(bar, s, act, busy, typed));

  if (s.comparison) {
    const c = s.comparison;
    const table = h(doc, 'table', { class: 'pl-wb-compare' });
    table.appendChild(h(doc, 'caption', {}, c.title));
    const head = h(doc, 'tr');
    for (const col of c.columns) head.appendChild(h(doc, 'th', {}, col));
    table.appendChild(head);
    for (const r of c.rows) {
      const tr = h(doc, 'tr');
      for (const v of r) tr.appendChild(h(doc, 'td', {}, v === null ? '—' : String(v)));
      table.appendChild(tr);
    }
    bar.appendChild(table);
  }
  const code = h(doc, 'details', { class: 'pl-wb-code-fold' });
  code.append(h(doc, 'summary', {}, 'wb.code'), h(doc, 'pre', { class: 'pl-wb-code' }, s.code));
  bar.appendChild(code);
  // the ready signal of the controls: what browser tests wait on (docs/frontend.md "Ready signal")
  bar.dataset.done = s.steps
    .filter((x) => x.done)
    .map((x) => x.name)
    .join(',');
  bar.dataset.busy = String(working);
  bar.dataset.gone = String(gone);
  bar.dataset.cancelling = String(s.cancelling === true);
}

/** A target field and "recipe"; the sites it offers, each a button that takes it as a pick, and "accept all". */
function recipeRow(
  bar: HTMLElement,
  s: WorkbenchState,
  act: (action: string, extra?: Record<string, string>) => void,
  busy: boolean,
  typed: Typed,
): HTMLElement {
  const doc = bar.ownerDocument;
  const row = h(doc, 'div', { class: 'pl-wb-line pl-wb-recipe' });
  const target = h(doc, 'input', {
    type: 'number',
    value: typed.target ?? '30',
    step: '1',
    'aria-label': s.texts.target,
    title: s.texts.target,
  });
  target.style.width = '5em';
  // the controls are drawn anew on every state (and the whole view when the output is replaced): keep what was typed
  target.addEventListener('input', () => {
    typed.target = target.value;
    typed.typed?.(target.value);
  });
  row.append(
    h(doc, 'span', {}, `${s.texts.target}:`),
    target,
    button(
      doc,
      s.texts.recipe,
      () => act('recipe', { target: target.value }),
      busy || !s.can_recipe,
      'pl-wb-recipe-go',
    ),
  );
  if (s.offered) {
    row.appendChild(h(doc, 'span', { class: 'pl-wb-offered' }, s.offered.title));
    for (const site of s.offered.sites) {
      const b = button(doc, `+ ${site.text}`, () => act('accept', { id: site.id }), busy || s.picks.includes(site.id));
      b.classList.add('pl-wb-site');
      row.appendChild(b);
    }
    if (s.offered.sites.length)
      row.appendChild(button(doc, s.texts.accept_all, () => act('accept'), busy, 'pl-wb-accept-all'));
  }
  return row;
}

/** The controls' styles (the core's and their own), once per document: the widget and the side panel draw them. */
export function styleWorkbench(el: HTMLElement): void {
  injectStyles(el);
  const doc = el.ownerDocument;
  if (doc.getElementById('pt2e-lens-workbench-style')) return;
  const css = h(doc, 'style', { id: 'pt2e-lens-workbench-style' }, CSS);
  doc.head?.appendChild(css);
}
