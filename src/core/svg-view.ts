// A pane's drawing in SVG, for scenes small enough that every box can be an element with its own events,
// tooltip and styles (nodes.ts / edges.ts paint the box model); the counterpart of CanvasView.
import { s } from './dom';
import { type EdgeItem, edgeItems, edgeItemsSliced } from './edges';
import type { Placement } from './hier-layout';
import { MARK_ORDER, type Mark } from './marks';
import { drawGroup, drawNode, flipNote } from './nodes';
import { leftFree, noteSide, type Span } from './note-side';
import type { PaneHost, PaneView } from './pane-view';
import type { Scene } from './scene';
import { nextTask, runSteps, Slicer } from './slicer';
import { drawEdgeItems, drawSharedLinks } from './svg-edges';
import { SvgZoomLabels } from './svg-zoom-labels';
import type { Edge } from './types';

let uid = 0;

export class SvgView implements PaneView {
  readonly el: SVGSVGElement;
  /** the group pan-zoom transforms */
  readonly viewport: SVGElement;
  active = true;
  private defs: SVGElement;
  /** box key → its element */
  private els = new Map<string, SVGElement>();
  private markerIds = new Map<string, string>();
  private id = ++uid;
  /** the scene's group titles while zoomed out (semantic zoom) */
  private zoomLabels: SvgZoomLabels | null = null;

  constructor(
    private doc: Document,
    private host: PaneHost,
    label: string,
  ) {
    this.el = s(doc, 'svg', { role: 'img', 'aria-label': label }) as SVGSVGElement;
    this.defs = s(doc, 'defs');
    this.viewport = s(doc, 'g', { class: 'pl-viewport' });
    this.el.append(this.defs, this.viewport);
  }

  /** id of an arrowhead marker of `color` in this drawing's <defs> (the overview picture uses them too) */
  marker(color: string): string {
    let id = this.markerIds.get(color);
    if (id) return id;
    id = `pl-arrow-${this.id}-${this.markerIds.size}`;
    this.markerIds.set(color, id);
    const m = s(this.doc, 'marker', {
      id,
      viewBox: '0 0 10 10',
      refX: 9,
      refY: 5,
      markerWidth: 8,
      markerHeight: 8,
      markerUnits: 'userSpaceOnUse',
      orient: 'auto-start-reverse',
    });
    m.appendChild(s(this.doc, 'path', { d: 'M0,0 L10,5 L0,10 z', style: `fill:${color}` }));
    this.defs.appendChild(m);
    return id;
  }

  /** Remove the drawing (a canvas scene leaves the SVG empty). */
  clear(): void {
    this.viewport.replaceChildren();
    this.els.clear();
    this.zoomLabels = null;
    this.el.classList.remove('pl-zoomed');
  }

  async setScene(sc: Scene, edges: Edge[]): Promise<void> {
    // the walk over every edge, then the new drawing's elements, in page tasks into a detached group (a 400-child
    // section is ~2,000 elements: one task of ~20 ms); the old drawing stays until the new one goes in at once
    const slicer = new Slicer(25);
    const items = await edgeItemsSliced(sc, edges, slicer);
    const next = s(this.doc, 'g');
    const els = new Map<string, SVGElement>();
    const steps = paintSteps(sc, next, edges, this.host, els, items);
    for (let r = steps.next(); !r.done; r = steps.next()) await slicer.pace();
    // the swap in a task of its own: the pane lays the new scene out right after it (settle), not after a slice
    await nextTask();
    this.clear();
    this.viewport.append(...Array.from(next.childNodes));
    this.els = els;
    const layer = s(this.doc, 'g', { class: 'pl-zoom-labels' });
    this.viewport.appendChild(layer);
    this.zoomLabels = new SvgZoomLabels(this.el, layer);
    this.zoomLabels.setScene(sc, -1);
  }

  /** Style and lay out the new scene now, once the view has its transform (the text's layout depends on the
   * scale): in the task that swapped it in, so the next frame only paints (at 20k nodes a 400-child section is
   * ~20 ms of layout and ~11 ms of paint; in one frame that was a ~30 ms task). */
  settle(): void {
    void this.el.getBoundingClientRect();
  }

  /** The view's zoom changed (or a scene was drawn): group titles on plates when zoomed out. */
  zoom(k: number): void {
    this.zoomLabels?.update(k);
  }

  /** The view shows layout x range `v` of placement `P`: each note's callout on the side where it is not cut
   * (note-side.ts). Few nodes have notes: a walk over the drawn ones. */
  placeNotes(P: Placement, v: Span): void {
    const free = leftFree(P);
    if (!free.size) return;
    for (const key of free) {
      const b = P.boxes.get(key);
      const el = this.els.get(key);
      if (b && el) flipNote(el, b, noteSide(b, v, true));
    }
  }

  /** The marks as the stylesheet's pl-<mark> classes. */
  async setMarks(marks: Map<string, Set<Mark>>): Promise<void> {
    for (const [key, el] of this.els) {
      el.classList.remove(...MARK_CLASSES);
      for (const m of marks.get(key) ?? []) el.classList.add(`pl-${m}`);
    }
  }

  async paint(): Promise<void> {}

  destroy(): void {
    this.clear();
  }
}

const MARK_CLASSES = MARK_ORDER.map((m) => `pl-${m}`);

const IDLE: PaneHost = { pick() {}, toggle() {}, hover() {}, goTo() {} };

/** A scene's boxes and edges as SVG into `viewport` (layers: open groups, edges, nodes and closed groups, shared
 * links); `els` gets each box's element by key. Also the static overview picture of a canvas pane (overview.ts),
 * which makes its edge items in slices beforehand (`items`). */
export function paintScene(...args: Parameters<typeof paintSteps>): void {
  runSteps(paintSteps(...args));
}

/** Boxes (or edge items) painted between two points where paintSteps may pause. */
const PAINT_STEP = 64;

/** paintScene as steps: it yields every PAINT_STEP boxes or edge items (the same elements in the same order). */
export function* paintSteps(
  sc: Scene,
  viewport: SVGElement,
  edges: Edge[],
  host: PaneHost = IDLE,
  els = new Map<string, SVGElement>(),
  items?: EdgeItem[],
): Generator<void, void> {
  const [gGroups, gEdges, gNodes, gLinks] = ['pl-groups', 'pl-edges', 'pl-nodes', 'pl-links'].map((c) =>
    s(sc.doc, 'g', { class: c }),
  );
  viewport.append(gGroups, gEdges, gNodes, gLinks);
  let n = 0;
  for (const b of sc.placement.boxes.values()) {
    let el: SVGElement;
    if (b.kind === 'node') {
      el = drawNode(sc, b, (id) => host.pick(id));
      const id = b.id!;
      el.addEventListener('mouseenter', () => host.hover(id));
      el.addEventListener('mouseleave', () => host.hover(null));
    } else el = drawGroup(sc, b, (key) => host.toggle(key));
    els.set(b.key, el);
    // a closed group sits above the edges, like a node; an open one is a frame below them
    (b.kind === 'expanded' ? gGroups : gNodes).appendChild(el);
    if (++n % PAINT_STEP === 0) yield;
  }
  const its = items ?? edgeItems(sc, edges);
  for (let i = 0; i < its.length; i += PAINT_STEP) {
    drawEdgeItems(sc, gEdges, its.slice(i, i + PAINT_STEP), (id) => host.goTo(id));
    yield;
  }
  drawSharedLinks(sc, gLinks);
}
