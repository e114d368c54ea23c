// Export "SVG" of a canvas-drawn (large) scene: the boxes and edges in the current view, painted from the same
// box model the canvas paints (box-model.ts), as SVG markup with resolved colours and escaped texts. No per-node
// SVG exists for such a scene, so this is the only vector form of what the user sees.
import { boxLook, boxModel, edgeLook, LABEL_Y, SUB_Y } from './box-model';
import { viewRect } from './canvas-index';
import { type Curve, curveSegments, type EdgeItem } from './edges';
import type { Box } from './hier-layout';
import type { Scene } from './scene';

const esc = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const r2 = (n: number): string => String(Math.round(n * 100) / 100);

function pathOf(c: Curve): string {
  if (c.kind === 'cubic')
    return `M${r2(c.sx)},${r2(c.sy)} C${r2(c.sx)},${r2(c.sy + c.dy)} ${r2(c.tx)},${r2(c.ty - c.dy)} ${r2(c.tx)},${r2(c.ty)}`;
  const { start, quads } = curveSegments(c);
  return `M${r2(start[0])},${r2(start[1])}${quads.map(([x, y, ex, ey]) => ` Q${r2(x)},${r2(y)} ${r2(ex)},${r2(ey)}`).join('')}`;
}

export interface ViewPart {
  sc: Scene;
  /** the pane's view: screen = k * layout + (x, y), and its size in px */
  t: { x: number; y: number; k: number };
  size: [number, number];
  frames: (q: ReturnType<typeof viewRect>) => Box[];
  solids: (q: ReturnType<typeof viewRect>) => Box[];
  edges: (q: ReturnType<typeof viewRect>) => EdgeItem[];
  /** `var(--pl-x)` → a colour */
  col: (v: string) => string;
  font: string;
}

/** The current view of a canvas scene as a standalone SVG document. */
export function viewSvg(p: ViewPart): string {
  const [cw, ch] = p.size;
  const { t, col } = p;
  const q = viewRect(t, cw, ch, 16);
  const fillOf = (b: Box): string => {
    const f = boxLook(p.sc, b).fill;
    if (f.kind === 'none') return 'none';
    return f.kind === 'heat' ? f.light : col(f.color);
  };
  const out: string[] = [];
  for (const b of p.frames(q)) {
    const m = boxModel(p.sc, b);
    const [x, y] = [b.x - b.w / 2, b.y - b.h / 2];
    out.push(
      `<rect x="${r2(x)}" y="${r2(y)}" width="${r2(b.w)}" height="${r2(b.h)}" rx="8" fill="none" stroke="${esc(col(m.stroke.color))}"/>`,
    );
    if (m.kind !== 'node')
      out.push(
        `<text x="${r2(x + m.labelX)}" y="${r2(y + m.labelY)}" font-weight="600" font-size="12" fill="${esc(col('var(--pl-fg)'))}">${esc(m.label)}</text>`,
      );
  }
  for (const it of p.edges(q)) {
    if (it.kind === 'stub') continue;
    const l = edgeLook(it);
    out.push(
      `<path d="${pathOf(it.curve)}" fill="none" stroke="${esc(col(l.color))}" stroke-width="${l.width}" opacity="${l.alpha}"/>`,
    );
  }
  for (const b of p.solids(q)) {
    const m = boxModel(p.sc, b);
    const [x, y] = [b.x - b.w / 2, b.y - b.h / 2];
    out.push(
      `<g class="pl-node" transform="translate(${r2(x)},${r2(y)})"><rect width="${r2(b.w)}" height="${r2(b.h)}" rx="${m.kind === 'node' ? 6 : m.radius}" fill="${esc(fillOf(b))}" stroke="${esc(col(m.stroke.color))}" stroke-width="${m.stroke.width}"/>`,
    );
    if (m.kind === 'node') {
      const fg = esc(col(`var(--pl-${m.role}-text)`));
      out.push(
        `<text x="${r2(m.textX)}" y="${LABEL_Y}" text-anchor="middle" font-weight="600" font-size="12" fill="${fg}">${esc(m.label)}</text>`,
        `<text x="${r2(m.textX)}" y="${SUB_Y}" text-anchor="middle" font-size="10" fill="${esc(col('var(--pl-sub)'))}">${esc(m.sub)}</text>`,
      );
      const gc = m.groupChip;
      if (gc) {
        const c = esc(col(gc.color));
        out.push(
          `<rect x="${r2(gc.x)}" y="${r2(gc.y)}" width="${gc.w}" height="${gc.h}" rx="6" fill="${esc(col('var(--pl-canvas)'))}" stroke="${c}" stroke-width="1.3"/>`,
          `<text x="${r2(gc.x + gc.w / 2)}" y="${r2(gc.y + 9)}" text-anchor="middle" font-weight="700" font-size="9" fill="${c}">${esc(gc.text)}</text>`,
        );
      }
    } else
      out.push(
        `<text x="${r2(m.labelX)}" y="${r2(m.labelY)}" font-weight="600" font-size="12" fill="${esc(col('var(--pl-fg)'))}">${esc(m.label)}</text>`,
      );
    out.push('</g>');
  }
  const bg = esc(col('var(--pl-canvas)'));
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.round(cw)}" height="${Math.round(ch)}" viewBox="0 0 ${Math.round(cw)} ${Math.round(ch)}" font-family="${esc(p.font)}">` +
    `<rect width="100%" height="100%" fill="${bg}"/>` +
    `<g transform="translate(${r2(t.x)},${r2(t.y)}) scale(${t.k})">${out.join('')}</g></svg>`
  );
}
