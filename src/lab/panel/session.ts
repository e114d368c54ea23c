// The panel's state for one notebook's kernel session: the comm, the models, what is shown.
// Comm opens happen only on: the session becoming ready, a kernel change, the first idle after a
// restart, the panel's own load, or an executed cell that mentions pt2e_lens — never on every idle.
import type { ISessionContext } from '@jupyterlab/apputils';
import type { KernelMessage } from '@jupyterlab/services';
import { type ISignal, Signal } from '@lumino/signaling';
import { LensConnection } from './connection';
import {
  type DiffResult,
  type ModelRow,
  type Models,
  type ReportResult,
  RequestFailed,
  type StageResult,
} from './protocol';

export type Status = 'no-kernel' | 'connecting' | 'not-loaded' | 'loading' | 'ready' | 'error';

export type Content = { kind: 'stage'; result: StageResult } | { kind: 'diff'; result: DiffResult };

/** The tab that shows what run_decompositions did, when a Run has both stages. */
export const DECOMP_TAB = 'exported → decomposed';

const LOAD_CODE = '%load_ext pt2e_lens';

export class SessionLens {
  status: Status = 'connecting';
  message = '';
  restarted = false;
  models: Models | null = null;
  /** the stage tab the user picked (null: the model's newest stage) */
  tab: string | null = null;
  group = '';
  content: Content | null = null;
  contentError: string | null = null;
  loadingContent = false;

  private conn: LensConnection | null = null;
  private opening = false;
  private openAgain = false;
  private probeAfterRestart = false;
  private mentionedLens = new Set<string>();
  private shown: { name: string; revision: number } | null = null;
  private seq = 0;
  private disposed = false;
  private readonly _changed = new Signal<this, void>(this);

  constructor(readonly context: ISessionContext) {
    context.kernelChanged.connect(this.onKernelChanged, this);
    context.statusChanged.connect(this.onStatus, this);
    context.iopubMessage.connect(this.onIopub, this);
    void context.ready.then(() => this.tryOpen());
  }

  get changed(): ISignal<this, void> {
    return this._changed;
  }

  get current(): ModelRow | null {
    const m = this.models;
    return m?.models.find((r) => r.name === m.current) ?? null;
  }

  /** The stage tabs of the current model (plus the decomposition diff when a Run has it). */
  get tabs(): string[] {
    const cur = this.current;
    if (!cur) return [];
    const stages = cur.stages.slice();
    if (cur.type === 'Run' && stages.includes('exported') && stages.includes('decomposed')) stages.push(DECOMP_TAB);
    return stages;
  }

  // -- kernel lifecycle
  private onKernelChanged(): void {
    this.drop();
    this.restarted = false;
    this.status = 'connecting';
    this.emit();
    void this.context.ready.then(() => this.tryOpen());
  }

  private onStatus(_: unknown, status: string): void {
    if (status === 'restarting' || status === 'autorestarting') {
      this.drop();
      this.restarted = true;
      this.probeAfterRestart = true;
      this.status = 'not-loaded';
      this.message = 'kernel restarted';
      this.emit();
    } else if (status === 'dead') {
      this.drop();
      this.status = 'no-kernel';
      this.message = 'the kernel is dead';
      this.emit();
    } else if (status === 'idle' && this.probeAfterRestart) {
      this.probeAfterRestart = false; // once: a startup script may have loaded pt2e-lens
      void this.tryOpen();
    }
  }

  private onIopub(_: unknown, msg: KernelMessage.IMessage): void {
    const parent = msg.parent_header as Partial<KernelMessage.IHeader>;
    if (msg.header.msg_type === 'execute_input') {
      const code = (msg.content as KernelMessage.IExecuteInputMsg['content']).code ?? '';
      if (code.includes('pt2e_lens') && parent.msg_id) this.mentionedLens.add(parent.msg_id);
      return;
    }
    if (msg.header.msg_type !== 'status' || (msg.content as { execution_state?: string }).execution_state !== 'idle')
      return;
    if (parent.msg_type !== 'execute_request' || !parent.msg_id || !this.mentionedLens.delete(parent.msg_id)) return;
    if (!this.conn && this.status !== 'ready') void this.tryOpen();
  }

  private async tryOpen(): Promise<void> {
    if (this.opening) this.openAgain = true; // a trigger during an attempt: try once more after it
    if (this.opening || this.conn || this.disposed) return;
    const kernel = this.context.session?.kernel;
    if (!kernel) {
      this.status = 'no-kernel';
      this.message = 'no kernel';
      this.emit();
      return;
    }
    this.opening = true;
    if (!this.restarted) {
      this.status = 'connecting';
      this.emit();
    }
    const r = await LensConnection.open(kernel);
    this.opening = false;
    if (this.disposed || kernel !== this.context.session?.kernel) {
      if (r.ok) r.connection.dispose();
      return;
    }
    if (!r.ok) {
      this.status = r.reason === 'not-loaded' ? 'not-loaded' : 'error';
      this.message = this.restarted && r.reason === 'not-loaded' ? 'kernel restarted' : r.message;
      this.emit();
      if (this.openAgain) {
        this.openAgain = false;
        await this.tryOpen();
      }
      return;
    }
    this.openAgain = false;
    this.conn = r.connection;
    this.conn.models.connect((_, m) => this.onModels(m), this);
    this.conn.closed.connect(() => {
      this.drop();
      this.status = 'not-loaded';
      this.message = 'the kernel closed the pt2e-lens comm';
      this.emit();
    }, this);
    this.status = 'ready';
    this.restarted = false;
    this.message = '';
    try {
      this.onModels(await this.conn.request<Models>('subscribe'));
    } catch (e) {
      this.fail(e);
    }
  }

  /** Forget the comm and everything it told us (kernel restart, kernel change, comm closed). */
  private drop(): void {
    this.conn?.dispose();
    this.conn = null;
    this.models = null;
    this.content = null;
    this.contentError = null;
    this.loadingContent = false;
    this.shown = null;
    this.tab = null;
    this.group = '';
    this.mentionedLens.clear();
    this.seq++;
  }

  /** Run `%load_ext pt2e_lens` silently, then connect. */
  async load(): Promise<void> {
    const kernel = this.context.session?.kernel;
    if (!kernel) return;
    this.status = 'loading';
    this.emit();
    try {
      const reply = await kernel.requestExecute({ code: LOAD_CODE, silent: true, store_history: false }).done;
      const c = reply.content as { status: string; ename?: string; evalue?: string };
      if (c.status !== 'ok') {
        this.status = 'error';
        this.message = `%load_ext pt2e_lens failed: ${c.ename ?? 'error'}: ${c.evalue ?? ''}`;
        this.emit();
        return;
      }
    } catch (e) {
      this.fail(e);
      return;
    }
    this.restarted = false;
    await this.tryOpen();
  }

  // -- models and content
  private onModels(m: Models): void {
    this.models = m;
    const cur = this.current;
    const same = cur && this.shown && this.shown.name === cur.name;
    if (!cur) {
      this.shown = null;
      this.content = null;
    } else if (!same || this.shown!.revision !== cur.revision) {
      if (!same) this.tab = null;
      if (this.tab && !this.tabs.includes(this.tab)) this.tab = null;
      this.group = '';
      this.shown = { name: cur.name, revision: cur.revision };
      void this.fetch();
    }
    this.emit();
  }

  async select(name: string | null): Promise<void> {
    if (!this.conn) return;
    try {
      this.onModels(await this.conn.request<Models>('select_model', { name }));
    } catch (e) {
      this.fail(e);
    }
  }

  pickTab(tab: string | null): void {
    this.tab = tab;
    this.group = '';
    void this.fetch();
  }

  openGroup(group: string): void {
    this.group = group;
    void this.fetch();
  }

  private async fetch(): Promise<void> {
    const cur = this.current;
    if (!this.conn || !cur) return;
    const mine = ++this.seq;
    this.loadingContent = true;
    this.contentError = null;
    this.emit();
    try {
      let content: Content;
      if (this.tab === DECOMP_TAB) {
        content = {
          kind: 'diff',
          result: await this.conn.request<DiffResult>('get_diff', {
            name: cur.name,
            from: 'exported',
            to: 'decomposed',
          }),
        };
      } else {
        const fields: Record<string, unknown> = { name: cur.name, group: this.group };
        if (this.tab) fields.stage = this.tab;
        content = { kind: 'stage', result: await this.conn.request<StageResult>('get_stage', fields) };
      }
      if (mine !== this.seq) return; // a newer request superseded this one
      this.content = content;
    } catch (e) {
      if (mine !== this.seq) return;
      this.contentError = e instanceof Error ? e.message : String(e);
    }
    this.loadingContent = false;
    this.emit();
  }

  async report(): Promise<ReportResult | null> {
    if (!this.conn) return null;
    return this.conn.request<ReportResult>('get_report', this.current ? { name: this.current.name } : {});
  }

  private fail(e: unknown): void {
    if (e instanceof RequestFailed && e.code === 'closed') return; // drop() already said why
    this.contentError = e instanceof Error ? e.message : String(e);
    this.emit();
  }

  private emit(): void {
    if (!this.disposed) this._changed.emit();
  }

  dispose(): void {
    if (this.disposed) return;
    this.drop();
    this.disposed = true;
    Signal.disconnectReceiver(this);
    Signal.clearData(this);
  }
}
