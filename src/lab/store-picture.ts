// After the renderer drew a View, keep a static SVG of it in the output's own data (the way JupyterLab's Vega
// renderer keeps a PNG): a notebook saved from JupyterLab then shows a picture on GitHub, nbviewer and in PDF
// exports, where no script runs, and in the text/html fallback's mount point (nbconvert and GitHub show text/html
// first). Once per output (an output that has a picture keeps it) and capped in size.
import type { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import { hasPicture, htmlWithPicture } from '../core/html-picture';
import { picture } from '../core/picture';

export const SVG_MIME = 'image/svg+xml';
export const HTML_MIME = 'text/html';
/** a picture larger than this (characters) is not stored: the notebook's weight matters more than the picture */
export const MAX_PICTURE_CHARS = 400_000;

/** What happened to an output's picture (also left on the renderer's node as `data-picture`, for tests). */
export type PictureOutcome = 'stored' | 'kept' | 'none' | 'too-large';

/** Store the picture of what `root` shows into `model`. `model.setData` makes JupyterLab hand the output back
 * to the renderer: PictureKeeper tells the renderer to skip that call. */
export function storePicture(model: IRenderMime.IMimeModel, root: HTMLElement): PictureOutcome {
  const kept = model.data[SVG_MIME];
  if (typeof kept === 'string') {
    // a picture stored before the text/html fallback carried one: put it there too (nbconvert and GitHub pick
    // text/html first), once; the picture itself is kept as it was
    const html = withPicture(model, kept);
    if (html) model.setData({ data: { ...model.data, [HTML_MIME]: html } });
    return 'kept';
  }
  const svg = picture(root);
  if (!svg) return 'none';
  if (svg.length > MAX_PICTURE_CHARS) return 'too-large';
  const html = withPicture(model, svg);
  model.setData({ data: { ...model.data, [SVG_MIME]: svg, ...(html ? { [HTML_MIME]: html } : {}) } });
  return 'stored';
}

/** The output's text/html with `svg` as its static picture; null when it has it already or is no fallback. */
function withPicture(model: IRenderMime.IMimeModel, svg: string): string | null {
  const html = model.data[HTML_MIME];
  if (typeof html !== 'string' || hasPicture(html, svg)) return null;
  return htmlWithPicture(html, svg);
}

/** One per renderer: stores the picture and tells the renderer to skip the re-render that storing causes. */
export class PictureKeeper {
  /** true while the picture is written into the model: JupyterLab hands the output back on setData */
  storing = false;

  /** Store once the output is on the page (JupyterLab renders an output before it attaches it, and a detached
   * graph has no size); `current()` false: the renderer moved on to another model meanwhile. */
  async store(model: IRenderMime.IMimeModel, root: HTMLElement, current: () => boolean): Promise<void> {
    for (let i = 0; i < 100 && !root.isConnected && current(); i++) await new Promise((r) => setTimeout(r, 100));
    if (!root.isConnected || !current()) return;
    this.storing = true;
    try {
      root.dataset.picture = storePicture(model, root);
    } finally {
      this.storing = false;
    }
  }
}
