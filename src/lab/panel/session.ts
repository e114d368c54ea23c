// The panel model for one notebook's kernel session: the comm, the models, the user's pick and what is
// shown. State is private and read through getters; `changed` says when to render again. Views never
// talk to the kernel: they call the methods here.
// Comm opens happen only on: the session becoming ready, a kernel change, the first idle after a
// restart, the panel's own load, or an executed cell that mentions pt2e_lens — never on every idle.
import type { ISessionContext } from '@jupyterlab/apputils';
import type { KernelMessage } from '@jupyterlab/services';
import type { IDisposable } from '@lumino/disposable';
import { type ISignal, Signal } from '@lumino/signaling';
import type { WorkbenchState } from '../../core/workbench-bar';
import { LensConnection, type Say } from './connection';
import { OutlineGroups } from './outline';
import {
  type DiffResult,
  type ModelRow,
  type Models,
  type ReportResult,
  RequestFailed,
  type StageResult,
  type WorkbenchResult,
} from './protocol';

/** A workbench's controls as the panel draws them; `gone`: the kernel restarted or died, the last state stays. */
export interface BenchShown {
  name: string;
  state: WorkbenchState;
  gone: boolean;
}

export type Status = 'no-kernel' | 'connecting' | 'not-loaded' | 'loading' | 'ready' | 'error';

/** What the body shows: a stage's view, the module groups of a stage too large to send, or a diff. */
export type Content =
  | { kind: 'stage'; result: StageResult }
  | { kind: 'groups'; key: string; outline: OutlineGroups; total: number }
  | { kind: 'diff'; result: DiffResult };

/** The tab that shows what run_decompositions did, when a Run has both stages. */
export const DECOMP_TAB = 'exported → decomposed';

const LOAD_CODE = '%load_ext pt2e_lens';
/** A failed request as the panel shows it: the comm closing in the panel's words; a kernel error as the kernel
 * worded it (in the kernel's locale). */
function problemOf(e: unknown): Say {
  if (e instanceof RequestFailed && e.code === 'closed') return (t) => t('ui.panel.comm_closed');
  const text = e instanceof Error ? e.message : String(e);
  return () => text;
}

/** After a cell that mentions pt2e_lens: load the extension if (and only if) that cell imported pt2e_lens. */
export const LOAD_IF_IMPORTED_CODE =
  "__import__('sys').modules.get('pt2e_lens') and get_ipython().run_line_magic('load_ext', 'pt2e_lens')";

export interface SessionLensOptions {
  /** the model the user picked earlier in this notebook (null: follow the kernel's current model) */
  picked?: string | null;
}

export class SessionLens implements IDisposable {
  private _status: Status = 'connecting';
  private _message: Say | null = null;
  private _restarted = false;
  private _models: Models | null = null;
  private _picked: string | null;
  private _tab: string | null = null;
  private _place = '';
  private _outline: OutlineGroups | null = null;
  private _tooBig = new Map<string, number>();
  private _content: Content | null = null;
  private _contentError: Say | null = null;
  private _loadingContent = false;
  private _bench: WorkbenchResult | null = null;
  private _benchGone = false;
  private benchRevision = -1;

  private conn: LensConnection | null = null;
  private opening = false;
  private openAgain = false;
  private probeAfterRestart = false;
  private mentionedLens = new Set<string>();
  private shown: { name: string; revision: number } | null = null;
  private seq = 0;
  private _isDisposed = false;
  private readonly _changed = new Signal<this, void>(this);

  constructor(
    private readonly context: ISessionContext,
    options: SessionLensOptions = {},
  ) {
    this._picked = options.picked ?? null;
    context.kernelChanged.connect(this.onKernelChanged, this);
    context.statusChanged.connect(this.onStatus, this);
    context.iopubMessage.connect(this.onIopub, this);
    void context.ready.then(() => this.tryOpen());
  }

  get changed(): ISignal<this, void> {
    return this._changed;
  }
  get isDisposed(): boolean {
    return this._isDisposed;
  }
  get status(): Status {
    return this._status;
  }
  get message(): Say | null {
    return this._message;
  }
  get restarted(): boolean {
    return this._restarted;
  }
  get models(): Models | null {
    return this._models;
  }
  /** The model the user picked in this notebook (kept while it is absent: it may come back). */
  get picked(): string | null {
    return this._picked;
  }
  /** The stage tab the user picked (null: the model's newest stage). */
  get tab(): string | null {
    return this._tab;
  }
  get content(): Content | null {
    return this._content;
  }
  get contentError(): Say | null {
    return this._contentError;
  }
  get loadingContent(): boolean {
    return this._loadingContent;
  }

  /** The workbench controls to draw: the current model's when it is a pl.workbench, or the last one's after the
   * kernel went (until another model shows). */
  get bench(): BenchShown | null {
    const b = this._bench;
    if (!b) return null;
    const cur = this.current;
    if (!this._benchGone && (cur?.type !== 'Workbench' || cur.name !== b.name)) return null;
    return { name: b.name, state: b.state as unknown as WorkbenchState, gone: this._benchGone };
  }

  /** One of the workbench widget's actions on the kernel's workbench (the widget sees it too). */
  async benchAct(action: string, value?: string): Promise<void> {
    const b = this.bench;
    if (!this.conn || !b || b.gone) return;
    const fields: Record<string, unknown> = { name: b.name, action };
    if (value !== undefined) fields.value = value;
    try {
      this.onBench(await this.conn.request<WorkbenchResult>('workbench', fields));
    } catch (e) {
      this.fail(e);
    }
  }

  private onBench(r: WorkbenchResult): void {
    this._bench = r;
    this._benchGone = false;
    this.emit();
  }

  private async fetchBench(name: string): Promise<void> {
    if (!this.conn) return;
    try {
      this.onBench(await this.conn.request<WorkbenchResult>('workbench', { name }));
    } catch (e) {
      this.fail(e);
    }
  }

  /** The model shown: the user's pick while it exists, else the kernel's current one (the model touched last). */
  get current(): ModelRow | null {
    const m = this._models;
    if (!m) return null;
    return m.models.find((r) => r.name === this._picked) ?? m.models.find((r) => r.name === m.current) ?? null;
  }

  /** True when the user's pick is what is shown (false: following the kernel's current model). */
  get pinned(): boolean {
    return this._picked !== null && this.current?.name === this._picked;
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
    this._bench = null; // another kernel: nothing of the last one's workbench applies
    this._restarted = false;
    this._status = 'connecting';
    this.emit();
    void this.context.ready.then(() => this.tryOpen());
  }

  private onStatus(_: unknown, status: string): void {
    if (status === 'restarting' || status === 'autorestarting') {
      this.drop();
      this._restarted = true;
      this.probeAfterRestart = true;
      this._status = 'not-loaded';
      this._message = (t) => t('ui.panel.kernel_restarted');
      this.emit();
    } else if (status === 'dead') {
      this.drop();
      this._status = 'no-kernel';
      this._message = (t) => t('ui.panel.kernel_dead');
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
    if (!this.conn && this._status !== 'ready') void this.loadIfImported();
  }

  /** A cell mentioned pt2e_lens: if it imported it, load the extension (a silent execute), then connect. */
  private async loadIfImported(): Promise<void> {
    const kernel = this.context.session?.kernel;
    if (!kernel || this._isDisposed) return;
    try {
      await kernel.requestExecute({ code: LOAD_IF_IMPORTED_CODE, silent: true, store_history: false }).done;
    } catch {
      // the kernel went away: the status handlers say so
    }
    await this.tryOpen();
  }

  private async tryOpen(): Promise<void> {
    if (this.opening) this.openAgain = true; // a trigger during an attempt: try once more after it
    if (this.opening || this.conn || this._isDisposed) return;
    const kernel = this.context.session?.kernel;
    if (!kernel) {
      this._status = 'no-kernel';
      this._message = (t) => t('ui.panel.no_kernel');
      this.emit();
      return;
    }
    this.opening = true;
    if (!this._restarted) {
      this._status = 'connecting';
      this.emit();
    }
    const r = await LensConnection.open(kernel);
    this.opening = false;
    if (this._isDisposed || kernel !== this.context.session?.kernel) {
      if (r.ok) r.connection.dispose();
      return;
    }
    if (!r.ok) {
      this._status = r.reason === 'not-loaded' ? 'not-loaded' : 'error';
      this._message = this._restarted && r.reason === 'not-loaded' ? (t) => t('ui.panel.kernel_restarted') : r.message;
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
    this.conn.workbench.connect((_, r) => {
      if (r.name === this.current?.name) this.onBench(r);
    }, this);
    this.conn.closed.connect(() => {
      this.drop();
      this._status = 'not-loaded';
      this._message = (t) => t('ui.panel.comm_closed');
      this.emit();
    }, this);
    this._status = 'ready';
    this._restarted = false;
    this._message = null;
    try {
      this.onModels(await this.conn.request<Models>('subscribe'));
    } catch (e) {
      this.fail(e);
    }
  }

  /** Forget the comm and everything it told us (kernel restart, kernel change, comm closed). The pick stays. */
  private drop(): void {
    this._benchGone = this._bench !== null; // its controls stay drawn, disabled, with one line saying why
    this.conn?.dispose();
    this.conn = null;
    this._models = null;
    this._content = null;
    this._contentError = null;
    this._loadingContent = false;
    this.shown = null;
    this._tab = null;
    this.resetPlace();
    this.mentionedLens.clear();
    this.seq++;
  }

  /** Run `%load_ext pt2e_lens` silently, then connect. */
  async load(): Promise<void> {
    const kernel = this.context.session?.kernel;
    if (!kernel) return;
    this._status = 'loading';
    this.emit();
    try {
      const reply = await kernel.requestExecute({ code: LOAD_CODE, silent: true, store_history: false }).done;
      const c = reply.content as { status: string; ename?: string; evalue?: string };
      if (c.status !== 'ok') {
        this._status = 'error';
        const [error, reason] = [c.ename ?? 'error', c.evalue ?? ''];
        this._message = (t) => t('ui.panel.load_failed', { error, reason });
        this.emit();
        return;
      }
    } catch (e) {
      this.fail(e);
      return;
    }
    this._restarted = false;
    await this.tryOpen();
  }

  // -- models and content
  private onModels(m: Models): void {
    this._models = m;
    const cur = this.current;
    // a new kernel's models: the old bar goes
    if (this._benchGone && m.models.length) [this._bench, this._benchGone] = [null, false];
    // a workbench made again under the same name is another object: its state is asked for at each revision
    if (cur?.type === 'Workbench' && (this._bench?.name !== cur.name || this.benchRevision !== cur.revision)) {
      this.benchRevision = cur.revision;
      void this.fetchBench(cur.name);
    }
    const same = cur && this.shown && this.shown.name === cur.name;
    if (!cur) {
      this.shown = null;
      this._content = null;
    } else if (!same || this.shown!.revision !== cur.revision) {
      if (!same) this._tab = null;
      if (this._tab && !this.tabs.includes(this._tab)) this._tab = null;
      this.resetPlace();
      this.shown = { name: cur.name, revision: cur.revision };
      void this.fetch();
    }
    this.emit();
  }

  /** The user's pick of a model in this notebook (null: follow the kernel's current model). Kept across updates. */
  pick(name: string | null): void {
    this._picked = name;
    if (this._models) this.onModels(this._models);
    else this.emit();
  }

  pickTab(tab: string | null): void {
    // the tab already shown (or on its way) at the whole stage: fetching it again would draw the same view anew
    // under the user (and under a test reading it), so only a change of tab, a sub-group or an error fetches
    const drawn = this._content !== null || this._loadingContent;
    if (tab === this._tab && this._place === '' && drawn && !this._contentError) return;
    this._tab = tab;
    this.resetPlace();
    void this.fetch();
  }

  /** The group one level up from what is shown (null at the whole stage). */
  get parentPlace(): string | null {
    return this._place && this._outline ? this._outline.parent(this._place) : null;
  }

  /** Show one module group of a stage too large to send ('' = the whole stage). */
  openGroup(key: string): void {
    this._place = key;
    const total = this._tooBig.get(key);
    if (this._outline && total !== undefined) {
      this._content = { kind: 'groups', key, outline: this._outline, total };
      this.emit();
      return;
    }
    void this.fetch();
  }

  private resetPlace(): void {
    this._place = '';
    this._outline = null;
    this._tooBig.clear();
  }

  private async fetch(): Promise<void> {
    const cur = this.current;
    if (!this.conn || !cur) return;
    if (!cur.stages.length) {
      this._content = null; // a workbench not yet exported: its controls only
      this.emit();
      return;
    }
    const mine = ++this.seq;
    const place = this._place;
    this._loadingContent = true;
    this._contentError = null;
    this.emit();
    try {
      let content: Content;
      if (this._tab === DECOMP_TAB) {
        content = {
          kind: 'diff',
          result: await this.conn.request<DiffResult>('get_diff', {
            name: cur.name,
            from: 'exported',
            to: 'decomposed',
          }),
        };
      } else {
        const fields: Record<string, unknown> = { name: cur.name };
        if (this._tab) fields.stage = this._tab;
        if (place && this._outline) {
          fields.group = this._outline.title(place);
          fields.nodes = this._outline.ranges(place);
        }
        const result = await this.conn.request<StageResult>('get_stage', fields);
        if (mine !== this.seq) return;
        if (result.outline) this._outline = new OutlineGroups(result.outline);
        if (result.collapsed && this._outline) {
          const total = result.total_nodes ?? 0;
          this._tooBig.set(place, total);
          if (place && !this._outline.rows(place).length)
            throw new Error(
              `${this._outline.title(place)} is too large to send (${result.bytes} bytes) and has no sub-modules`,
            );
          content = { kind: 'groups', key: place, outline: this._outline, total };
        } else content = { kind: 'stage', result };
      }
      if (mine !== this.seq) return; // a newer request superseded this one
      this._content = content;
    } catch (e) {
      if (mine !== this.seq) return;
      this._contentError = problemOf(e);
    }
    this._loadingContent = false;
    this.emit();
  }

  async report(): Promise<ReportResult | null> {
    if (!this.conn) return null;
    return this.conn.request<ReportResult>('get_report', this.current ? { name: this.current.name } : {});
  }

  private fail(e: unknown): void {
    if (e instanceof RequestFailed && e.code === 'closed') return; // drop() already said why
    this._contentError = problemOf(e);
    this.emit();
  }

  private emit(): void {
    if (!this._isDisposed) this._changed.emit();
  }

  /** Close the comm and stop listening to the session (notebook switched or closed, panel disposed). */
  dispose(): void {
    if (this._isDisposed) return;
    this.drop();
    this._isDisposed = true;
    Signal.clearData(this);
  }
}
