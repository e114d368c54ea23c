// What a closed group holds, counted from facts the JSON carries (roles, annotations, fp32-island
// findings, the overlay's values): shown as badges so a closed model still says which layers are int8.
import { int8Of } from './backend';
import { WIDE } from './callout';
import type { Facts } from './facts';
import type { Group, Hierarchy } from './groups';
import type { Heat } from './heat';
import { EN, type Tr } from './i18n';
import { runSteps, runStepsInSlices } from './slicer';
import type { Id } from './types';

export interface Summary {
  quantize: number;
  dequantize: number;
  observers: number;
  /** compute nodes with an annotation whose _annotated is true */
  annotated: number;
  /** compute nodes (call_function) without such an annotation, counted only on a quantized stage */
  fp32: number;
  /** fp32-island findings whose op (the finding's first node) is inside */
  islands: number;
  /** worst overlay value inside (lowest when higher is better), if the pane has an overlay */
  worst: number | null;
  /** a lowered stage: annotated nodes with a backend outcome, and how many of them run int8 */
  lowered: number;
  int8: number;
}

export interface Badge {
  kind: 'quantize' | 'dequantize' | 'observer' | 'annotated' | 'fp32' | 'island' | 'worst' | 'int8';
  text: string;
  title: string;
}

/** Frame and text colour of a badge (the legend shows the same). */
export const BADGE_COLOR: Record<Badge['kind'], string> = {
  quantize: 'var(--pl-quantize-stroke)',
  dequantize: 'var(--pl-dequantize-stroke)',
  observer: 'var(--pl-observer-stroke)',
  annotated: 'var(--pl-fg)',
  fp32: 'var(--pl-muted)',
  island: 'var(--pl-warn)',
  worst: 'var(--pl-fg)',
  int8: 'var(--pl-int)',
};

const empty = (): Summary => ({
  quantize: 0,
  dequantize: 0,
  observers: 0,
  annotated: 0,
  fp32: 0,
  islands: 0,
  worst: null,
  lowered: 0,
  int8: 0,
});

/** A stage is quantized (so unannotated compute is worth calling fp32) once it has annotations, observers or q/dq. */
export function isQuantizedStage(f: Facts): boolean {
  return f.snap.annotations.length > 0 || f.snap.observers.length > 0 || f.snap.qdq.length > 0;
}

/** One pass bottom-up over the hierarchy: a summary per group key. */
export function summarize(h: Hierarchy, f: Facts, heat: Heat | null = null): Map<string, Summary> {
  return runSteps(summarySteps(h, f, heat));
}

/** summarize, pausing (yielding) every SUMMARY_STEP items: 100k nodes, ~60k groups. Depth first in item order,
 * each group's summary made when its last item is counted (a child's before its parent's, as a recursion would). */
export function* summarySteps(h: Hierarchy, f: Facts, heat: Heat | null = null): Generator<void, Map<string, Summary>> {
  const quantized = isQuantizedStage(f);
  const islandOps = new Set<Id>();
  for (const fi of f.snap.findings) if (fi.kind === 'fp32-island' && fi.nodes.length) islandOps.add(fi.nodes[0]);
  const better = heat?.overlay.higher_is_better ?? true;
  // what a stage has not (no findings, no backend, no overlay) is not looked up per node
  const islands = islandOps.size > 0;
  const lowered = f.snap.backend != null;
  const values = heat?.overlay.values ?? null;
  const annotations = f.annotation.size > 0;
  const out = new Map<string, Summary>();
  const worse = (s: Summary, v: number): void => {
    if (s.worst === null || (better ? v < s.worst : v > s.worst)) s.worst = v;
  };
  type Frame = { g: Group; i: number; s: Summary };
  const stack: Frame[] = [{ g: h.root, i: 0, s: empty() }];
  let steps = 0;
  while (stack.length) {
    const top = stack[stack.length - 1];
    if (top.i >= top.g.children.length) {
      stack.pop();
      out.set(top.g.key, top.s);
      const up = stack[stack.length - 1];
      if (up) {
        const s = up.s;
        const c = top.s;
        s.quantize += c.quantize;
        s.dequantize += c.dequantize;
        s.observers += c.observers;
        s.annotated += c.annotated;
        s.fp32 += c.fp32;
        s.islands += c.islands;
        s.lowered += c.lowered;
        s.int8 += c.int8;
        if (c.worst !== null) worse(s, c.worst);
      }
      continue;
    }
    if (++steps % SUMMARY_STEP === 0) yield;
    const it = top.g.children[top.i++];
    if (it.kind === 'group') {
      stack.push({ g: it.group, i: 0, s: empty() });
      continue;
    }
    const s = top.s;
    const n = f.nodes.get(it.id);
    if (!n) continue;
    if (n.role === 'quantize') s.quantize++;
    else if (n.role === 'dequantize') s.dequantize++;
    else if (n.role === 'observer') s.observers++;
    else if (n.role === 'compute' && n.op === 'call_function') {
      if (annotations && f.annotation.get(n.id)?.annotated) s.annotated++;
      else if (quantized) s.fp32++;
    }
    if (islands && islandOps.has(n.id)) s.islands++;
    if (lowered) {
      const ran = int8Of(f.snap, n.id);
      if (ran?.annotated) s.lowered++;
      if (ran?.int8) s.int8++;
    }
    if (values) {
      const v = values[n.id];
      if (typeof v === 'number' && Number.isFinite(v)) worse(s, v);
    }
  }
  return out;
}

/** items summarized between two chances to pause */
const SUMMARY_STEP = 2048;

/** Summaries made ahead in slices (prepareSummary), for the pane that then asks summaryOf. */
const prepared = new WeakMap<Hierarchy, { f: Facts; overlay: unknown; s: Map<string, Summary> }>();

/** Make `h`'s summaries in page tasks of ~sliceMs (`pause` ends one) and keep them for summaryOf. */
export async function prepareSummary(
  h: Hierarchy,
  f: Facts,
  heat: Heat | null,
  pause: () => Promise<void>,
  sliceMs = 25,
): Promise<void> {
  const s = await runStepsInSlices(summarySteps(h, f, heat), pause, sliceMs);
  prepared.set(h, { f, overlay: heat?.overlay ?? null, s });
}

/** summarize(h, f, heat), taken from prepareSummary when it was made for these facts and this overlay. */
export function summaryOf(h: Hierarchy, f: Facts, heat: Heat | null = null): Map<string, Summary> {
  const p = prepared.get(h);
  if (p && p.f === f && p.overlay === (heat?.overlay ?? null)) return p.s;
  return summarize(h, f, heat);
}

function fmt(v: number): string {
  return Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(1);
}

/** Badges for a closed group, most telling first; empty counts are left out. */
export function badgesOf(s: Summary, heat: Heat | null = null, t: Tr = EN): Badge[] {
  const b: Badge[] = [];
  if (s.lowered)
    b.push({
      kind: 'int8',
      text: `int8 ${s.int8}/${s.lowered}`,
      title: t('ui.badge.int8_title', { n: s.int8, m: s.lowered }),
    });
  if (s.annotated)
    b.push({ kind: 'annotated', text: `● ${s.annotated}`, title: t('ui.badge.annotated_title', { n: s.annotated }) });
  if (s.fp32)
    b.push({
      kind: 'fp32',
      text: `fp32 ${s.fp32}`,
      title: t('ui.badge.fp32_title', { n: s.fp32 }),
    });
  if (s.islands)
    b.push({
      kind: 'island',
      text: t('ui.badge.island', { n: s.islands }),
      title: t('ui.badge.island_title', { n: s.islands }),
    });
  if (s.quantize)
    b.push({ kind: 'quantize', text: `q ${s.quantize}`, title: t('ui.badge.q_title', { n: s.quantize }) });
  if (s.dequantize)
    b.push({ kind: 'dequantize', text: `dq ${s.dequantize}`, title: t('ui.badge.dq_title', { n: s.dequantize }) });
  if (s.observers)
    b.push({
      kind: 'observer',
      text: t('ui.badge.obs', { n: s.observers }),
      title: t('ui.badge.obs_title', { n: s.observers }),
    });
  if (s.worst !== null && heat) {
    const o = heat.overlay;
    const unit = o.unit ? ` ${o.unit}` : '';
    b.push({
      kind: 'worst',
      text: `${t(o.higher_is_better ? 'ui.badge.min' : 'ui.badge.max')} ${fmt(s.worst)}${unit}`,
      title: t('ui.badge.worst_title', { name: o.name, value: `${fmt(s.worst)}${unit}` }),
    });
  }
  return b;
}

/** Width of a badge in px at 10 px bold (the layout reserves it before drawing). */
export function badgeWidth(b: Badge): number {
  // a CJK character is about a full em wide, a Latin one about 0.64 em
  const w = [...b.text].reduce((sum, c) => sum + (WIDE.test(c) ? 10.5 : 6.4), 0);
  return Math.ceil(w + 10);
}

export const BADGE_GAP = 4;

/** Width of a row of badges. */
export function badgesWidth(bs: Badge[]): number {
  return bs.reduce((w, b) => w + badgeWidth(b), 0) + Math.max(0, bs.length - 1) * BADGE_GAP;
}

/** A closed group with compute ops and none annotated on a quantized stage: it stayed fp32 entirely. */
export function allFp32(s: Summary): boolean {
  return s.fp32 > 0 && s.annotated === 0 && s.quantize === 0 && s.dequantize === 0;
}
