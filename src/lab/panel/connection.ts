// One open `pt2e-lens` comm on one kernel: requests with ids and promises, events as a signal.
// It never re-opens itself: the session model decides when to open a new one.
import type { Kernel, KernelMessage } from '@jupyterlab/services';
import type { IDisposable } from '@lumino/disposable';
import { type ISignal, Signal } from '@lumino/signaling';
import type { Tr } from '../../core/i18n';
import {
  type Hello,
  type Incoming,
  type Models,
  PROTOCOL,
  RequestFailed,
  TARGET,
  type WorkbenchResult,
} from './protocol';

const OPEN_TIMEOUT_MS = 15000;

type Pending = { resolve: (r: unknown) => void; reject: (e: Error) => void };

/** A status line in the panel's language: its words come from the catalogue when the panel draws it. */
export type Say = (t: Tr) => string;

export type OpenResult =
  | { ok: true; connection: LensConnection }
  | { ok: false; reason: 'not-loaded' | 'timeout' | 'error'; message: Say };

export class LensConnection implements IDisposable {
  private pending = new Map<string, Pending>();
  private nextId = 1;
  private closedByKernel = false;
  private _isDisposed = false;
  private readonly _models = new Signal<this, Models>(this);
  private readonly _closed = new Signal<this, void>(this);
  private readonly _workbench = new Signal<this, WorkbenchResult>(this);

  private constructor(
    private comm: Kernel.IComm,
    readonly hello: Hello,
  ) {}

  /** Models events (after cells that change models); emitted only while subscribed. */
  get models(): ISignal<this, Models> {
    return this._models;
  }

  /** A workbench's state changed (a step, a batch, a pick: from its widget or a panel); while subscribed. */
  get workbench(): ISignal<this, WorkbenchResult> {
    return this._workbench;
  }

  /** The kernel closed this comm (kernel shut down, extension unloaded). */
  get closed(): ISignal<this, void> {
    return this._closed;
  }

  get isDisposed(): boolean {
    return this._isDisposed;
  }

  get isOpen(): boolean {
    return !this.comm.isDisposed && !this.closedByKernel;
  }

  /** Open a comm; resolves with the connection once the kernel's hello event arrives. */
  static open(kernel: Kernel.IKernelConnection): Promise<OpenResult> {
    return new Promise((resolve) => {
      let comm: Kernel.IComm;
      let conn: LensConnection | null = null;
      let settled = false;
      const settle = (r: OpenResult): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(r);
      };
      const timer = setTimeout(() => {
        settle({ ok: false, reason: 'timeout', message: (t) => t('ui.panel.comm_timeout') });
        if (!comm.isDisposed) comm.dispose();
      }, OPEN_TIMEOUT_MS);
      try {
        comm = kernel.createComm(TARGET);
      } catch (e) {
        settle({ ok: false, reason: 'error', message: () => String(e) });
        return;
      }
      comm.onMsg = (msg: KernelMessage.ICommMsgMsg) => {
        const data = msg.content.data as unknown as Incoming;
        if (conn) conn.receive(data);
        else if (data && data.type === 'event' && data.event === 'hello') {
          if (data.result.protocol !== PROTOCOL) {
            settle({
              ok: false,
              reason: 'error',
              message: (t) => t('ui.panel.protocol_mismatch', { kernel: data.result.protocol, panel: PROTOCOL }),
            });
            comm.close();
            return;
          }
          conn = new LensConnection(comm, data.result);
          settle({ ok: true, connection: conn });
        }
      };
      comm.onClose = () => {
        if (conn) conn.onKernelClose();
        else settle({ ok: false, reason: 'not-loaded', message: (t) => t('ui.panel.not_loaded') });
      };
      try {
        comm.open({});
      } catch (e) {
        settle({ ok: false, reason: 'error', message: () => String(e) });
      }
    });
  }

  request<T>(type: string, fields: Record<string, unknown> = {}): Promise<T> {
    if (!this.isOpen) return Promise.reject(new RequestFailed('closed', 'the pt2e-lens comm is closed'));
    const id = `r${this.nextId++}`;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (r: unknown) => void, reject });
      this.comm.send({ ...fields, type, id } as never);
    });
  }

  private receive(data: Incoming): void {
    if (!data || typeof data !== 'object') return;
    if (data.type === 'event') {
      if (data.event === 'models') this._models.emit(data.result);
      else if (data.event === 'workbench') this._workbench.emit(data.result);
      return;
    }
    if (data.type !== 'reply' || typeof data.id !== 'string') return;
    const p = this.pending.get(data.id);
    if (!p) return;
    this.pending.delete(data.id);
    if (data.ok) p.resolve(data.result);
    else p.reject(new RequestFailed(data.error.code, data.error.message));
  }

  private onKernelClose(): void {
    this.closedByKernel = true;
    this.failPending('the kernel closed the pt2e-lens comm');
    this._closed.emit();
  }

  private failPending(message: string): void {
    for (const p of this.pending.values()) p.reject(new RequestFailed('closed', message));
    this.pending.clear();
  }

  /** Drop this connection (notebook closed, kernel restarting): close the comm if it is still there. */
  dispose(): void {
    if (this._isDisposed) return;
    this._isDisposed = true;
    this.failPending('the pt2e-lens comm was closed');
    if (!this.comm.isDisposed) {
      try {
        if (!this.closedByKernel) this.comm.close();
      } catch {
        // the kernel is already gone
      }
      this.comm.dispose();
    }
    Signal.clearData(this);
  }
}
