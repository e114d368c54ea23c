// A compare's panes sit side by side while each gets at least MIN_PANE_WIDTH, else one above the other at full
// width (class pl-narrow): at 260 px two panes were ~103 px each, too narrow for any graph to read. The row is
// watched, so widening the output (or the side panel) puts them side by side again; each canvas then re-fits
// through its own ResizeObserver (pan-zoom.ts).

/** The narrowest pane worth drawing beside another: about the side panel's default width (280 px less its
 * padding), so two panes stack below 560 px and three below 844 px. */
export const MIN_PANE_WIDTH = 276;
/** `.pl-panes` column-gap (styles.ts) */
export const PANE_GAP = 8;

/** Whether `n` panes in a row `width` px wide stack: side by side each would get less than MIN_PANE_WIDTH. */
export function stacksAt(width: number, n: number): boolean {
  return n > 1 && width > 0 && width < n * MIN_PANE_WIDTH + (n - 1) * PANE_GAP;
}

/** Keep `row`'s pl-narrow class in step with its width; returns the disconnect. `changed` runs after a switch. */
export function stackWhenNarrow(row: HTMLElement, n: number, changed: () => void = () => undefined): () => void {
  const update = (width: number): void => {
    if (width <= 0) return; // hidden (another tab on show): keep the last arrangement
    const narrow = stacksAt(width, n);
    if (narrow === row.classList.contains('pl-narrow')) return;
    row.classList.toggle('pl-narrow', narrow);
    changed();
  };
  update(row.getBoundingClientRect().width);
  if (typeof ResizeObserver === 'undefined') return () => undefined;
  const ro = new ResizeObserver((entries) => {
    for (const e of entries) update(e.contentRect.width);
  });
  ro.observe(row);
  return () => ro.disconnect();
}
