// Issue 15 point 7's "fits its width": what of a view's chrome reaches past the host it is drawn in.

/** The toolbar items, finding lines and canvases under `host` (a Locator) whose right edge is past the host's. */
export const overflowing = (host) =>
  host.evaluate((h) => {
    const r = h.getBoundingClientRect();
    return [...h.querySelectorAll('.pl-toolbar > *, .pl-findings summary, .pl-canvas')]
      .filter((e) => e.getBoundingClientRect().width > 0 && e.getBoundingClientRect().right > r.right + 0.5)
      .map((e) => e.className || e.tagName);
  });
