// JupyterLab 4 MIME renderer extension for application/vnd.pt2e-lens.v1+json (the renderer: ./renderer.ts).
import type { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import { rendererFactory } from './renderer';

const extension: IRenderMime.IExtension = {
  id: 'pt2e-lens:mime-renderer',
  rendererFactory,
  rank: 0,
  dataType: 'json',
};

export default extension;
