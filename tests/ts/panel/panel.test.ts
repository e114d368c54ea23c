// The panel renders kernel text with textContent only: hostile model, module and class names stay text.
import { Signal } from '@lumino/signaling';
import { describe, expect, it } from 'vitest';
import { FakeContext, FakeKernel, flush } from './fakes';

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
        parent: null,
        bytes: 1,
        collapsed: true,
        total_nodes: 3,
        groups: [{ group: EVIL, class: EVIL, node_count: 3, annotations: 1, observers: 0, qdq: 0 }],
        view: null,
      },
    };
    const nb = { sessionContext: new FakeContext(kernel), disposed: new Signal({}) };
    const tracker = { currentWidget: nb, currentChanged: new Signal({}) };
    const panel = new LensPanel(tracker as never);
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
      `${EVIL} (${EVIL}) — 3 nodes, 1 annotated`,
    );
    panel.dispose();
  });

  it('says so when no notebook is open', () => {
    const tracker = { currentWidget: null, currentChanged: new Signal({}) };
    const panel = new LensPanel(tracker as never);
    expect(panel.node.textContent).toContain('open a notebook');
    panel.dispose();
  });
});
