// The Frame (frame.ts): one pane's drawing as plain data, made by one pure module from the laid-out scene. It
// survives a structured clone unchanged (what a worker posts) and holds no hierarchy objects; both painters draw
// its items as they are: a stub's line, label and tooltip are written once, in the edge model, and a hostile
// producer's name stays text on the SVG and on the canvas.
import { deserialize, serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { drawEdgeItems, type Paint } from '../../src/core/canvas-draw';
import { detailAt } from '../../src/core/canvas-index';
import type { StubEdge } from '../../src/core/edges';
import type { Frame, FrameTexts } from '../../src/core/frame';
// @ts-expect-error plain JS fixture generator
import { synthView } from './fixtures/synth.mjs';
import { fixture, mount } from './helpers';

const HOSTILE = '<img src=x onerror=alert(1)>\u202eWWWW';

/** synthView's shared `mask` input (drawn as stubs) renamed to a hostile string. */
function hostileStubs(): unknown {
  return JSON.parse(JSON.stringify(synthView(200, { mask: true })).replaceAll('"mask"', JSON.stringify(HOSTILE)));
}

/** The frame a pane's renderer drew, and its texts. */
function drawn(gv: any): { frame: Frame; texts: FrameTexts } {
  const v = gv.canvasMode ? gv.r.cv : gv.r.svg;
  return { frame: v.frame, texts: v.texts ?? null };
}

describe('a frame is plain data', () => {
  it('a structured clone of it is the same frame; groups are keys and totals, not hierarchy objects', async () => {
    const docs = [fixture('hostile.json'), fixture('real_lowered.json'), fixture('conv_prepared.json'), hostileStubs()];
    for (const doc of docs) {
      const { handle } = await mount(doc, { worker: false });
      const gv = handle.panes.find((p) => p)! as any;
      const el = gv.el as HTMLElement;
      const { frame } = drawn(gv);
      expect(gv.canvasMode).toBe(false);
      expect(deserialize(serialize(frame))).toEqual(frame);
      expect(frame.boxes.length).toBe(gv.placement.boxes.size);
      for (const b of frame.boxes) if (b.group) expect(Object.keys(b.group).sort()).toEqual(['key', 'total']);
      // the SVG painter drew each edge item once: paths for data edges and aggregates, a group per stub
      const stubs = frame.edges.filter((it) => it.kind === 'stub').length;
      expect(el.querySelectorAll('.pl-edges > path.pl-edge').length).toBe(frame.edges.length - stubs);
      expect(el.querySelectorAll('.pl-edges > .pl-stub').length).toBe(stubs);
      handle.destroy();
    }
  });

  it('a canvas frame too (3,000 nodes, every group open)', async () => {
    const { handle } = await mount(synthView(3000), { worker: false });
    const gv = handle.panes[0] as any;
    gv.expanded = new Set(gv.hier.groups.keys());
    await gv.redraw();
    expect(gv.canvasMode).toBe(true);
    const { frame, texts } = drawn(gv);
    expect(deserialize(serialize(frame))).toEqual(frame);
    expect(frame.boxes.length).toBe(gv.placement.boxes.size);
    // the canvas's tooltip is the box's, from the frame's texts
    const node = frame.boxes.find((b) => b.kind === 'node')!;
    expect(texts.tip(node.key).split('\n')[0]).toContain(node.id);
    handle.destroy();
  });
});

/** A 2D context recording the paths it strokes and the texts it writes. */
function recorder(): { ctx: CanvasRenderingContext2D; lines: number[][]; texts: Array<[string, number, number]> } {
  const lines: number[][] = [];
  const texts: Array<[string, number, number]> = [];
  class Rec {
    moveTo(x: number, y: number) {
      lines.push([x, y]);
    }
    lineTo(x: number, y: number) {
      lines[lines.length - 1].push(x, y);
    }
    bezierCurveTo() {}
    quadraticCurveTo() {}
    closePath() {}
  }
  const ctx: any = {
    fill() {},
    stroke() {},
    setLineDash() {},
    fillText: (t: string, x: number, y: number) => texts.push([t, x, y]),
    newPath: () => new Rec(),
  };
  return { ctx, lines, texts };
}

describe('a stub is drawn from its model by both painters', () => {
  it('the same line, label and tooltip on SVG and canvas; a hostile producer stays text', async () => {
    const { el, handle } = await mount(hostileStubs(), { worker: false });
    const gv = handle.panes[0] as any;
    const { frame } = drawn(gv);
    const stubs = frame.edges.filter((it): it is StubEdge => it.kind === 'stub');
    expect(stubs.length).toBeGreaterThan(2);
    const els = [...el.querySelectorAll('.pl-stub')];
    expect(els.length).toBe(stubs.length);
    stubs.forEach((it, i) => {
      const g = els[i];
      expect(it.label).toBe(`${HOSTILE.slice(0, 23)}…`);
      expect(g.getAttribute('data-src')).toBe(HOSTILE);
      expect(g.querySelector('path')!.getAttribute('d')).toBe(
        `M${it.line[0]},${it.line[1]} L${it.line[2]},${it.line[3]}`,
      );
      const t = g.querySelector('text')!;
      expect([t.textContent, Number(t.getAttribute('x')), Number(t.getAttribute('y'))]).toEqual([
        it.label,
        ...it.labelAt,
      ]);
      expect(g.querySelector('title')!.textContent).toBe(it.tip);
      expect(it.tip).toContain(HOSTILE);
    });
    expect(el.querySelectorAll('img, [onerror]').length).toBe(0);
    // the canvas painter: each stub's line and its label where the model says, the label as it is
    const rec = recorder();
    const P: Paint = {
      col: (c) => c,
      font: 'sans-serif',
      lod: detailAt(1),
      frame,
      texts: {} as FrameTexts,
      marks: new Map(),
      path: () => rec.ctx.newPath() as unknown as Path2D,
    };
    drawEdgeItems(rec.ctx, P, stubs);
    expect(rec.lines.filter((l) => l.length === 4)).toEqual(stubs.map((it) => it.line));
    expect(rec.texts).toEqual(stubs.map((it) => [it.label, ...it.labelAt]));
    handle.destroy();
  });
});
