// A fake kernel, comm and session context that speak just enough of the pt2e-lens protocol.
import { Signal } from '@lumino/signaling';
import { SessionLens } from '../../../src/lab/panel/session';

export const flush = () => new Promise((r) => setTimeout(r, 0));

export const models = (revision: number, name = 'run') => ({
  current: name,
  pinned: null,
  models: [{ name, type: 'Run', node_count: 47, stages: ['exported', 'prepared'], stage: 'prepared', revision }],
});

export class FakeKernel {
  /** results of requests by type (default: the models list) */
  replies: Record<string, unknown> = {};
  loaded = false;
  opens = 0;
  requests: Array<Record<string, unknown>> = [];
  comms: FakeComm[] = [];
  status = 'idle';
  createComm() {
    const c = new FakeComm(this);
    this.comms.push(c);
    return c;
  }
  requestExecute(content: { code: string; silent: boolean }) {
    if (content.code === '%load_ext pt2e_lens' && content.silent) this.loaded = true;
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
  close() {}
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
  constructor(kernel: FakeKernel) {
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

export function setup(loaded = false, replies: Record<string, unknown> = {}) {
  const kernel = new FakeKernel();
  kernel.loaded = loaded;
  kernel.replies = replies;
  const ctx = new FakeContext(kernel);
  const lens = new SessionLens(ctx as never);
  return { kernel, ctx, lens };
}
