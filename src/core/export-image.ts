// The toolbar's Export: the pane's drawing as an SVG file (picture.ts: the drawn graph with its styles inlined,
// so it looks the same without our stylesheet) or a PNG (that SVG rasterised at 2×). A canvas-drawn large scene
// saves its canvas as PNG, and as SVG the current view painted by the canvas painter once more (canvas-svg.ts).
import { h } from './dom';
import type { Tr } from './i18n';
import { picture } from './picture';

function save(doc: Document, blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = h(doc, 'a', { href: url, download: name });
  doc.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function pngOf(doc: Document, svg: string): Promise<Blob | null> {
  return new Promise((resolve) => {
    const img = new Image();
    img.onload = () => {
      const c = doc.createElement('canvas');
      c.width = img.naturalWidth * 2;
      c.height = img.naturalHeight * 2;
      const ctx = c.getContext('2d');
      if (!ctx) return resolve(null);
      ctx.scale(2, 2);
      ctx.drawImage(img, 0, 0);
      c.toBlob(resolve, 'image/png');
    };
    img.onerror = () => resolve(null);
    img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  });
}

/** A canvas-drawn scene's raster and the SVG of its current view (both null when the scene is drawn as SVG). */
export interface CanvasExport {
  raster(): HTMLCanvasElement | null;
  viewSvg(): string | null;
}

/** "Export: PNG SVG" for a pane: `graph` holds its SVG; `canvas` answers when the scene is on a canvas. */
export function exportButtons(doc: Document, graph: Element, canvas: CanvasExport, t: Tr): HTMLElement {
  const box = h(doc, 'span', { class: 'pl-export', title: t('ui.views.export_title') });
  box.append(h(doc, 'span', { class: 'pl-export-label' }, `${t('ui.views.export')}:`));
  for (const kind of ['PNG', 'SVG'] as const) {
    const b = h(doc, 'button', { class: 'pl-btn', type: 'button', 'data-export': kind.toLowerCase() }, kind);
    b.addEventListener('click', async () => {
      const raster = canvas.raster();
      if (raster) {
        // a large scene (no per-node SVG exists): PNG is the canvas as drawn, SVG the current view painted anew
        const view = kind === 'SVG' ? canvas.viewSvg() : null;
        if (view) save(doc, new Blob([view], { type: 'image/svg+xml' }), 'pt2e-lens.svg');
        else raster.toBlob((blob) => blob && save(doc, blob, 'pt2e-lens.png'), 'image/png');
        return;
      }
      const svg = picture(graph);
      if (!svg) return;
      if (kind === 'SVG') save(doc, new Blob([svg], { type: 'image/svg+xml' }), 'pt2e-lens.svg');
      else {
        const png = await pngOf(doc, svg);
        if (png) save(doc, png, 'pt2e-lens.png');
      }
    });
    box.append(' ', b);
  }
  return box;
}
