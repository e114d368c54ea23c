// What a pane's orchestrator (graph-view.ts) asks of a renderer: SvgView (svg-view.ts) for small frames,
// CanvasView (canvas-view.ts) for large ones. Both paint the same Frame (frame.ts), its texts and marks.
import type { Frame, FrameTexts } from './frame';
import type { Mark } from './marks';
import type { Id } from './types';

/** What a renderer reports back: the user's clicks and pointer. */
export interface PaneHost {
  /** a click on a node */
  pick(id: Id): void;
  /** a click on a closed group or an open group's header */
  toggle(key: string): void;
  /** the pointer entered a node (null: left it) */
  hover(id: Id | null): void;
  /** a click on a stub edge: go to its producer */
  goTo(id: Id): void;
}

export interface PaneView {
  /** the drawing's element (inside the pane's graph area) */
  readonly el: Element;
  /** this renderer shows the current scene (the other one is hidden and idle) */
  active: boolean;
  /** Draw (SVG) or index (canvas) a new frame; its boxes' texts from `texts`. */
  setScene(frame: Frame, texts: FrameTexts): Promise<unknown>;
  /** Highlights by box key; `paint` false: keep them for the next paint only. */
  setMarks(marks: Map<string, Set<Mark>>, paint?: boolean): Promise<void>;
  /** Bring the screen up to date once the view has its transform (SVG draws at once: nothing to do). */
  paint(): Promise<void>;
  destroy(): void;
}
