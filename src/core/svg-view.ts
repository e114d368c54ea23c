// A pane's drawing in SVG, for frames small enough that every box can be an element with its own events,
// tooltip and styles (nodes.ts / svg-edges.ts paint the frame); the counterpart of CanvasView.
import { s } from './dom';
import type { Frame, FrameTexts } from './frame';
import { MARK_ORDER, type Mark } from './marks';
import { drawGroup, drawNode, flipNote, type SvgPaint } from './nodes';
import { leftFree, noteSide, type Span } from './note-side';
import type { PaneHost, PaneView } from './pane-view';
import { nextTask, runSteps, Slicer } from './slicer';
import { drawEdgeItems, drawSharedLinks } from './svg-edges';
import { SvgZoomLabels } from './svg-zoom-labels';

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
  /** the frame's group titles while zoomed out (semantic zoom) */
  private zoomLabels: SvgZoomLabels | null = null;
  /** the frame drawn, by box key (notes are placed from it) */
  private frame: Frame | null = null;

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

  /** How this drawing paints `texts`: its document and its arrowhead markers (the overview picture uses them too). */
  paintOf(texts: FrameTexts): SvgPaint {
    return { doc: this.doc, texts, marker: (c) => this.marker(c) };
  }

  /** id of an arrowhead marker of `color` in this drawing's <defs> */
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
    this.frame = null;
    this.el.classList.remove('pl-zoomed');
  }

  async setScene(frame: Frame, texts: FrameTexts): Promise<void> {
    // the new drawing's elements in page tasks into a detached group (a 400-child section is ~2,000 elements: one
    // task of ~20 ms); the old drawing stays until the new one goes in at once
    const slicer = new Slicer(25);
    const next = s(this.doc, 'g');
    const els = new Map<string, SVGElement>();
    const steps = paintSteps(this.paintOf(texts), frame, next, this.host, els);
    for (let r = steps.next(); !r.done; r = steps.next()) await slicer.pace();
    // the swap in a task of its own: the pane lays the new scene out right after it (settle), not after a slice
    await nextTask();
    this.clear();
    this.viewport.append(...Array.from(next.childNodes));
    this.els = els;
    this.frame = frame;
    const layer = s(this.doc, 'g', { class: 'pl-zoom-labels' });
    this.viewport.appendChild(layer);
    this.zoomLabels = new SvgZoomLabels(this.el, layer);
    this.zoomLabels.setFrame(frame, texts, -1);
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

  /** The view shows layout x range `v` of the frame: each note's callout on the side where it is not cut
   * (note-side.ts). Few nodes have notes: a walk over the drawn ones. */
  placeNotes(v: Span): void {
    const F = this.frame;
    if (!F) return;
    const free = leftFree(F);
    if (!free.size) return;
    for (const b of F.boxes) {
      const el = free.has(b.key) ? this.els.get(b.key) : undefined;
      if (el) flipNote(el, b, noteSide(b, v, true));
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

/** A frame's boxes and edges as SVG into `viewport` (layers: open groups, edges, nodes and closed groups, shared
 * links); `els` gets each box's element by key. Also the static overview picture of a canvas pane (overview.ts). */
export function paintScene(...args: Parameters<typeof paintSteps>): void {
  runSteps(paintSteps(...args));
}

/** Boxes (or edge items) painted between two points where paintSteps may pause. */
const PAINT_STEP = 64;

/** paintScene as steps: it yields every PAINT_STEP boxes or edge items (the same elements in the same order). */
export function* paintSteps(
  p: SvgPaint,
  frame: Frame,
  viewport: SVGElement,
  host: PaneHost = IDLE,
  els = new Map<string, SVGElement>(),
): Generator<void, void> {
  const [gGroups, gEdges, gNodes, gLinks] = ['pl-groups', 'pl-edges', 'pl-nodes', 'pl-links'].map((c) =>
    s(p.doc, 'g', { class: c }),
  );
  viewport.append(gGroups, gEdges, gNodes, gLinks);
  let n = 0;
  for (const b of frame.boxes) {
    let el: SVGElement;
    if (b.kind === 'node') {
      el = drawNode(p, b, (id) => host.pick(id));
      const id = b.id!;
      el.addEventListener('mouseenter', () => host.hover(id));
      el.addEventListener('mouseleave', () => host.hover(null));
    } else el = drawGroup(p, b, (key) => host.toggle(key));
    els.set(b.key, el);
    // a closed group sits above the edges, like a node; an open one is a frame below them
    (b.kind === 'expanded' ? gGroups : gNodes).appendChild(el);
    if (++n % PAINT_STEP === 0) yield;
  }
  const its = frame.edges;
  for (let i = 0; i < its.length; i += PAINT_STEP) {
    drawEdgeItems(p, gEdges, its.slice(i, i + PAINT_STEP), (id) => host.goTo(id));
    yield;
  }
  drawSharedLinks(p, gLinks, frame.links);
}
