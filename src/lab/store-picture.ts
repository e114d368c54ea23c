// After the renderer drew a View, keep a static SVG of it in the output's own data (the way JupyterLab's Vega
// renderer keeps a PNG): a notebook saved from JupyterLab then shows a picture on GitHub, nbviewer and in PDF
// exports, where no script runs. Once per output (an output that has a picture keeps it) and capped in size.
import type { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import { picture } from '../core/picture';

export const SVG_MIME = 'image/svg+xml';
/** a picture larger than this (characters) is not stored: the notebook's weight matters more than the picture */
export const MAX_PICTURE_CHARS = 400_000;

/** One per renderer: stores the picture and tells the renderer to skip the re-render that storing causes. */
export class PictureKeeper {
  /** true while the picture is written into the model: JupyterLab hands the output back on setData */
  storing = false;
  store(model: IRenderMime.IMimeModel, root: HTMLElement): void {
    this.storing = true;
    try {
      storePicture(model, root);
    } finally {
      this.storing = false;
    }
  }
}

/** Store the picture of what `root` shows into `model`; the SVG stored, or null (already there, no graph drawn,
 * too large). `model.setData` makes JupyterLab hand the output back to the renderer: callers skip that call. */
export function storePicture(model: IRenderMime.IMimeModel, root: HTMLElement): string | null {
  if (SVG_MIME in model.data) return null;
  const svg = picture(root);
  if (!svg || svg.length > MAX_PICTURE_CHARS) return null;
  model.setData({ data: { ...model.data, [SVG_MIME]: svg } });
  return svg;
}
