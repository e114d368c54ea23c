// The backend overlay of a lowered stage: what the backend did with each node, exactly as the snapshot's
// `backend` field says (int8 kernel, fp32, folded, delegated, portable fallback). Nothing is derived here:
// the outcome, kernel and reason are Python's; this file only draws and counts them.
import { h, truncate } from './dom';
import { named, type Tr } from './i18n';
import type { Backend, BackendOutcome, Id, Snapshot } from './types';

type Outcome = BackendOutcome['outcome'];

/** Colour of an outcome: the palette's properties, so light and dark themes both hold. Its keys, in this
 * order, are the outcomes the legend lists. */
const COLOR: Record<Outcome, string> = {
  int8: 'var(--pl-int)',
  fp32: 'var(--pl-warn)',
  folded: 'var(--pl-muted)',
  'delegated-int8': 'var(--pl-added)',
  'delegated-fp32': 'var(--pl-match)',
  portable: 'var(--pl-removed)',
};

export const BACKEND_CSS = `
.pt2e-lens .pl-outcome text{font-size:9px;font-weight:700;fill:var(--pl-canvas)}
.pt2e-lens .pl-outcome-chip{display:inline-block;padding:0 4px;border-radius:3px;color:var(--pl-canvas);font-weight:700;font-size:10px;margin-right:3px}
`;

export function backendOf(snap: Snapshot): Backend | null {
  return snap.backend ?? null;
}

export function outcomeOf(snap: Snapshot, id: Id): BackendOutcome | null {
  return snap.backend?.nodes[id] ?? null;
}

function words(t: Tr, o: Outcome): string {
  return t(`ui.backend.${o}`);
}

/** Short label of an outcome on a node's pill and the legend's chip (`ui.backend.pill.*`); an outcome the
 * catalogue does not know is shown as the JSON spells it. */
function short(t: Tr, o: Outcome): string {
  return named(t, 'ui.backend.pill.', o);
}

/** `int8 kernel: qconv_pointwise + relu`, and the reason when the backend gave one: for tooltips. */
export function outcomeText(t: Tr, o: BackendOutcome): string {
  const head = o.kernel ? `${words(t, o.outcome)}: ${o.kernel}` : words(t, o.outcome);
  return o.reason ? `${head} (${o.reason})` : head;
}

/** The outcome pill at a node's bottom-left corner: its short label, colour, width and tooltip. */
export function outcomePill(
  snap: Snapshot,
  id: Id,
  t: Tr,
): { outcome: Outcome; text: string; color: string; title: string; w: number } | null {
  const o = outcomeOf(snap, id);
  if (!o) return null;
  const text = short(t, o.outcome);
  return {
    outcome: o.outcome,
    text,
    color: COLOR[o.outcome] ?? 'var(--pl-muted)',
    title: outcomeText(t, o),
    w: Math.ceil(text.length * 5.6 + 8),
  };
}

/** Rows of the details drawer for a node of a lowered stage. */
export function outcomeSection(doc: Document, box: HTMLElement, snap: Snapshot, id: Id, t: Tr): void {
  const b = backendOf(snap);
  const o = b?.nodes[id];
  if (!b || !o) return;
  box.appendChild(h(doc, 'h4', undefined, t('ui.backend.section', { backend: b.name })));
  const list = h(doc, 'dl');
  const rows: Array<[string, string]> = [[t('ui.backend.outcome'), words(t, o.outcome)]];
  if (o.kernel) rows.push([t('ui.backend.kernel'), o.kernel]);
  if (o.reason) rows.push([t('ui.backend.reason'), o.reason]);
  if (o.partition !== undefined) rows.push([t('ui.backend.partition'), String(o.partition)]);
  for (const [k, v] of rows) list.append(h(doc, 'dt', undefined, k), h(doc, 'dd', undefined, v));
  box.appendChild(list);
}

/** The legend line: one chip per outcome the stage has, with its count from the snapshot. */
export function backendLegend(doc: Document, snap: Snapshot, t: Tr): HTMLElement | null {
  const b = backendOf(snap);
  if (!b) return null;
  const el = h(doc, 'span', { class: 'pl-backend-legend' }, `${truncate(b.name, 24)}: `);
  for (const o of Object.keys(COLOR) as Outcome[]) {
    const n = b.counts[o];
    if (!n) continue;
    el.appendChild(h(doc, 'span', { class: 'pl-outcome-chip', style: `background:${COLOR[o]}` }, short(t, o)));
    el.appendChild(doc.createTextNode(`${words(t, o)} ${n}  `));
  }
  // the backend's own count of its ops (XNNPACK: get_delegation_info), which the node counts above are not
  if (b.ops) el.appendChild(h(doc, 'span', { class: 'pl-backend-ops' }, t('ui.backend.ops', { ...b.ops })));
  return el;
}

/** For a closed group's badge: of its annotated nodes, how many the backend runs in int8. */
export function int8Of(snap: Snapshot, id: Id): { annotated: boolean; int8: boolean } | null {
  const o = outcomeOf(snap, id);
  if (!o) return null;
  return { annotated: o.annotated, int8: o.annotated && (o.outcome === 'int8' || o.outcome === 'delegated-int8') };
}
