// The MIME renderer of application/vnd.pt2e-lens.v1+json outputs: src/core unpacks and draws the View.
import type { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import { Widget } from '@lumino/widgets';
import { type RenderHandle, renderOutput } from '../core/index';
import { MIME_TYPE } from '../core/types';

export class Pt2eLensRenderer extends Widget implements IRenderMime.IRenderer {
  private handle: RenderHandle | null = null;
  constructor(private mimeType: string) {
    super();
    this.addClass('jp-Pt2eLens');
  }
  renderModel(model: IRenderMime.IMimeModel): Promise<void> {
    this.handle?.destroy();
    this.handle = renderOutput(this.node, model.data[this.mimeType]);
    return this.handle.ready;
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
