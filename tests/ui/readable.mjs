// Issue 26 point 4, read off an SVG pane as drawn: the node labels on screen and their size in px (font size times
// the SVG's scale), group titles (own or zoomed-out) that sit over a node, and the blank space under the drawing.

/** In the page: for each graph pane on show under `el` (a view root, or a pane), what its canvas shows. */
export function readable(el) {
  const box = (e) => e.getBoundingClientRect();
  const meets = (a, b) =>
    a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const shown = (e) => getComputedStyle(e).display !== 'none' && getComputedStyle(e).visibility !== 'hidden';
  const out = [];
  for (const pane of el.matches('.pl-pane') ? [el] : el.querySelectorAll('.pl-pane')) {
    const canvas = pane.querySelector('.pl-canvas');
    if (!canvas?.getBoundingClientRect().width) continue; // a tab not on show, a table
    const c = box(canvas);
    const svg = canvas.querySelector('svg');
    const raster = canvas.querySelector('canvas.pl-raster');
    const nodes = [...svg.querySelectorAll('g.pl-node')]
      .map((g) => ({ g, r: box(g.querySelector('rect.pl-box')) }))
      .filter(({ r }) => meets(r, c));
    const sizes = nodes.map(({ g }) => {
      const t = g.querySelector('text.pl-label');
      return t ? Number.parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a : Infinity;
    });
    const titles = [...svg.querySelectorAll('g.pl-group > text.pl-glabel, g.pl-zlabel > rect')]
      .filter(shown)
      .map((e) => ({ text: (e.closest('g.pl-zlabel') ?? e).textContent, r: box(e) }))
      .filter(({ r }) => r.width > 0 && meets(r, c));
    const over = [];
    for (const t of titles) for (const n of nodes) if (meets(t.r, n.r)) over.push(`${t.text} over ${n.g.dataset.id}`);
    const shapes = [...svg.querySelectorAll('rect.pl-box, rect.pl-gbox')].map(box).filter((r) => meets(r, c));
    out.push({
      canvas: !!raster && shown(raster),
      ids: nodes.map(({ g }) => g.dataset.id),
      smallest: Math.min(...sizes),
      over,
      zoomTitles: svg.querySelectorAll('g.pl-zlabel').length,
      height: c.height,
      // blank space under the drawing's lowest box on show
      blank: c.bottom - Math.min(Math.max(...shapes.map((r) => r.bottom)), c.bottom),
    });
  }
  return out;
}
