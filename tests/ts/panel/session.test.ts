// SessionLens against a fake kernel: when the panel opens comms (never on every idle), restart handling,
// loading, and refetching when the current model changes.
import { describe, expect, it } from 'vitest';
import { flush, models, setup } from './fakes';

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
    await flush();
    await flush();
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
    expect(lens.message).toBe('kernel restarted');
    await lens.load();
    await flush();
    expect(lens.status).toBe('ready');
    expect(lens.restarted).toBe(false);
  });
});
