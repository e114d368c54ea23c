// The MIME renderer of application/vnd.pt2e-lens.v1+json outputs: src/core unpacks and draws the View.
import type { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import { Widget } from '@lumino/widgets';
import { type RenderHandle, renderOutput } from '../core/index';
import { MIME_TYPE } from '../core/types';
import { PictureKeeper } from './store-picture';

export class Pt2eLensRenderer extends Widget implements IRenderMime.IRenderer {
  private handle: RenderHandle | null = null;
  private readonly picture = new PictureKeeper();
  constructor(private mimeType: string) {
    super();
    this.addClass('jp-Pt2eLens');
  }
  renderModel(model: IRenderMime.IMimeModel): Promise<void> {
    if (this.picture.storing) return Promise.resolve(); // the same View, now with its picture: keep what is drawn
    this.handle?.destroy();
    const handle = renderOutput(this.node, model.data[this.mimeType]);
    this.handle = handle;
    const current = (): boolean => handle === this.handle && !this.isDisposed;
    return handle.ready.then(() => void this.picture.store(model, this.node, current));
  }
  /** Stop drawing and empty the node (a subclass shows another renderer in it). */
  protected clear(): void {
    this.handle?.destroy();
    this.handle = null;
    this.node.replaceChildren();
  }
  dispose(): void {
    this.handle?.destroy();
    super.dispose();
  }
}

export const rendererFactory: IRenderMime.IRendererFactory = {
  safe: true,
  mimeTypes: [MIME_TYPE],
  createRenderer: (options) => new Pt2eLensRenderer(options.mimeType),
};
