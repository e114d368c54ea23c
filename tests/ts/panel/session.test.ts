// SessionLens against a fake kernel: when the panel opens comms (never on every idle), restart handling,
// loading, refetching when the current model changes, the user's pick, signals and dispose.
import { describe, expect, it } from 'vitest';
import { EN, translator } from '../../../src/core/i18n';
import { LOAD_IF_IMPORTED_CODE } from '../../../src/lab/panel/session';
import { flush, models, settle, setup } from './fakes';

describe('SessionLens', () => {
  it('says "not loaded" and does not re-open the comm on idle statuses', async () => {
    const { kernel, ctx, lens } = setup();
    await flush();
    await flush();
    expect(lens.status).toBe('not-loaded');
    expect(kernel.opens).toBe(1);
    for (let i = 0; i < 20; i++) ctx.idle(i % 2 ? 'comm_open' : 'kernel_info_request');
    ctx.executed('x = 1', 'e1');
    await flush();
    expect(kernel.opens).toBe(1);
  });

  it('connects after a cell that imports pt2e_lens (a silent check loads it), not after one that only names it', async () => {
    const { kernel, ctx, lens } = setup();
    await settle();
    ctx.executed('# pt2e_lens is not imported here', 'e0');
    await settle();
    expect(kernel.executed).toEqual([LOAD_IF_IMPORTED_CODE]);
    expect(lens.status).toBe('not-loaded');
    expect(kernel.opens).toBe(2); // one probe after that cell, no more
    for (let i = 0; i < 10; i++) ctx.idle('execute_request', 'other');
    await settle();
    expect(kernel.opens).toBe(2);
    kernel.imported = true;
    ctx.executed('import pt2e_lens as pl', 'e1');
    await settle();
    expect(lens.status).toBe('ready');
    expect(kernel.loaded).toBe(true);
    expect(kernel.executed).toEqual([LOAD_IF_IMPORTED_CODE, LOAD_IF_IMPORTED_CODE]);
  });

  it('connects after a cell that loads pt2e_lens, and after the load button', async () => {
    const a = setup();
    await flush();
    await flush();
    expect(a.lens.status).toBe('not-loaded');
    a.kernel.loaded = true;
    a.ctx.executed('%load_ext pt2e_lens', 'e2');
    await flush();
    await flush();
    expect(a.kernel.opens).toBe(2);
    expect(a.lens.status).toBe('ready');
    const b = setup();
    await flush();
    await b.lens.load();
    for (let i = 0; i < 3; i++) await flush();
    expect(b.lens.status).toBe('ready');
    expect(b.lens.current?.name).toBe('run');
    expect(b.kernel.requests.map((r) => r.type)).toEqual(['subscribe', 'get_stage']);
  });

  it('refetches when the current model changes, not otherwise', async () => {
    const { kernel, lens } = setup(true);
    await flush();
    await flush();
    const comm = kernel.comms[0];
    comm.event(models(1));
    await flush();
    expect(kernel.requests.filter((r) => r.type === 'get_stage')).toHaveLength(1);
    comm.event(models(7));
    await flush();
    expect(kernel.requests.filter((r) => r.type === 'get_stage')).toHaveLength(2);
    expect(lens.content?.kind).toBe('stage');
  });

  it('a load during an open attempt is not lost: one more attempt after it', async () => {
    const { kernel, ctx, lens } = setup();
    await Promise.resolve(); // the first attempt is in flight, the kernel not loaded yet
    ctx.executed('import pt2e_lens; pt2e_lens.load_ipython_extension(get_ipython())', 'e3');
    await flush();
    kernel.loaded = true;
    await settle();
    expect(kernel.opens).toBe(2);
    expect(lens.status).toBe('ready');
  });

  it('on restart: drops state, says so, probes once, never loops', async () => {
    const { kernel, ctx, lens } = setup(true);
    await flush();
    await flush();
    expect(lens.status).toBe('ready');
    kernel.loaded = false; // a restarted kernel has forgotten the extension
    ctx.statusChanged.emit('restarting');
    expect(lens.status).toBe('not-loaded');
    expect(lens.restarted).toBe(true);
    expect(lens.models).toBeNull();
    expect(kernel.comms[0].isDisposed).toBe(true);
    for (let i = 0; i < 10; i++) ctx.idle('kernel_info_request');
    await flush();
    await flush();
    expect(kernel.opens).toBe(2);
    expect(lens.status).toBe('not-loaded');
    expect(lens.message?.(EN)).toBe('kernel restarted'); // worded when drawn, in the panel's language
    expect(lens.message?.(translator('zh-TW'))).toBe('kernel 已重新啟動');
    await lens.load();
    await flush();
    expect(lens.status).toBe('ready');
    expect(lens.restarted).toBe(false);
  });

  it('shows the pick while it exists, follows the kernel otherwise, and keeps the pick across updates', async () => {
    const { kernel, lens } = setup(true, { subscribe: models(1, 'run', ['ep']) });
    await settle();
    expect(lens.current?.name).toBe('run');
    lens.pick('ep');
    await settle();
    expect(lens.current?.name).toBe('ep');
    expect(lens.pinned).toBe(true);
    expect(kernel.requests.filter((r) => r.type === 'get_stage').map((r) => r.name)).toEqual(['run', 'ep']);
    const comm = kernel.comms[0];
    comm.event(models(2, 'run2', ['run', 'ep'])); // a newer Run appears: the pick stays
    await settle();
    expect(lens.current?.name).toBe('ep');
    comm.event(models(3, 'run2')); // ep deleted: follow the kernel, remember ep
    await settle();
    expect(lens.current?.name).toBe('run2');
    expect(lens.pinned).toBe(false);
    expect(lens.picked).toBe('ep');
    comm.event(models(4, 'run2', ['ep'])); // ep is back (the cell ran again)
    await settle();
    expect(lens.current?.name).toBe('ep');
    lens.pick(null);
    expect(lens.current?.name).toBe('run2');
    expect(kernel.requests.some((r) => r.type === 'select_model')).toBe(false); // per notebook, not kernel-wide
  });

  it('signals each change, and after dispose closes its comm and hears nothing', async () => {
    const { kernel, ctx, lens } = setup(true);
    const seen: string[] = [];
    lens.changed.connect((l) => seen.push(l.status));
    await settle();
    expect(seen).toContain('connecting');
    expect(seen[seen.length - 1]).toBe('ready');
    const comm = kernel.comms[0];
    lens.dispose();
    expect(lens.isDisposed).toBe(true);
    expect(comm.closed && comm.isDisposed).toBe(true);
    const before = seen.length;
    ctx.statusChanged.emit('restarting');
    ctx.executed('import pt2e_lens', 'e9');
    comm.event(models(5));
    await settle();
    expect(seen.length).toBe(before);
    expect(kernel.opens).toBe(1);
    lens.dispose(); // twice is fine
  });
});
