// The SVG scene built in page tasks (SvgView.setScene: paintSteps into a detached group, swapped in at once) is the
// scene paintScene builds in one go; the canvas's boxes batched per stroke colour and width without a key string
// are stroked as one "colour|width" map would: one path per pair, in the order first met, each box in it in order.
import { afterEach, describe, expect, it } from 'vitest';
import { drawFrames, drawSolids, type Paint } from '../../src/core/canvas-draw';
import { detailAt } from '../../src/core/canvas-index';
import { s } from '../../src/core/dom';
import type { Frame, FrameTexts } from '../../src/core/frame';
import { paintScene, paintSteps, SvgView } from '../../src/core/svg-view';
import { synthView } from './fixtures/synth.mjs';
import { fixture, mount } from './helpers';

/** Every frame SvgView.setScene is given, with its texts (the test paints the same again in one go). */
function captureScenes(): { scenes: Array<[Frame, FrameTexts]>; undo: () => void } {
  const scenes: Array<[Frame, FrameTexts]> = [];
  const orig = SvgView.prototype.setScene;
  SvgView.prototype.setScene = function (this: SvgView, frame: Frame, texts: FrameTexts) {
    scenes.push([frame, texts]);
    return orig.call(this, frame, texts);
  };
  return { scenes, undo: () => (SvgView.prototype.setScene = orig) };
}

/** As bench/biggest-group.mjs: the groups above the one with the most children open, then that one opened. */
async function openBiggest(gv: any): Promise<void> {
  let big: any = null;
  for (const g of gv.hier.groups.values()) if (g.parent && (!big || g.children.length > big.children.length)) big = g;
  for (let g = big.parent; g?.parent; g = g.parent) gv.expanded.add(g.key);
  gv.expanded.delete(big.key);
  await gv.redraw();
  await gv.toggle(big.key);
}

let undo = (): void => {};
afterEach(() => {
  undo();
  document.body.replaceChildren();
});

/** The scene's layers as markup (the zoom-label layer is SvgView's own, not paintScene's). */
const layers = (vp: Element): string =>
  [...vp.children]
    .filter((c) => !c.classList.contains('pl-zoom-labels'))
    .map((c) => c.outerHTML)
    .join('\n');

describe('an SVG scene built in slices', () => {
  it('is the scene paintScene builds in one task: same elements, attributes, texts and order', async () => {
    for (const doc of [
      fixture('real_large.json'),
      fixture('real_lowered.json'),
      fixture('hostile.json'),
      synthView(6000),
    ]) {
      const cap = captureScenes();
      undo = cap.undo;
      const { handle } = await mount(doc);
      const gv = handle.panes.find((p) => p)!;
      // the biggest section open: hundreds of boxes and edges, so the build pauses between steps
      await openBiggest(gv);
      expect(gv.canvasMode).toBe(false);
      const [frame, texts] = cap.scenes[cap.scenes.length - 1];
      const svg = (gv as any).r.svg as SvgView;
      const vp = svg.viewport;
      const one = s(document, 'g');
      paintScene(svg.paintOf(texts), frame, one);
      expect(vp.querySelectorAll('.pl-node, .pl-group').length).toBe(frame.boxes.length);
      expect(frame.boxes.length).toBe(gv.placement!.boxes.size);
      expect(layers(vp)).toBe(layers(one));
      // the steps pause (every 64 boxes or edge items) and end with the same drawing
      const stepped = s(document, 'g');
      let pauses = 0;
      for (const _ of paintSteps(svg.paintOf(texts), frame, stepped)) pauses++;
      expect(pauses).toBeGreaterThanOrEqual(Math.floor(frame.boxes.length / 64));
      expect(layers(stepped)).toBe(layers(one));
      cap.undo();
    }
  });

  it('keeps each box element clickable and found by key (selection marks reach the new scene)', async () => {
    const { handle } = await mount(synthView(6000));
    const gv = handle.panes.find((p) => p)!;
    await openBiggest(gv);
    const node = [...gv.placement!.boxes.values()].find((b) => b.kind === 'node')!;
    await gv.select(node.id!);
    const el = (gv as any).r.svg.viewport.querySelector(`.pl-node[data-id="${node.id}"]`) as SVGElement;
    expect(el.classList.contains('pl-selected')).toBe(true);
  });
});

describe('a new SVG scene is laid out in the task that swapped it in', () => {
  it('reads its layout once the scene is in and the view has its final transform (the frame only paints)', async () => {
    const { handle } = await mount(synthView(6000));
    const gv = handle.panes.find((p) => p)!;
    const svg = (gv as any).r.svg;
    const seen: Array<{ nodes: number; transform: string | null }> = [];
    const read = svg.el.getBoundingClientRect.bind(svg.el);
    svg.el.getBoundingClientRect = () => {
      seen.push({
        nodes: svg.viewport.querySelectorAll('.pl-node, .pl-group').length,
        transform: svg.viewport.getAttribute('transform'),
      });
      return read();
    };
    await openBiggest(gv);
    const nodes = gv.placement!.boxes.size;
    expect(nodes).toBeGreaterThan(300);
    expect(seen).toContainEqual({ nodes, transform: svg.viewport.getAttribute('transform') });
  });
});

type Op = [string, string, number, number[][]];

class RecPath {
  rects: number[][] = [];
  rect(x: number, y: number, w: number, h: number) {
    this.rects.push([x, y, w, h]);
  }
  roundRect(x: number, y: number, w: number, h: number, r = 0) {
    this.rects.push([x, y, w, h, r]);
  }
}

/** A 2D context that records each fill and stroke of a path (colour, width, the rectangles in it). */
function recorder(): { ctx: CanvasRenderingContext2D; ops: Op[] } {
  const ops: Op[] = [];
  const ctx: any = {
    fillStyle: '',
    strokeStyle: '',
    lineWidth: 1,
    fill(p: RecPath) {
      ops.push(['fill', ctx.fillStyle, 0, p.rects]);
    },
    stroke(p: RecPath) {
      ops.push(['stroke', ctx.strokeStyle, ctx.lineWidth, p.rects]);
    },
    fillText() {},
    setLineDash() {},
    save() {},
    restore() {},
  };
  return { ctx, ops };
}

describe('canvas boxes batched per stroke colour and width', () => {
  it('stroke one path per pair, in first-met order, as a "colour|width" map would', async () => {
    const { handle } = await mount(synthView(2000));
    const gv = handle.panes.find((p) => p)!;
    gv.expanded = new Set(gv.hier!.groups.keys());
    await gv.redraw();
    expect(gv.canvasMode).toBe(true);
    const cv = (gv as any).r.cv;
    const frame = cv.frame as Frame;
    const boxes = frame.boxes;
    // several stroke widths and colours in one batch, interleaved (the order a string-keyed map keeps)
    const looks = new Map(boxes.map((b) => [b, b.look]));
    const widths = new Set([...looks.values()].map((l) => `${l.stroke.color}|${l.stroke.width}`));
    expect(widths.size).toBeGreaterThan(1);
    for (const [kind, draw] of [
      ['expanded', drawFrames],
      ['solid', drawSolids],
    ] as const) {
      const part = boxes.filter((b) => (kind === 'expanded') === (b.kind === 'expanded'));
      const P: Paint = {
        col: (c) => c,
        font: 'sans-serif',
        lod: { ...detailAt(1), labels: false },
        frame,
        texts: cv.texts as FrameTexts,
        marks: new Map(),
        zoomed: false,
        path: () => new RecPath() as unknown as Path2D,
      };
      const { ctx, ops } = recorder();
      draw(ctx, P, part);
      // the straightforward batching: a map keyed by the joined string
      const want = new Map<string, number[][]>();
      for (const b of part) {
        const l = looks.get(b)!;
        const k = `${l.stroke.color}|${l.stroke.width}`;
        if (!want.has(k)) want.set(k, []);
        want.get(k)!.push([b.x - b.w / 2, b.y - b.h / 2, b.w, b.h, l.radius]);
      }
      const got = ops.filter((o) => o[0] === 'stroke').slice(0, want.size);
      expect(got.map((o) => `${o[1]}|${o[2]}`)).toEqual([...want.keys()]);
      expect(got.map((o) => o[3])).toEqual([...want.values()]);
    }
  });
});
