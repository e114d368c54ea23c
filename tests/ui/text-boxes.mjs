// Every drawn text lies inside its box (labelfit brief), read off what the browser drew: an SVG pane's texts and
// chips by getBoundingClientRect, a canvas pane's fillText calls by the width the canvas measures for them, and
// the canvas's Export "SVG" rendered back into the page. A text belongs to the smallest frame around its anchor
// point (where the painter put it: the centre of a centred label, the start of a title), so a text running past
// its box is caught however far it runs.

/** Selector pairs: [texts or chips, the frames they must lie in, whether the top and bottom count too]. */
const LIVE = [
  ['g.pl-node > text, g.pl-group > text', 'rect.pl-box, rect.pl-gbox', true],
  [
    'g.pl-badge > text, g.pl-outcome > text, g.pl-gchip > text, g.pl-gbadge > text',
    'g.pl-badge > rect, g.pl-outcome > rect, g.pl-gchip > rect, g.pl-gbadge > rect',
    true,
  ],
  // chips sit across a box's edge: only their sides count
  ['g.pl-badge > rect, g.pl-outcome > rect, g.pl-gchip > rect, g.pl-gbadge > rect', 'rect.pl-box, rect.pl-gbox', false],
  ['g.pl-zlabel > text', 'g.pl-zlabel > rect', true],
];
/** the same in an Export "SVG" of a canvas pane (canvas-svg.ts: flat elements classed by what they paint) */
const EXPORTED = [
  ['text.pl-label, text.pl-sub, text.pl-title', 'rect.pl-box, .pl-box > rect, rect.pl-frame, .pl-frame > rect', true],
  ['text.pl-chip, text.pl-gchip, text.pl-badge', 'rect.pl-chip, rect.pl-gchip, rect.pl-badge', true],
  ['text.pl-zoom-label', 'rect.pl-zoom-label, .pl-zoom-label > rect', true],
];

/** In the page: texts of `el` that are not inside their frame, for selector pairs `pairs`. */
function outsideInPage(el, pairs) {
  const TOL = 0.75;
  const out = [];
  let checked = 0;
  const shown = (e) => {
    const cs = getComputedStyle(e);
    return cs.visibility !== 'hidden' && cs.display !== 'none' && e.getBoundingClientRect().width > 0;
  };
  const anchor = (e) => {
    if (e.tagName !== 'text') {
      const r = e.getBoundingClientRect();
      return [(r.left + r.right) / 2, (r.top + r.bottom) / 2];
    }
    const svg = e.ownerSVGElement;
    const p = svg.createSVGPoint();
    p.x = Number(e.getAttribute('x') ?? 0);
    p.y = Number(e.getAttribute('y') ?? 0);
    const q = p.matrixTransform(e.getScreenCTM());
    return [q.x, q.y];
  };
  for (const [items, frames, vertical] of pairs) {
    const fs = [...el.querySelectorAll(frames)].filter(shown).map((f) => f.getBoundingClientRect());
    for (const e of el.querySelectorAll(items)) {
      if (!shown(e) || (e.tagName === 'text' && !e.textContent.trim())) continue;
      checked++;
      const r = e.getBoundingClientRect();
      const [ax, ay] = anchor(e);
      const slack = vertical ? 0 : 10;
      const f = fs
        .filter((b) => b.left <= ax && ax <= b.right && b.top - slack <= ay && ay <= b.bottom + slack)
        .sort((a, b) => a.width * a.height - b.width * b.height)[0];
      const what = `"${(e.textContent || e.parentNode.textContent).slice(0, 48)}"`;
      if (!f) out.push(`${what}: no frame around its anchor`);
      else if (
        r.left < f.left - TOL ||
        r.right > f.right + TOL ||
        (vertical && (r.top < f.top - TOL || r.bottom > f.bottom + TOL))
      )
        out.push(
          `${what} ${r.left.toFixed(1)}…${r.right.toFixed(1)} × ${r.top.toFixed(1)}…${r.bottom.toFixed(1)} ` +
            `outside ${f.left.toFixed(1)}…${f.right.toFixed(1)} × ${f.top.toFixed(1)}…${f.bottom.toFixed(1)}`,
        );
    }
  }
  return { checked, out };
}

/** Puts the check into the page, and from now on records every fillText on a 2D canvas of the page with the
 * width the canvas measures for it (window.__texts). */
export function installTextChecks(page) {
  return page.evaluate(
    ([fn, live, exported]) => {
      window.__outside = new Function(`return (${fn})`)();
      window.__pairs = { live, exported };
      window.__texts = [];
      const proto = CanvasRenderingContext2D.prototype;
      const fill = proto.fillText;
      proto.fillText = function (text, x, y, ...rest) {
        window.__texts.push({ text, x, y, align: this.textAlign, w: this.measureText(text).width });
        return fill.call(this, text, x, y, ...rest);
      };
    },
    [outsideInPage.toString(), LIVE, EXPORTED],
  );
}

/** The live SVG of pane 0 (installTextChecks first). */
export const svgTextsOutside = (page) =>
  page.evaluate(() => window.__outside(window.__h.panes[0].el.querySelector('.pl-canvas svg'), window.__pairs.live));

/** Pane 0's canvas view exported as SVG, put into the page at its size and read like a live one. */
export function exportTextsOutside(page) {
  return page.evaluate(() => {
    const doc = new DOMParser().parseFromString(window.__h.panes[0].canvasView.svgOfView(), 'image/svg+xml');
    const box = document.createElement('div');
    box.style.cssText = 'position:absolute;left:0;top:0;z-index:9';
    box.appendChild(document.importNode(doc.documentElement, true));
    document.body.appendChild(box);
    const r = window.__outside(box, window.__pairs.exported);
    box.remove();
    return r;
  });
}

/** The recorded fillText calls of pane 0's last crisp draw against its layout boxes (the painter draws in
 * layout units): each text's measured extent inside the smallest box around its anchor, chips' sides included. */
export function canvasTextsOutside(page) {
  return page.evaluate(() => {
    const boxes = [...window.__h.panes[0].placement.boxes.values()];
    const out = [];
    for (const t of window.__texts) {
      const [l, r] = t.align === 'center' ? [t.x - t.w / 2, t.x + t.w / 2] : [t.x, t.x + t.w];
      const f = boxes
        .filter((b) => Math.abs(t.x - b.x) <= b.w / 2 && Math.abs(t.y - b.y) <= b.h / 2 + 10)
        .sort((a, b) => a.w * a.h - b.w * b.h)[0];
      if (!f) out.push(`"${t.text}" at ${t.x},${t.y}: no box`);
      else if (l < f.x - f.w / 2 - 0.5 || r > f.x + f.w / 2 + 0.5)
        out.push(`"${t.text}" ${l.toFixed(1)}…${r.toFixed(1)} outside ${f.key} ${f.x - f.w / 2}…${f.x + f.w / 2}`);
    }
    return { checked: window.__texts.length, out };
  });
}
