// Where a pane's details drawer opens (issue 26.4: "a clicked node's details show where the user is looking, not
// below the fold"): over the part of the canvas on show — the window and every scrolling box around the pane (a
// notebook, the side panel) cut it. A wide pane keeps the drawer a column at the canvas's right, as tall as that part;
// a narrow one (the stylesheet sets --pl-drawer-across) lays it across the canvas, on the node's roomier side.

export interface Span {
  top: number;
  bottom: number;
}

/** The vertical span of `el` (client px) that the window and its clipping ancestors let show, or null when none. */
export function shownSpan(el: Element): Span | null {
  const win = el.ownerDocument.defaultView;
  const r = el.getBoundingClientRect();
  let top = r.top;
  let bottom = r.bottom;
  for (let p = el.parentElement; p && win; p = p.parentElement) {
    const s = win.getComputedStyle(p);
    if (s.overflowY === 'visible' && s.overflowX === 'visible') continue;
    const q = p.getBoundingClientRect();
    // a box of no size (display: contents, a themed wrapper JupyterLab gives no height) clips nothing on show
    if (q.width === 0 || q.height === 0) continue;
    top = Math.max(top, q.top);
    bottom = Math.min(bottom, q.bottom);
  }
  if (win) {
    top = Math.max(top, 0);
    bottom = Math.min(bottom, win.innerHeight);
  }
  return bottom > top ? { top, bottom } : null;
}

/** The drawer lies across the canvas (a narrow pane), not beside it. */
export function drawerAcross(drawer: HTMLElement): boolean {
  const win = drawer.ownerDocument.defaultView;
  return !!win && win.getComputedStyle(drawer).getPropertyValue('--pl-drawer-across').trim() === '1';
}

/** Least room the drawer takes across a canvas, px (a title and two lines of details). */
const MIN_ACROSS = 96;

/** Room kept between the node and the drawer, px. */
const GAP = 8;

/** Place `drawer` (absolute in `stage`, which holds `canvas` at its top) over the shown part of `canvas`; `node`: the
 * selected node's vertical span (client px), which the drawer leaves free across a narrow canvas. */
export function placeDrawer(drawer: HTMLElement, stage: HTMLElement, canvas: HTMLElement, node: Span | null): void {
  const st = stage.getBoundingClientRect();
  const c = canvas.getBoundingClientRect();
  const shown = shownSpan(canvas) ?? { top: c.top, bottom: c.bottom };
  const top = Math.max(0, shown.top - st.top);
  const bottom = Math.max(0, st.bottom - shown.bottom);
  const s = drawer.style;
  if (!drawerAcross(drawer)) {
    s.top = `${top}px`;
    s.bottom = `${bottom}px`;
    s.maxHeight = '';
    drawer.dataset.dock = 'side';
    return;
  }
  // the side of the node with more room: below it (the drawer at the bottom of what shows) or above it
  const below = node ? shown.bottom - node.bottom - GAP : shown.bottom - shown.top;
  const above = node ? node.top - shown.top - GAP : 0;
  const low = below >= above;
  const room = Math.min(low ? below : above, (shown.bottom - shown.top) * 0.6);
  s.maxHeight = `${Math.max(MIN_ACROSS, Math.floor(room))}px`;
  s.top = low ? 'auto' : `${top}px`;
  s.bottom = low ? `${bottom}px` : 'auto';
  drawer.dataset.dock = low ? 'bottom' : 'top';
}
