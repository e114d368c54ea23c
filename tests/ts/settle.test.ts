// The ready signal (docs/frontend.md, "Ready signal"): a pane's `data-settled` rises by one, `data-busy` goes and a
// bubbling `pl-settled` event says so only once what a change started is painted — a search's marks on the SVG
// nodes, a closed group drawn, a canvas's crisp draw done — and not before.
import { afterEach, describe, expect, it } from 'vitest';
import type { GraphView } from '../../src/core/graph-view';
import { fixture, mount } from './helpers';

/** The drawing's element of pane `gv` that is on show (SVG or canvas); both carry the signal. */
const drawing = (gv: GraphView): Element => (gv.canvasView?.el ?? gv.el.querySelector('svg[data-nodes]'))!;
const count = (el: Element): number => Number(el.getAttribute('data-settled'));

/** The next `pl-settled` event under `root`, with what was on screen at that moment. */
function nextSettle<T>(root: Element, seen: () => T): Promise<{ settled: number; target: Element; seen: T }> {
  return new Promise((resolve) => {
    root.addEventListener(
      'pl-settled',
      (e) => resolve({ settled: (e as CustomEvent).detail.settled, target: e.target as Element, seen: seen() }),
      { once: true },
    );
  });
}

/** Until pane `gv` has settled at least once and has no work under way. */
async function idle(root: Element, gv: GraphView): Promise<void> {
  const el = drawing(gv);
  if (count(el) >= 1 && !el.hasAttribute('data-busy')) return;
  await nextSettle(root, () => null);
  return idle(root, gv);
}

const realGetContext = HTMLCanvasElement.prototype.getContext;
afterEach(() => {
  HTMLCanvasElement.prototype.getContext = realGetContext;
  delete (globalThis as { Path2D?: unknown }).Path2D;
  document.body.replaceChildren();
});

/** jsdom has no canvas: a 2D context that takes every call and draws nothing, so the canvas painter runs. */
function fakeCanvas(): void {
  const sink = (): unknown =>
    new Proxy({} as Record<string | symbol, unknown>, {
      get: (t, k) => (k in t ? t[k] : () => ({ width: 0 })),
      set: (t, k, v) => {
        t[k] = v;
        return true;
      },
    });
  (globalThis as { Path2D?: unknown }).Path2D = function Path2D() {
    return sink();
  };
  HTMLCanvasElement.prototype.getContext = (() => sink()) as never;
}

describe('a pane settles once a change is painted', () => {
  it('starts at 0, busy, and reaches 1 after its first layout and paint', async () => {
    const { el, handle } = await mount(fixture('conv_prepared.json'));
    const gv = handle.panes[0];
    const svg = drawing(gv);
    await idle(el, gv);
    expect(count(svg)).toBeGreaterThanOrEqual(1);
    expect(svg.hasAttribute('data-busy')).toBe(false);
    expect(svg.querySelectorAll('.pl-node').length).toBeGreaterThan(3);
  });

  it('typing a search: busy at once, settled only with the hits marked', async () => {
    const { el, handle } = await mount(fixture('conv_prepared.json'));
    const gv = handle.panes[0];
    await idle(el, gv);
    const svg = drawing(gv);
    const n = count(svg);
    const settled = nextSettle(el, () => ({
      marked: svg.querySelectorAll('.pl-node.pl-match').length,
      busy: svg.hasAttribute('data-busy'),
      attr: count(svg),
    }));
    const input = gv.el.querySelector<HTMLInputElement>('.pl-toolbar input[type="search"]')!;
    input.value = 'conv';
    input.dispatchEvent(new Event('input'));
    // the search runs after a pause: busy meanwhile, nothing marked, the counter where it was
    expect(svg.hasAttribute('data-busy')).toBe(true);
    expect(svg.querySelectorAll('.pl-match').length).toBe(0);
    expect(count(svg)).toBe(n);
    const got = await settled;
    const hits = gv.nodes.filter((x) => x.id.includes('conv') || x.target.includes('conv')).length;
    expect(hits).toBeGreaterThan(0);
    expect(got.seen.marked).toBeGreaterThan(0);
    expect(got.seen).toMatchObject({ busy: false, attr: n + 1 });
    expect(got.settled).toBe(n + 1);
    // dispatched by the drawing, bubbling up to the host element
    expect(got.target).toBe(svg);
  });

  it('closing a group: settled with the group drawn closed, once for the whole redraw', async () => {
    const { el, handle } = await mount(fixture('conv_prepared.json'));
    const gv = handle.panes[0];
    await idle(el, gv);
    const svg = drawing(gv);
    const key = [...gv.expanded].find((k) => k !== '')!;
    expect(key).toBeTruthy();
    const n = count(svg);
    const events: number[] = [];
    el.addEventListener('pl-settled', (e) => events.push((e as CustomEvent).detail.settled));
    const settled = nextSettle(el, () => svg.querySelector(`.pl-group.pl-collapsed[data-group="${key}"]`) !== null);
    void gv.setOpen(key, false);
    expect(svg.hasAttribute('data-busy')).toBe(true);
    const got = await settled;
    expect(got.seen).toBe(true);
    expect(got.settled).toBe(n + 1);
    expect(events).toEqual([n + 1]);
  });

  it('a canvas pane settles after its crisp draw, not before', async () => {
    fakeCanvas();
    const { el, handle } = await mount(fixture('conv_prepared.json'));
    const gv = handle.panes[0];
    await idle(el, gv);
    gv.canvasThreshold = 0;
    const svg = drawing(gv);
    const n = count(svg);
    const settled = nextSettle(el, () => ({
      draws: gv.canvasView?.draws ?? 0,
      pending: gv.canvasView?.pending,
      canvas: gv.canvasMode,
    }));
    gv.el.querySelectorAll<HTMLButtonElement>('.pl-toolbar button.pl-btn')[1].click(); // Collapse all: a redraw
    const got = await settled;
    expect(got.seen).toEqual({ draws: 1, pending: false, canvas: true });
    const cv = gv.canvasView!.el;
    expect(got.target).toBe(cv);
    // both drawings carry the same count
    expect([count(cv), count(svg)]).toEqual([n + 1, n + 1]);
    expect(cv.hasAttribute('data-busy')).toBe(false);
    // a selection repaints the canvas: settled after that draw
    const again = nextSettle(el, () => gv.canvasView!.draws);
    void gv.select(gv.nodes[0].id);
    expect(cv.hasAttribute('data-busy')).toBe(true);
    expect((await again).seen).toBeGreaterThanOrEqual(2);
  });
});
