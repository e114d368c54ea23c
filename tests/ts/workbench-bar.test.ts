import { describe, expect, it } from 'vitest';
import { drawBar, type WorkbenchState } from '../../src/core/workbench-bar';

const HOSTILE = '<img src=x onerror=alert(1)>';

function state(over: Partial<WorkbenchState> = {}): WorkbenchState {
  const steps = ['export', 'prepare', 'calibrate', 'convert', 'lower'].map((name, i) => ({
    name,
    label: name,
    done: i < 2,
    running: false,
  }));
  return {
    steps,
    next: 'calibrate',
    running: null,
    error: null,
    status: 'done: export, prepare',
    progress: null,
    presets: [{ name: 'xnnpack', label: 'XNNPACK' }],
    preset: 'xnnpack',
    picks: [HOSTILE],
    picks_text: `fp32 picks: ${HOSTILE}`,
    sqnr: null,
    comparison: { title: HOSTILE, columns: ['measure', 'previous', 'current'], rows: [[HOSTILE, 1, null]] },
    offered: null,
    can_recipe: false,
    code: `run = pl.Run(model)  # ${HOSTILE}`,
    texts: {
      run_all: 'run all',
      cancel: 'cancel',
      rerun: 'rerun',
      keep_fp32: 'keep fp32',
      quantize: 'q',
      quantizer: 'q',
    },
    ...over,
  };
}

describe('workbench controls', () => {
  it('place every kernel text as text: a node named like markup makes no element', () => {
    const bar = document.createElement('div');
    drawBar(
      bar,
      state({ error: HOSTILE }),
      () => undefined,
      () => null,
    );
    expect(bar.textContent).toContain(HOSTILE);
    expect(bar.querySelectorAll('img, [onerror]').length).toBe(0);
    expect(bar.querySelector('.pl-wb-error')!.textContent).toBe(HOSTILE);
  });

  it('enable only the next step, send its action, and carry the ready signal', () => {
    const bar = document.createElement('div');
    const sent: string[] = [];
    drawBar(
      bar,
      state(),
      (a) => sent.push(a),
      () => null,
    );
    const steps = [...bar.querySelectorAll<HTMLButtonElement>('.pl-wb-step')];
    expect(steps.map((b) => b.disabled)).toEqual([true, true, false, true, true]);
    steps[2].click();
    bar.querySelector<HTMLButtonElement>('.pl-wb-run-all')!.click();
    expect(sent).toEqual(['advance', 'run_all']);
    expect(bar.dataset.done).toBe('export,prepare');
    expect(bar.querySelector<HTMLButtonElement>('.pl-wb-cancel')!.disabled).toBe(true);
  });

  it('while a step runs: a progress bar, cancel on, every other button off', () => {
    const bar = document.createElement('div');
    const sent: string[] = [];
    drawBar(
      bar,
      state({ running: 'calibrate', progress: [3, 8] }),
      (a) => sent.push(a),
      () => null,
    );
    const progress = bar.querySelector('progress')!;
    expect([progress.getAttribute('value'), progress.getAttribute('max')]).toEqual(['3', '8']);
    const enabled = [...bar.querySelectorAll<HTMLButtonElement>('button')].filter((b) => !b.disabled);
    expect(enabled.map((b) => b.className)).toEqual(['pl-btn pl-wb-cancel']);
    enabled[0].click();
    expect(sent).toEqual(['cancel']);
    expect(bar.dataset.busy).toBe('true');
  });

  it('keep fp32 sends the selected node, and nothing without a selection', () => {
    const bar = document.createElement('div');
    const sent: Array<[string, Record<string, string> | undefined]> = [];
    let selected: string | null = null;
    drawBar(
      bar,
      state(),
      (a, extra) => sent.push([a, extra]),
      () => selected,
    );
    const keep = bar.querySelector<HTMLButtonElement>('.pl-wb-keep')!;
    keep.click();
    selected = 'conv2d_1';
    keep.click();
    expect(sent).toEqual([['keep_fp32', { id: 'conv2d_1' }]]);
  });

  it("offer a recipe's sites as picks: one accepted by its button, all by accept all", () => {
    const bar = document.createElement('div');
    const sent: Array<[string, Record<string, string> | undefined]> = [];
    const offered = { title: HOSTILE, sites: [{ id: 'o3', text: `o3 · ${HOSTILE}` }] };
    drawBar(
      bar,
      state({ offered, can_recipe: true, picks: [] }),
      (a, extra) => sent.push([a, extra]),
      () => null,
    );
    bar.querySelector<HTMLButtonElement>('.pl-wb-recipe-go')!.click();
    bar.querySelector<HTMLButtonElement>('.pl-wb-site')!.click();
    bar.querySelector<HTMLButtonElement>('.pl-wb-accept-all')!.click();
    expect(sent).toEqual([
      ['recipe', { target: '30' }],
      ['accept', { id: 'o3' }],
      ['accept', undefined],
    ]);
    expect(bar.querySelector('.pl-wb-offered')!.textContent).toBe(HOSTILE);
    expect(bar.querySelectorAll('img').length).toBe(0);
  });
});

describe('workbench controls after the kernel went', () => {
  it('say so in one line, take no click, and keep the last state drawn', () => {
    const bar = document.createElement('div');
    const sent: string[] = [];
    const gone = 'The kernel restarted or stopped.';
    const s = state({ error: 'an older error', texts: { ...state().texts, kernel_gone: gone } });
    drawBar(
      bar,
      s,
      (a) => sent.push(a),
      () => 'conv2d',
      {},
      true,
    );
    expect(bar.querySelector('.pl-wb-gone')!.textContent).toBe(gone);
    expect(bar.querySelectorAll('[role="alert"]').length).toBe(1); // the one line, not the older error too
    const live = Array.from(bar.querySelectorAll('button, select, input')).filter(
      (e) => e.tagName !== 'INPUT' && !(e as HTMLButtonElement).disabled,
    );
    expect(live).toEqual([]);
    for (const b of Array.from(bar.querySelectorAll('button'))) b.click();
    expect(sent).toEqual([]);
    expect(bar.dataset.gone).toBe('true');
    expect(bar.dataset.done).toBe('export,prepare');
    expect(bar.querySelector('.pl-wb-status')!.textContent).toBe(s.status);
  });
});
