// The pt2e-lens comm protocol (docs/protocol.md), as the panel sees it. Only types: no behaviour.
import type { Role, View } from '../../core/types';

export const TARGET = 'pt2e-lens';
export const PROTOCOL = 1;

export interface ModelRow {
  name: string;
  type: 'Run' | 'ExportedProgram' | 'GraphModule';
  node_count: number;
  stages: string[];
  stage: string;
  /** changes whenever the kernel sees this model created, replaced or changed */
  revision: number;
}

export interface Models {
  current: string | null;
  pinned: string | null;
  models: ModelRow[];
}

/** A stage over the reply cap, in the compact form the panel groups (docs/protocol.md, get_stage). */
export interface Outline {
  /** distinct module stacks, each a list of [path, class] */
  stacks: Array<Array<[string, string]>>;
  /** [id, role, index into stacks], in graph order: a node's position is its index here */
  nodes: Array<[string, Role, number]>;
  /** [src position, dst position] */
  edges: Array<[number, number]>;
  /** positions of annotated nodes */
  annotated: number[];
}

export interface StageResult {
  name: string;
  stage: string;
  group: string;
  bytes: number;
  collapsed: boolean;
  total_nodes?: number;
  /** with a collapsed reply to a request for the whole stage */
  outline?: Outline;
  view: View | null;
}

export interface DiffResult {
  name: string;
  from: string;
  to: string;
  view: View;
}

export interface ReportResult {
  name: string;
  filename: string;
  html: string;
}

export interface Hello {
  protocol: number;
  pt2e_lens: string;
  schema_version: number;
  requests: string[];
  max_bytes: number;
}

export interface ErrorInfo {
  code: string;
  message: string;
}

export type Incoming =
  | { protocol: number; type: 'reply'; id: string | number | null; request: string | null; ok: true; result: unknown }
  | { protocol: number; type: 'reply'; id: string | number | null; request: string | null; ok: false; error: ErrorInfo }
  | { protocol: number; type: 'event'; event: 'hello'; result: Hello }
  | { protocol: number; type: 'event'; event: 'models'; result: Models };

/** A request failed: the kernel's error code and its one-line message. */
export class RequestFailed extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
