// The details panel for one node: everything the JSON says about it, as text.
import { outcomeSection } from './backend';
import { breakable } from './breaks';
import { clear, fmtNum, fmtNums, h } from './dom';
import { edgeOrNodeText, type Facts } from './facts';
import { EN, named, type Tr } from './i18n';
import type { Id, Observer, QDQ, Spec } from './types';

type Row = [string, string];

function dl(doc: Document, rows: Row[]): HTMLElement {
  const list = h(doc, 'dl');
  for (const [k, v] of rows) {
    list.appendChild(h(doc, 'dt', undefined, k));
    list.appendChild(h(doc, 'dd')).appendChild(breakable(doc, v));
  }
  return list;
}

function section(doc: Document, parent: HTMLElement, title: string, rows: Row[]): void {
  parent.appendChild(h(doc, 'h4', undefined, title));
  parent.appendChild(dl(doc, rows));
}

export function specText(s: Spec | undefined, id: string | null, t: Tr = EN): string {
  if (id === null) return t('ui.spec.none');
  if (!s) return id;
  const parts = [`${id}: ${s.kind}`];
  if (s.dtype) parts.push(s.dtype);
  if (s.qscheme) parts.push(s.qscheme);
  if (s.quant_min !== null || s.quant_max !== null) parts.push(`[${s.quant_min}, ${s.quant_max}]`);
  if (s.ch_axis !== null) parts.push(`ch_axis=${s.ch_axis}`);
  if (s.is_dynamic) parts.push(t('ui.spec.dynamic'));
  if (s.observer) parts.push(s.observer);
  if (s.shared_with) parts.push(t('ui.spec.shared_with', { x: edgeOrNodeText(s.shared_with, t) }));
  if (s.derived_from)
    parts.push(t('ui.spec.derived_from', { x: s.derived_from.map((d) => edgeOrNodeText(d, t)).join(', ') }));
  if (s.scale !== null) parts.push(`scale=${fmtNum(s.scale)}`);
  if (s.zero_point !== null) parts.push(`zero_point=${s.zero_point}`);
  return parts.join(' · ');
}

// the per-channel range summary Python put on a weight / per-channel observer (pl.observer_ranges)
function channelRows(o: Observer, t: Tr): Row[] {
  const c = o.channels;
  if (!c) return [];
  const [median, max, ratio] = [fmtNum(c.median_range), fmtNum(c.max_range), fmtNum(Number(c.ratio))];
  const text = t('sensitivity.details_channels_text', {
    count: c.count,
    source: c.source,
    worst: c.worst,
    median,
    max,
    ratio,
  });
  return [[t('sensitivity.details_channels'), text + (c.outlier ? t('sensitivity.details_outlier') : '')]];
}

export function observerRows(o: Observer, t: Tr = EN): Row[] {
  return [
    [t('ui.details.observer'), `${o.id} (${o.class})`],
    [t('ui.details.module_names'), o.names.join(', ') || '—'],
    [t('ui.details.group'), String(o.group) + (o.implicit ? t('ui.details.implicit') : '')],
    [t('ui.details.observes'), o.observes ?? '—'],
    ['dtype / qscheme', `${o.dtype ?? '—'} / ${o.qscheme ?? '—'}`],
    [
      t('ui.details.range'),
      `[${o.quant_min ?? '—'}, ${o.quant_max ?? '—'}]${o.ch_axis !== null ? ` ch_axis=${o.ch_axis}` : ''}`,
    ],
    ['min', fmtNums(o.min)],
    ['max', fmtNums(o.max)],
    ['scale', fmtNums(o.scale)],
    ['zero_point', fmtNums(o.zero_point)],
    ...channelRows(o, t),
    [
      t('ui.details.serves'),
      o.serves.map((s) => `${edgeOrNodeText(s.at, t)} (${s.spec ?? '—'}, ${s.via})`).join('; ') || '—',
    ],
  ];
}

export function qdqRows(q: QDQ, t: Tr = EN): Row[] {
  return [
    ['q/dq', `${q.kind} ${q.op} (${q.granularity})`],
    [
      'dtype',
      `${q.dtype ?? '—'} [${q.quant_min ?? '—'}, ${q.quant_max ?? '—'}]${q.axis !== null ? ` axis=${q.axis}` : ''}`,
    ],
    ['scale', fmtNums(q.scale)],
    ['zero_point', fmtNums(q.zero_point)],
    [t('ui.details.tensor'), q.tensor ?? '—'],
    [t('ui.details.from_observer'), q.from_observer ?? '—'],
  ];
}

export function renderDetails(
  doc: Document,
  box: HTMLElement,
  f: Facts,
  id: Id | null,
  note?: string,
  overlay?: string,
  t: Tr = EN,
): void {
  clear(box);
  if (id === null) return;
  const n = f.nodes.get(id);
  if (!n) return;
  box.appendChild(h(doc, 'h4')).append(breakable(doc, n.id), ` — ${t(`ui.role.${n.role}`)}`);
  // why the node is as it is (why not quantized, which annotation requested an observer), worded by Python: right
  // under the title, so a docked drawer a few lines tall answers "why is this fp32?" without scrolling
  if (n.why?.length) {
    box.appendChild(h(doc, 'h4', undefined, t('ui.views.why')));
    const ul = box.appendChild(h(doc, 'ul', { class: 'pl-why' }));
    for (const line of n.why) ul.appendChild(h(doc, 'li')).appendChild(breakable(doc, line));
  }
  const rows: Row[] = [
    [t('ui.details.target'), n.target_full || n.target],
    ['op', n.op],
    [t('ui.details.shape'), n.shape ? `[${n.shape.join(', ')}]` : '—'],
    ['dtype', n.dtype ?? '—'],
    [t('ui.details.module'), n.module_path || t('ui.details.root')],
    [t('ui.details.module_stack'), n.module_stack.map(([p, c]) => `${p} (${c})`).join(' › ') || '—'],
    [t('ui.details.source'), n.source ?? '—'],
    [t('ui.details.provenance'), n.provenance.join(', ') || '—'],
  ];
  if (overlay) {
    const i = overlay.indexOf(': ');
    rows.push([overlay.slice(0, i), overlay.slice(i + 2)]);
  }
  if (note) rows.push([t('ui.details.note'), note]);
  box.appendChild(dl(doc, rows));
  outcomeSection(doc, box, f.snap, id, t);
  const a = f.annotation.get(id);
  if (a) {
    const ar: Row[] = a.inputs.map(
      (i) => [t('ui.details.input', { src: i.src }), specText(f.specs.get(i.spec ?? ''), i.spec, t)] as Row,
    );
    ar.push([t('ui.details.output'), specText(f.specs.get(a.output ?? ''), a.output, t)]);
    ar.push(['_annotated', String(a.annotated)]);
    ar.push(['allow_implicit_sharing', String(a.allow_implicit_sharing)]);
    ar.push(['quantizer', a.quantizer ?? '—']);
    if (a.skipped_by?.length) ar.push([t('ui.details.skipped_by'), a.skipped_by.join(', ')]);
    section(doc, box, t('ui.details.annotation'), ar);
  }
  const own = f.observerOf(id);
  if (own) section(doc, box, t('ui.details.observer_section'), observerRows(own, t));
  for (const o of f.observedBy.get(id) ?? [])
    if (o !== own) section(doc, box, t('ui.details.observed_by', { id: o.id }), observerRows(o, t));
  const q = f.qdq.get(id);
  if (q) section(doc, box, t('ui.details.qdq_section'), qdqRows(q, t));
  for (const x of f.qdqOfTensor.get(id) ?? [])
    if (x !== q) section(doc, box, t('ui.details.qdq_node', { node: x.node }), qdqRows(x, t));
  for (const fi of f.findings.get(id) ?? [])
    section(doc, box, t('ui.details.finding', { kind: named(t, 'finding.kind.', fi.kind) }), [
      [t('ui.details.message'), fi.message],
    ]);
}
