// The details panel for one node: everything the JSON says about it, as text.
import { clear, fmtNum, fmtNums, h } from './dom';
import { edgeOrNodeText, type Facts } from './facts';
import type { Id, Observer, QDQ, Spec } from './types';

type Row = [string, string];

function dl(doc: Document, rows: Row[]): HTMLElement {
  const list = h(doc, 'dl');
  for (const [k, v] of rows) {
    list.appendChild(h(doc, 'dt', undefined, k));
    list.appendChild(h(doc, 'dd', undefined, v));
  }
  return list;
}

function section(doc: Document, parent: HTMLElement, title: string, rows: Row[]): void {
  parent.appendChild(h(doc, 'h4', undefined, title));
  parent.appendChild(dl(doc, rows));
}

export function specText(s: Spec | undefined, id: string | null): string {
  if (id === null) return 'none';
  if (!s) return id;
  const parts = [`${id}: ${s.kind}`];
  if (s.dtype) parts.push(s.dtype);
  if (s.qscheme) parts.push(s.qscheme);
  if (s.quant_min !== null || s.quant_max !== null) parts.push(`[${s.quant_min}, ${s.quant_max}]`);
  if (s.ch_axis !== null) parts.push(`ch_axis=${s.ch_axis}`);
  if (s.is_dynamic) parts.push('dynamic');
  if (s.observer) parts.push(s.observer);
  if (s.shared_with) parts.push(`shared with ${edgeOrNodeText(s.shared_with)}`);
  if (s.derived_from) parts.push(`derived from ${s.derived_from.map(edgeOrNodeText).join(', ')}`);
  if (s.scale !== null) parts.push(`scale=${fmtNum(s.scale)}`);
  if (s.zero_point !== null) parts.push(`zero_point=${s.zero_point}`);
  return parts.join(' · ');
}

export function observerRows(o: Observer): Row[] {
  return [
    ['observer', `${o.id} (${o.class})`],
    ['module names', o.names.join(', ') || '—'],
    ['group', String(o.group) + (o.implicit ? ' (implicit sharing)' : '')],
    ['observes', o.observes ?? '—'],
    ['dtype / qscheme', `${o.dtype ?? '—'} / ${o.qscheme ?? '—'}`],
    ['range', `[${o.quant_min ?? '—'}, ${o.quant_max ?? '—'}]${o.ch_axis !== null ? ` ch_axis=${o.ch_axis}` : ''}`],
    ['min', fmtNums(o.min)],
    ['max', fmtNums(o.max)],
    ['scale', fmtNums(o.scale)],
    ['zero_point', fmtNums(o.zero_point)],
    ['serves', o.serves.map((s) => `${edgeOrNodeText(s.at)} (${s.spec ?? '—'}, ${s.via})`).join('; ') || '—'],
  ];
}

export function qdqRows(q: QDQ): Row[] {
  return [
    ['q/dq', `${q.kind} ${q.op} (${q.granularity})`],
    [
      'dtype',
      `${q.dtype ?? '—'} [${q.quant_min ?? '—'}, ${q.quant_max ?? '—'}]${q.axis !== null ? ` axis=${q.axis}` : ''}`,
    ],
    ['scale', fmtNums(q.scale)],
    ['zero_point', fmtNums(q.zero_point)],
    ['tensor', q.tensor ?? '—'],
    ['from observer', q.from_observer ?? '—'],
  ];
}

export function renderDetails(
  doc: Document,
  box: HTMLElement,
  f: Facts,
  id: Id | null,
  note?: string,
  overlay?: string,
): void {
  clear(box);
  if (id === null) return;
  const n = f.nodes.get(id);
  if (!n) return;
  box.appendChild(h(doc, 'h4', undefined, `${n.id} — ${n.role}`));
  const rows: Row[] = [
    ['target', n.target_full || n.target],
    ['op', n.op],
    ['shape', n.shape ? `[${n.shape.join(', ')}]` : '—'],
    ['dtype', n.dtype ?? '—'],
    ['module', n.module_path || '(root)'],
    ['module stack', n.module_stack.map(([p, c]) => `${p} (${c})`).join(' › ') || '—'],
    ['source', n.source ?? '—'],
    ['provenance', n.provenance.join(', ') || '—'],
  ];
  if (overlay) {
    const i = overlay.indexOf(': ');
    rows.push([overlay.slice(0, i), overlay.slice(i + 2)]);
  }
  if (note) rows.push(['note', note]);
  box.appendChild(dl(doc, rows));
  const a = f.annotation.get(id);
  if (a) {
    const ar: Row[] = a.inputs.map((i) => [`input ${i.src}`, specText(f.specs.get(i.spec ?? ''), i.spec)] as Row);
    ar.push(['output', specText(f.specs.get(a.output ?? ''), a.output)]);
    ar.push(['_annotated', String(a.annotated)]);
    ar.push(['allow_implicit_sharing', String(a.allow_implicit_sharing)]);
    ar.push(['quantizer', a.quantizer ?? '—']);
    if (a.skipped_by?.length) ar.push(['skipped by', a.skipped_by.join(', ')]);
    section(doc, box, 'Annotation', ar);
  }
  const own = f.observerOf(id);
  if (own) section(doc, box, 'Observer', observerRows(own));
  for (const o of f.observedBy.get(id) ?? []) if (o !== own) section(doc, box, `Observed by ${o.id}`, observerRows(o));
  const q = f.qdq.get(id);
  if (q) section(doc, box, 'Quantize / dequantize', qdqRows(q));
  for (const t of f.qdqOfTensor.get(id) ?? []) if (t !== q) section(doc, box, `q/dq node ${t.node}`, qdqRows(t));
  for (const fi of f.findings.get(id) ?? []) section(doc, box, `Finding: ${fi.kind}`, [['message', fi.message]]);
}
