// One pane's drawing as plain data, made from a scene (scene.ts) by this one pure module: every placed box
// (geometry, what its fill and frame mean), every drawn edge (routed curve, look, a stub's line and label) and the
// SharedQuantizationSpec links. Both painters (svg-view.ts, canvas-view.ts) and the canvas's SVG export paint a
// Frame and nothing else. It holds no DOM, no functions and no hierarchy objects, so it can be structured-cloned
// (issue 28: a later step makes it in the layout worker). A box's texts (its model: fitted label, chips, badges;
// its tooltip) are asked for by key (FrameTexts), not carried: a canvas letters only the boxes in view at a
// readable zoom, a few hundred of a 100k-node graph's 130k boxes.
import { type BoxLook, type BoxModel, boxLook, boxModel, tipOf } from './box-model';
import { type EdgeItem, edgeItemSteps, edgeTitle, type SharedItem, sharedItems } from './edges';
import type { Box } from './hier-layout';
import type { Scene } from './scene';
import type { Slicer } from './slicer';
import type { Edge, Id } from './types';

/** One placed box: a node, a closed group or an open group's frame. */
/** (key, kind, centre and size in layout units: the placed Box's own, as plain data) */
export interface FrameBox extends Pick<Box, 'key' | 'kind' | 'x' | 'y' | 'w' | 'h'> {
  /** a node's id */
  id: Id | undefined;
  /** a group's key in the hierarchy and how many nodes it holds */
  group: { key: string; total: number } | undefined;
  /** a node's note callout (absolute top-left corner), laid out beside it */
  note: Box['note'];
  look: BoxLook;
}

export interface Frame {
  /** the drawing's size, layout units */
  width: number;
  height: number;
  /** every placed box in drawing order (an open group before what it holds) */
  boxes: FrameBox[];
  /** data edges, aggregates and stubs, in drawing order */
  edges: EdgeItem[];
  /** dashed links from each use of a SharedQuantizationSpec to what it is shared with */
  links: SharedItem[];
  /** the pane has an overlay (nodes with a value carry a heat bar) */
  heat: boolean;
}

/** The texts of a frame's boxes and edges, by key: a box's model (what is lettered on it) and its tooltip, an
 * edge's tooltip. */
export interface FrameTexts {
  box(key: string): BoxModel;
  tip(key: string): string;
  edge(it: EdgeItem): string | null;
}

/** boxes copied between two chances to pause */
const STEP_BOXES = 4096;

/** The frame of a scene, pausing (yielding) every few thousand boxes or edges: the page makes it in slices. */
function* frameSteps(sc: Scene, edges: Edge[]): Generator<void, Frame> {
  const P = sc.placement;
  const boxes: FrameBox[] = [];
  let n = 0;
  for (const b of P.boxes.values()) {
    boxes.push({
      key: b.key,
      kind: b.kind,
      x: b.x,
      y: b.y,
      w: b.w,
      h: b.h,
      id: b.id,
      group: b.group ? { key: b.group.key, total: b.group.total } : undefined,
      note: b.note,
      look: boxLook(sc, b),
    });
    if (++n % STEP_BOXES === 0) yield;
  }
  const items: EdgeItem[] = [];
  for (const it of edgeItemSteps(sc, edges)) {
    if (it) items.push(it);
    else yield;
  }
  return { width: P.width, height: P.height, boxes, edges: items, links: sharedItems(sc), heat: sc.heat !== null };
}

/** The frame of a scene in page tasks (`slicer` pauses it: 100k nodes are 130k boxes and 100k edges). */
export async function frameInSlices(sc: Scene, edges: Edge[], slicer: Slicer): Promise<Frame> {
  const steps = frameSteps(sc, edges);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await slicer.pace();
  }
}

/** A scene's texts, each box's model made once (a canvas letters the same boxes again at every zoom). */
export function sceneTexts(sc: Scene): FrameTexts {
  const models = new Map<string, BoxModel>();
  return {
    box(key) {
      let m = models.get(key);
      if (!m) {
        m = boxModel(sc, sc.placement.boxes.get(key)!);
        models.set(key, m);
      }
      return m;
    },
    tip: (key) => tipOf(sc, key),
    edge: (it) => (it.kind === 'stub' ? it.tip : edgeTitle(it, sc.t)),
  };
}
