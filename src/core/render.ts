// render(el, viewDoc, options): the one entry every host (widget, report, JupyterLab, VS Code) calls.
// A big document (thousands of nodes) is parsed and checked in the layout worker (its text; an object in page
// tasks) and drawn in separate page tasks, so the page never freezes on it: render() returns at once, `ready`
// resolves when the first layout is drawn.
import { prepareSummary } from './badges';
import { counterparts, diffMarks } from './compare';
import { stackWhenNarrow } from './compare-stack';
import { CompareSync } from './compare-sync';
import { clear, h } from './dom';
import { prepareDrawn } from './drawn';
import { prepareFacts } from './facts';
import { findingsList } from './findings-list';
import { GraphView } from './graph-view';
import { prepareHierarchy } from './groups';
import { makeHeat } from './heat';
import { named, resolveLocale, type Tr, translator } from './i18n';
import { getLayoutClient, type LayoutClient } from './layout-client';
import { ScaleLink } from './pan-zoom';
import { nextTask } from './slicer';
import { injectStyles } from './styles';
import { renderTable } from './tables';
import type { Table, TableName, View } from './types';
import { type Checked, checkDoc, checkDocInSlices, isBigDoc } from './validate';

export interface RenderOptions {
  /** false forces in-thread layout (no Web Worker) */
  worker?: boolean;
  /** graphs with more nodes open collapsed (default 300) */
  collapseThreshold?: number;
  /** canvas height in px, fixed (the side panel); without it 520, and a pane grows to a taller drawing's height
   * at the fit's scale, up to GROW_MAX (pan-zoom.ts) */
  height?: number;
  /** the UI language (BCP 47, e.g. 'zh-TW'); default: the view's own `locale`, else the nearest `lang` attribute
   * around `el`, else English */
  locale?: string;
}

export interface RenderHandle {
  /** resolves once the first layout is drawn */
  ready: Promise<void>;
  /** the graph panes created so far (run mode creates them on first view of a stage) */
  panes: GraphView[];
  destroy(): void;
}

// tables whose tab has a short label (the table keeps its whole title above its rows)
const TABLE_LABELS: ReadonlySet<TableName> = new Set<TableName>([
  'annotations',
  'observers',
  'qdq',
  'decomposition',
  'op_diff',
  'sharing',
  'backend',
]);
const TABLE_ORDER: readonly TableName[] = ['annotations', 'observers', 'qdq', 'decomposition', 'op_diff'];

interface Ctx {
  doc: Document;
  view: View;
  t: Tr;
  client: LayoutClient;
  threshold: number;
  /** the host gave the canvas height (RenderOptions.height) */
  fixedHeight: boolean;
  panes: GraphView[];
  waits: Array<Promise<void>>;
  /** the pane on show (run mode: the stage tab) */
  active: number;
  /** run mode: switch to a stage tab; `id` (a node of that stage) is selected there instead of the counterpart of
   * the selection in the stage left */
  showStage?: (i: number, id?: string) => void;
  /** compare mode: panes pan, zoom and open groups together */
  follow?: CompareSync;
  /** run at destroy() */
  disposers: Array<() => void>;
}

function makePane(ctx: Ctx, i: number, sync: (i: number, id: string | null) => void): GraphView {
  const pane = ctx.view.panes[i];
  const n = ctx.view.panes.length;
  const gv = new GraphView(ctx.doc, pane.snapshot, {
    client: ctx.client,
    t: ctx.t,
    collapseThreshold: ctx.threshold,
    fixedHeight: ctx.fixedHeight,
    focus: ctx.view.focus ? (ctx.view.focus[i] ?? null) : null,
    notes: ctx.view.notes[i] ?? {},
    marks: n > 1 ? diffMarks(ctx.view.diffs, n, i) : undefined,
    overlay: pane.overlay ?? null,
    compare: n > 1,
    onSelect: (id) => sync(i, id),
    onToggle: (key, open) => void ctx.follow?.toggled(i, key, open),
    onHover: (id) => {
      if (n < 2 || ctx.view.mode === 'run') return; // run mode: one stage on show
      const sets = id ? counterparts(ctx.view.diffs, n, i, id) : null;
      ctx.panes.forEach((p, j) => {
        if (p && j !== i) p.showHover(sets ? sets[j] : new Set());
      });
    },
  });
  ctx.panes[i] = gv;
  ctx.waits.push(gv.ready);
  return gv;
}

function findings(ctx: Ctx, i: number, gv: GraphView): HTMLElement {
  const focus = ctx.view.focus?.[i] ? new Set(ctx.view.focus[i]) : null;
  const fs = ctx.view.panes[i].snapshot.findings.filter(
    (f) => !focus || f.nodes.length === 0 || f.nodes.some((n) => focus.has(n)),
  );
  return findingsList(ctx.doc, fs, (id) => void gv.select(id, { reveal: true, notify: true }), ctx.t);
}

function paneBox(ctx: Ctx, i: number, gv: GraphView, label: boolean): HTMLElement {
  const box = h(ctx.doc, 'div', { class: 'pl-pane', 'data-pane': i });
  if (label) box.appendChild(h(ctx.doc, 'div', { class: 'pl-pane-label' }, ctx.view.panes[i].label));
  // the graph first, the findings (one line per rule) below it
  box.appendChild(gv.el);
  box.appendChild(findings(ctx, i, gv));
  return box;
}

function tabs(
  doc: Document,
  names: string[],
  onPick: (i: number) => void,
  cls = '',
): { bar: HTMLElement; pick: (i: number) => void } {
  const bar = h(doc, 'div', { class: `pl-tabs ${cls}`, role: 'tablist' });
  const btns = names.map((nm, i) => {
    const b = h(doc, 'button', { class: 'pl-tab', role: 'tab', type: 'button', 'aria-selected': 'false' }, nm);
    b.addEventListener('click', () => pick(i));
    bar.appendChild(b);
    return b;
  });
  const pick = (i: number): void => {
    for (const [j, b] of btns.entries()) b.setAttribute('aria-selected', String(i === j));
    onPick(i);
  };
  return { bar, pick };
}

function orderedTables(view: View): Table[] {
  const rank = (t: Table): number => {
    const r = TABLE_ORDER.indexOf(t.name);
    return r < 0 ? TABLE_ORDER.length : r;
  };
  return view.tables.slice().sort((a, b) => rank(a) - rank(b));
}

const TAB_CHARS = 24; // a tab names its table; the title (a sentence, at times) is the table's own heading

function tableLabel(tr: Tr, t: Table): string {
  if (t.name === 'orders') return tr('ui.views.tab_orders'); // its title is pl.compare_orders' whole summary
  const known = named(tr, 'ui.tab.', t.name);
  if (known !== t.name || TABLE_LABELS.has(t.name)) return known;
  const text = t.title ?? t.name;
  return text.length > TAB_CHARS ? `${text.slice(0, TAB_CHARS - 1).trimEnd()}…` : text;
}

function renderGraphArea(ctx: Ctx, host: HTMLElement): void {
  const { doc, view } = ctx;
  const n = view.panes.length;
  const sync = (from: number, id: string | null): void => {
    if (n < 2) return;
    const sets = id ? counterparts(view.diffs, n, from, id) : null;
    ctx.panes.forEach((p, j) => {
      if (p && j !== from) p.showCounterparts(sets ? sets[j] : new Set(), ctx.panes[from]?.panZoom?.t.k);
    });
  };
  if (n === 0) {
    host.appendChild(h(doc, 'div', { class: 'pl-empty' }, ctx.t('ui.empty_graph')));
    return;
  }
  if (view.mode === 'run') {
    const area = h(doc, 'div');
    const shown: HTMLElement[] = [];
    // one stage on show at a time: the selection moves with the tab (followStage), never to hidden panes
    const quiet = (): void => undefined;
    let pending: string | null | undefined;
    const t = tabs(
      doc,
      view.panes.map((p) => p.label),
      (i) => {
        const left = ctx.panes[ctx.active];
        const carried = pending !== undefined ? pending : i === ctx.active || !left ? undefined : left.selected;
        const from = pending !== undefined ? i : ctx.active;
        pending = undefined;
        if (!ctx.panes[i]) {
          const gv = makePane(ctx, i, quiet);
          shown[i] = paneBox(ctx, i, gv, false);
          area.appendChild(shown[i]);
        }
        ctx.active = i;
        for (const [j, e] of shown.entries()) if (e) e.style.display = i === j ? '' : 'none';
        const gv = ctx.panes[i];
        gv.shown();
        if (carried !== undefined) {
          const ids = carried === null ? new Set<string>() : counterparts(view.diffs, n, from, carried)[i];
          void gv.ready.then(() => (ctx.active === i ? gv.follow(ids) : undefined));
        }
      },
      'pl-stage-tabs',
    );
    host.append(t.bar, area);
    ctx.showStage = (i, id) => {
      pending = id;
      t.pick(i);
    };
    t.pick(n - 1);
    return;
  }
  const row = h(doc, 'div', { class: 'pl-panes' });
  const count = view.mode === 'graph' ? 1 : n;
  const link = new ScaleLink();
  if (count > 1) ctx.follow = new CompareSync(ctx.panes, view.diffs);
  link.stackedWidth = () => row.getBoundingClientRect().width - 2; // a pane's border
  link.stack = () => row.classList.add('pl-stacked');
  link.stacked = () => row.classList.contains('pl-narrow');
  for (let i = 0; i < count; i++) {
    const gv = makePane(ctx, i, sync);
    if (count > 1 && gv.panZoom) link.add(gv.panZoom);
    ctx.follow?.add(i);
    row.appendChild(paneBox(ctx, i, gv, count > 1));
  }
  host.appendChild(row);
  // too narrow for the panes side by side: one above the other (the canvases re-fit on their resize)
  if (count > 1) ctx.disposers.push(stackWhenNarrow(row, count));
}

function renderTables(ctx: Ctx, host: HTMLElement, list: Table[]): void {
  if (!list.length) host.appendChild(h(ctx.doc, 'div', { class: 'pl-empty' }, ctx.t('ui.no_tables')));
  for (const t of list) host.appendChild(renderTable(ctx.doc, t, undefined, { skipTitle: ctx.view.title, t: ctx.t }));
}

export function render(el: HTMLElement, input: unknown, options: RenderOptions = {}): RenderHandle {
  if (!isBigDoc(input)) return start(el, options, checkDoc(input));
  // a text is opened (parsed and checked) in a layout worker, an object here in slices
  return start(el, options, (client) =>
    typeof input === 'string' ? client.open(input) : checkDocInSlices(input, nextTask),
  );
}

/** A View checked already (a packed output opened in the layout worker: render-output.ts), drawn as render()
 * draws it: a big one in page tasks after render() returned. */
export function renderChecked(el: HTMLElement, view: View, options: RenderOptions = {}): RenderHandle {
  const checked: Checked = { ok: true, view };
  return start(el, options, isBigDoc(view) ? () => Promise.resolve(checked) : checked);
}

/** The output's root, then the View drawn: at once when checked, else once `open` has checked it. */
function start(
  el: HTMLElement,
  options: RenderOptions,
  open: Checked | ((client: LayoutClient) => Promise<Checked>),
): RenderHandle {
  const doc = el.ownerDocument;
  injectStyles(el);
  clear(el);
  // the host's choice, else the page's own language (`<html lang>`, JupyterLab's, the report's)
  const lang = resolveLocale(options.locale ?? el.closest('[lang]')?.getAttribute('lang'));
  const tr = translator(lang);
  const root = h(doc, 'div', { class: 'pt2e-lens', 'data-state': 'loading', lang });
  if (options.height) root.style.setProperty('--pl-height', `${options.height}px`);
  el.appendChild(root);
  let destroyed = false;
  const disposers: Array<() => void> = [];
  const handle: RenderHandle = {
    ready: Promise.resolve(),
    panes: [],
    destroy: () => {
      destroyed = true;
      for (const p of handle.panes) p?.destroy();
      for (const f of disposers.splice(0)) f();
    },
  };
  if (typeof open !== 'function') {
    handle.ready = show(root, open, handle, options, tr, disposers);
    return handle;
  }
  root.appendChild(h(doc, 'div', { class: 'pl-empty pl-loading' }, tr('ui.laying_out')));
  handle.ready = nextTask()
    .then(async () => {
      // the layout workers start in a task of their own (~15 ms: the worker source is compiled)
      const client = getLayoutClient(options.worker !== false);
      await nextTask();
      return open(client);
    })
    .then(async (checked) => {
      if (checked.ok && !destroyed) await prepareShownPanes(checked.view);
      await nextTask();
      if (destroyed) return;
      clear(root);
      return show(root, checked, handle, options, tr, disposers);
    });
  return handle;
}

/** Module hierarchies of the panes drawn first, built ahead in slices (GraphView then takes them). */
async function prepareShownPanes(view: View): Promise<void> {
  const n = view.panes.length;
  const shown =
    view.mode === 'table' ? [] : view.mode === 'run' ? [n - 1] : view.mode === 'graph' ? [0] : [...view.panes.keys()];
  for (const i of shown) {
    const snap = view.panes[i]?.snapshot;
    if (!snap || view.focus?.[i]) continue; // a focused pane groups only its focus: built when drawn
    // the arrays GraphView draws (its buildHierarchy finds the groups ready), its lookup tables, in slices
    const d = await prepareDrawn(snap, nextTask);
    const hier = await prepareHierarchy(d.nodes, d.edges, d.fixed, nextTask);
    const facts = await prepareFacts(snap, nextTask);
    // the closed groups' badge counts, a walk over every node: GraphView's summaryOf finds them made
    if (hier.groups.size > 1) await prepareSummary(hier, facts, makeHeat(view.panes[i].overlay), nextTask);
  }
}

/** Everything after the document is checked: title, tabs, panes and tables; resolves once drawn. */
function show(
  root: HTMLElement,
  checked: Checked,
  handle: RenderHandle,
  options: RenderOptions,
  tr: Tr,
  disposers: Array<() => void>,
): Promise<void> {
  const doc = root.ownerDocument;
  if (!checked.ok) {
    const message = checked.line ? checked.line(tr) : checked.message;
    root.appendChild(h(doc, 'div', { class: 'pl-message', role: 'alert' }, message));
    root.setAttribute('data-state', 'error');
    return Promise.resolve();
  }
  const view = checked.view;
  if (!options.locale && view.locale) {
    // the language the view was made in (its findings and tables are worded in it) beats the page's
    const lang = resolveLocale(view.locale);
    tr = translator(lang);
    root.setAttribute('lang', lang);
  }
  const ctx: Ctx = {
    doc,
    view,
    t: tr,
    client: getLayoutClient(options.worker !== false),
    threshold: options.collapseThreshold ?? 300,
    fixedHeight: options.height !== undefined,
    panes: handle.panes,
    waits: [],
    active: 0,
    disposers,
  };
  if (view.title) root.appendChild(h(doc, 'div', { class: 'pl-title' }, view.title));
  const tables = orderedTables(view);
  try {
    if (view.mode === 'table') renderTables(ctx, root, tables);
    else if (tables.length === 0) renderGraphArea(ctx, root);
    else {
      const graphHost = h(doc, 'div', { class: 'pl-tabpanel', 'data-tab': 'graph' });
      const tableHosts = tables.map((t) => h(doc, 'div', { class: 'pl-tabpanel', 'data-tab': t.name }));
      // a table row naming a node shows it in the graph (the stage on show, else the first that has it)
      const showNode = (id: string): void => {
        t.pick(0);
        let i = ctx.panes[ctx.active]?.facts.nodes.has(id)
          ? ctx.active
          : view.panes.findIndex((p) => p.snapshot.nodes.some((nd) => nd.id === id));
        if (i < 0) return;
        if (view.mode === 'graph') i = 0;
        if (ctx.showStage && i !== ctx.active) ctx.showStage(i, id);
        else {
          const gv = ctx.panes[i];
          if (gv) void gv.ready.then(() => gv.select(id, { reveal: true, notify: true }));
        }
      };
      const t = tabs(
        doc,
        [tr('ui.tab.graph'), ...tables.map((x) => tableLabel(tr, x))],
        (i) => {
          graphHost.style.display = i === 0 ? '' : 'none';
          for (const [j, e] of tableHosts.entries()) e.style.display = i === j + 1 ? '' : 'none';
          if (i > 0 && !tableHosts[i - 1].firstChild)
            tableHosts[i - 1].appendChild(renderTable(doc, tables[i - 1], showNode, { skipTitle: view.title, t: tr }));
          if (i === 0) for (const p of handle.panes) p?.shown();
        },
        'pl-main-tabs',
      );
      root.append(t.bar, graphHost, ...tableHosts);
      renderGraphArea(ctx, graphHost);
      t.pick(0);
    }
  } catch (e) {
    clear(root);
    root.appendChild(
      h(doc, 'div', { class: 'pl-message', role: 'alert' }, tr('ui.render_failed', { error: (e as Error).message })),
    );
  }
  return Promise.all(ctx.waits).then(
    () => root.setAttribute('data-state', 'ready'),
    (e) => {
      root.setAttribute('data-state', 'error');
      root.appendChild(
        h(doc, 'div', { class: 'pl-message', role: 'alert' }, tr('ui.layout_failed', { error: String(e) })),
      );
    },
  );
}
