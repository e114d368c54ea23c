// Lookup tables over one Snapshot's precomputed facts (no PT2E logic: only indexing the JSON).

import type { Tr } from './i18n';
import { runStepsInSlices } from './slicer';
import { specColor } from './styles';
import type { Annotation, EdgeOrNode, Finding, GraphNode, Id, Observer, QDQ, Snapshot, Spec } from './types';

/** nodes between two chances to pause (Facts.fill) */
const STEP = 4096;

export class Facts {
  readonly nodes = new Map<Id, GraphNode>();
  readonly specs = new Map<string, Spec>();
  readonly specIndex = new Map<string, number>();
  readonly annotation = new Map<Id, Annotation>();
  readonly observer = new Map<string, Observer>();
  /** observer instances watching a node's output (observers[].observes) */
  readonly observedBy = new Map<Id, Observer[]>();
  readonly qdq = new Map<Id, QDQ>();
  /** q/dq nodes belonging to a float tensor (qdq[].tensor) */
  readonly qdqOfTensor = new Map<Id, QDQ[]>();
  readonly findings = new Map<Id, Finding[]>();

  /** `later`: the tables are filled by whoever drives fill() (prepareFacts, in slices), not here */
  constructor(
    readonly snap: Snapshot,
    later = false,
  ) {
    if (!later) for (const _ of this.fill());
  }

  /** Fill the tables, pausing (yielding) every STEP nodes: 100k nodes are ~50 ms of id hashing. */
  *fill(): Generator<void, void> {
    const snap = this.snap;
    let n = 0;
    for (const nd of snap.nodes) {
      this.nodes.set(nd.id, nd);
      if (++n % STEP === 0) yield;
    }
    snap.specs.forEach((s, i) => {
      this.specs.set(s.id, s);
      this.specIndex.set(s.id, i);
    });
    for (const a of snap.annotations) {
      this.annotation.set(a.node, a);
      if (++n % STEP === 0) yield;
    }
    for (const o of snap.observers) {
      this.observer.set(o.id, o);
      if (o.observes) push(this.observedBy, o.observes, o);
      if (++n % STEP === 0) yield;
    }
    for (const q of snap.qdq) {
      this.qdq.set(q.node, q);
      if (q.tensor) push(this.qdqOfTensor, q.tensor, q);
      if (++n % STEP === 0) yield;
    }
    for (const f of snap.findings) {
      for (const id of f.nodes) push(this.findings, id, f);
      if (++n % STEP === 0) yield;
    }
  }

  /** Spec id the annotation of `dst` gives its input edge from `src`, or null. */
  inputSpec(src: Id, dst: Id): string | null {
    const a = this.annotation.get(dst);
    if (!a) return null;
    for (const i of a.inputs) if (i.src === src) return i.spec;
    return null;
  }

  /** Spec to colour the graph edge a→b with: the consumer's annotation for that input, or — when an
   * observer node sits on the edge — what that observer instance serves (observers[].serves). */
  edgeSpec(a: Id, b: Id): string | null {
    const direct = this.inputSpec(a, b);
    if (direct) return direct;
    const oa = this.observerOf(a);
    if (oa) {
      const hit =
        oa.serves.find((sv) => 'edge' in sv.at && sv.at.edge[1] === b) ?? oa.serves.find((sv) => 'node' in sv.at);
      if (hit?.spec) return hit.spec;
    }
    const ob = this.observerOf(b);
    if (ob) {
      const hit = ob.serves.find((sv) => ('edge' in sv.at ? sv.at.edge[0] === a : sv.at.node === a));
      if (hit?.spec) return hit.spec;
    }
    return null;
  }

  specColor(id: string): string {
    return specColor(this.specIndex.get(id) ?? 0);
  }

  /** Observer instance a graph node calls (nodes[].observer). */
  observerOf(id: Id): Observer | null {
    const n = this.nodes.get(id);
    return n?.observer ? (this.observer.get(n.observer) ?? null) : null;
  }
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const l = m.get(k);
  if (l) l.push(v);
  else m.set(k, [v]);
}

/** Where a spec applies, in the UI's language: `edge a → b` / `node a`. */
export function edgeOrNodeText(x: EdgeOrNode | null, t: Tr): string {
  if (!x) return '—';
  return 'edge' in x
    ? t('ui.spec.at_edge', { src: x.edge[0], dst: x.edge[1] })
    : t('ui.spec.at_node', { node: x.node });
}

const made = new WeakMap<Snapshot, Facts>();

/** The Facts of a snapshot, made once (read-only, so panes and render()'s preparation share them): render()
 * makes those of a big pane in a page task of their own before the pane is built. */
export function factsOf(snap: Snapshot): Facts {
  let f = made.get(snap);
  if (!f) {
    f = new Facts(snap);
    made.set(snap, f);
  }
  return f;
}

/** factsOf(snap) made in page tasks of ~sliceMs (`pause` ends one), for render() to prepare a big pane. */
export async function prepareFacts(snap: Snapshot, pause: () => Promise<void>, sliceMs = 25): Promise<Facts> {
  const hit = made.get(snap);
  if (hit) return hit;
  const f = new Facts(snap, true);
  await runStepsInSlices(f.fill(), pause, sliceMs);
  // another caller may have made them meanwhile: one Facts per snapshot
  const again = made.get(snap);
  if (again) return again;
  made.set(snap, f);
  return f;
}
