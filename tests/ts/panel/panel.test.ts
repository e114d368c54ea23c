// The panel renders kernel text with textContent only: hostile model, module and class names stay text.
import { describe, expect, it } from 'vitest';
import { LensModel } from '../../../src/lab/panel/model';
import { FakeKernel, FakeNotebook, FakeTracker, flush } from './fakes';

// @lumino/dragdrop (under @lumino/widgets) needs DragEvent, which jsdom lacks
(globalThis as Record<string, unknown>).DragEvent ??= class DragEvent extends MouseEvent {};
const { LensPanel } = await import('../../../src/lab/panel/panel');

const EVIL = '<img src=x onerror="window.__pwned=1">';

describe('LensPanel', () => {
  it('shows hostile names as text in the picker, tabs and group list', async () => {
    const kernel = new FakeKernel();
    kernel.loaded = true;
    kernel.replies = {
      subscribe: {
        current: EVIL,
        pinned: null,
        models: [{ name: EVIL, type: 'GraphModule', node_count: 3, stages: [EVIL], stage: EVIL, revision: 1 }],
      },
      get_stage: {
        name: EVIL,
        stage: EVIL,
        group: '',
        bytes: 1,
        collapsed: true,
        total_nodes: 3,
        outline: {
          stacks: [[[EVIL, EVIL]]],
          nodes: [
            [`${EVIL}a`, 'compute', 0],
            [`${EVIL}b`, 'observer', 0],
            [`${EVIL}c`, 'compute', 0],
          ],
          edges: [
            [0, 1],
            [1, 2],
          ],
          annotated: [0],
        },
        view: null,
      },
    };
    const tracker = new FakeTracker();
    tracker.activate(new FakeNotebook(kernel, 'a.ipynb'));
    const panel = new LensPanel(new LensModel(tracker as never));
    document.body.appendChild(panel.node);
    for (let i = 0; i < 6; i++) await flush();
    const node = panel.node;
    expect(node.querySelectorAll('img').length).toBe(0);
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
    expect([...node.querySelectorAll('option')].map((o) => o.textContent)).toContain(
      `${EVIL} · GraphModule · 3 nodes · ${EVIL}`,
    );
    expect(node.querySelector('.pl-panel-stages .pl-tab')!.textContent).toBe(EVIL);
    expect(node.querySelector('.pl-groups button[data-group]')!.textContent).toBe(
      `${EVIL} (${EVIL}) — 3 nodes, 1 annotated, 1 observer nodes`,
    );
    panel.dispose();
  });

  it('says so when no notebook is open', () => {
    const panel = new LensPanel(new LensModel(new FakeTracker() as never));
    expect(panel.node.textContent).toContain('open a notebook');
    panel.dispose();
  });
});
