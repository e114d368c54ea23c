// TypeScript mirror of kernel_pkg/pt2e_lens/schema/view.schema.json (schema_version 1).
// The front end only displays these facts; it never re-derives them.

export type Id = string;
export type Nums = Array<number | null> | null;
export type EdgeOrNode = { edge: [Id, Id] } | { node: Id };

export type Role = 'input' | 'param' | 'compute' | 'observer' | 'quantize' | 'dequantize' | 'output';
export const ROLES: Role[] = ['input', 'param', 'compute', 'observer', 'quantize', 'dequantize', 'output'];

export interface GraphNode {
  id: Id;
  op: string;
  target: string;
  target_full: string;
  role: Role;
  module_path: string;
  module_stack: Array<[string, string]>;
  shape: Array<number | string> | null;
  dtype: string | null;
  source: string | null;
  provenance: string[];
  observer: string | null;
}

export interface Edge {
  src: Id;
  dst: Id;
  arg: number;
}

export interface Spec {
  id: string;
  kind: 'QuantizationSpec' | 'SharedQuantizationSpec' | 'DerivedQuantizationSpec' | 'FixedQParamsQuantizationSpec';
  dtype: string | null;
  qscheme: string | null;
  quant_min: number | null;
  quant_max: number | null;
  ch_axis: number | null;
  is_dynamic: boolean | null;
  observer: string | null;
  shared_with: EdgeOrNode | null;
  derived_from: EdgeOrNode[] | null;
  scale: number | null;
  zero_point: number | null;
}

export interface Annotation {
  node: Id;
  inputs: Array<{ src: Id; spec: string | null }>;
  output: string | null;
  annotated: boolean;
  allow_implicit_sharing: boolean;
  quantizer: string | null;
  /** later sub-quantizers of a ComposableQuantizer that found the node already annotated (optional) */
  skipped_by?: string[];
}

export interface Observer {
  id: string;
  names: string[];
  nodes: Id[];
  class: string;
  dtype: string | null;
  qscheme: string | null;
  quant_min: number | null;
  quant_max: number | null;
  ch_axis: number | null;
  observes: Id | null;
  serves: Array<{ at: EdgeOrNode; spec: string | null; via: 'own' | 'implicit' | 'shared' }>;
  group: number;
  implicit: boolean;
  min: Nums;
  max: Nums;
  scale: Nums;
  zero_point: Nums;
}

export interface QDQ {
  node: Id;
  kind: 'quantize' | 'dequantize';
  op: string;
  granularity: 'per_tensor' | 'per_channel' | 'affine';
  scale: Nums;
  zero_point: Nums;
  axis: number | null;
  dtype: string | null;
  quant_min: number | null;
  quant_max: number | null;
  tensor: Id | null;
  from_observer: string | null;
}

export interface Finding {
  kind: string;
  message: string;
  nodes: Id[];
}

export interface Snapshot {
  format: 'pt2e-lens.snapshot';
  schema_version: number;
  stage: string | null;
  meta: { node_count: number; [k: string]: unknown };
  nodes: GraphNode[];
  edges: Edge[];
  specs: Spec[];
  annotations: Annotation[];
  observers: Observer[];
  qdq: QDQ[];
  findings: Finding[];
}

export interface StageDiff {
  from: number;
  to: number;
  kept: Array<[Id, Id]>;
  removed: Id[];
  added: Id[];
  became: Record<Id, Id[]>;
}

export type Cell = string | number | boolean | null;
export interface Table {
  name: string;
  title: string | null;
  columns: string[];
  rows: Cell[][];
}

/** A per-node measure to colour a pane by (e.g. pl.accuracy's SQNR in dB). */
export interface Overlay {
  name: string;
  unit: string | null;
  higher_is_better: boolean;
  values: Record<Id, number>;
}

export interface Pane {
  label: string;
  snapshot: Snapshot;
  overlay?: Overlay;
}

export interface View {
  format: 'pt2e-lens.view';
  schema_version: number;
  mode: 'graph' | 'compare' | 'run' | 'table';
  title: string | null;
  panes: Pane[];
  diffs: StageDiff[];
  focus: Id[][] | null;
  notes: Array<Record<Id, string>>;
  tables: Table[];
}

export const MIME_TYPE = 'application/vnd.pt2e-lens.v1+json';
export const SCHEMA_VERSION = 1;
