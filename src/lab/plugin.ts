// JupyterLab (non-MIME) plugins of pt2e-lens; the MIME renderer stays in ./index.ts.
import { panelPlugin } from './panel/index';

export default [panelPlugin];
