// A fake kernel, comm and session context that speak just enough of the pt2e-lens protocol.
import { Signal } from '@lumino/signaling';
import { LOAD_IF_IMPORTED_CODE, SessionLens } from '../../../src/lab/panel/session';

export const flush = () => new Promise((r) => setTimeout(r, 0));

const row = (name: string, revision: number, type = 'Run') => ({
  name,
  type,
  node_count: 47,
  stages: type === 'Run' ? ['exported', 'prepared'] : ['exported'],
  stage: type === 'Run' ? 'prepared' : 'exported',
  revision,
});

export const models = (revision: number, name = 'run', others: string[] = []) => ({
  current: name,
  pinned: null,
  models: [row(name, revision), ...others.map((o) => row(o, revision, 'ExportedProgram'))],
});

export class FakeKernel {
  /** results of requests by type (default: the models list) */
  replies: Record<string, unknown> = {};
  loaded = false;
  /** pt2e_lens is in sys.modules (a cell imported it) */
  imported = false;
  opens = 0;
  executed: string[] = [];
  requests: Array<Record<string, unknown>> = [];
  comms: FakeComm[] = [];
  status = 'idle';
  createComm() {
    const c = new FakeComm(this);
    this.comms.push(c);
    return c;
  }
  requestExecute(content: { code: string; silent: boolean }) {
    this.executed.push(content.code);
    if (content.code === '%load_ext pt2e_lens' && content.silent) this.loaded = true;
    if (content.code === LOAD_IF_IMPORTED_CODE && content.silent && this.imported) this.loaded = true;
    return { done: Promise.resolve({ content: { status: 'ok' } }) };
  }
}

class FakeComm {
  onMsg: (m: unknown) => void = () => undefined;
  onClose: (m: unknown) => void = () => undefined;
  isDisposed = false;
  constructor(private k: FakeKernel) {}
  open() {
    this.k.opens++;
    setTimeout(
      () =>
        this.k.loaded
          ? this.onMsg({ content: { data: { protocol: 1, type: 'event', event: 'hello', result: { protocol: 1 } } } })
          : this.onClose({}),
      0,
    );
  }
  send(data: Record<string, unknown>) {
    this.k.requests.push(data);
    const result =
      this.k.replies[data.type as string] ??
      (data.type === 'get_stage'
        ? { name: 'run', stage: 'prepared', group: '', collapsed: false, view: null }
        : models(1));
    setTimeout(
      () => this.onMsg({ content: { data: { protocol: 1, type: 'reply', id: data.id, ok: true, result } } }),
      0,
    );
  }
  event(result: unknown) {
    this.onMsg({ content: { data: { protocol: 1, type: 'event', event: 'models', result } } });
  }
  closed = false;
  close() {
    this.closed = true;
  }
  dispose() {
    this.isDisposed = true;
  }
}

export class FakeContext {
  kernelChanged = new Signal<this, unknown>(this);
  statusChanged = new Signal<this, string>(this);
  iopubMessage = new Signal<this, unknown>(this);
  ready = Promise.resolve();
  session: { kernel: FakeKernel };
  constructor(
    kernel: FakeKernel,
    readonly path = 'a.ipynb',
  ) {
    this.session = { kernel };
  }
  idle(parentType: string, parentId = 'p') {
    this.statusChanged.emit('idle');
    this.iopubMessage.emit({
      header: { msg_type: 'status' },
      parent_header: { msg_type: parentType, msg_id: parentId },
      content: { execution_state: 'idle' },
    });
  }
  executed(code: string, id: string) {
    this.iopubMessage.emit({
      header: { msg_type: 'execute_input' },
      parent_header: { msg_type: 'execute_request', msg_id: id },
      content: { code },
    });
    this.idle('execute_request', id);
  }
}

/** A notebook panel as the LensModel sees it. */
export class FakeNotebook {
  disposed = new Signal<this, void>(this);
  sessionContext: FakeContext;
  constructor(
    readonly kernel: FakeKernel,
    path: string,
  ) {
    this.sessionContext = new FakeContext(kernel, path);
  }
}

export class FakeTracker {
  currentChanged = new Signal<this, unknown>(this);
  currentWidget: FakeNotebook | null = null;
  activate(nb: FakeNotebook | null) {
    this.currentWidget = nb;
    this.currentChanged.emit(nb);
  }
}

export const settle = async (n = 4) => {
  for (let i = 0; i < n; i++) await flush();
};

export function setup(loaded = false, replies: Record<string, unknown> = {}) {
  const kernel = new FakeKernel();
  kernel.loaded = loaded;
  kernel.replies = replies;
  const ctx = new FakeContext(kernel);
  const lens = new SessionLens(ctx as never);
  return { kernel, ctx, lens };
}
