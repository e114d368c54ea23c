// JupyterLab (non-MIME) plugins of pt2e-lens; the MIME renderer stays in ./index.ts.
import { panelPlugin } from './panel/index';
import { savedViewsPlugin } from './saved-views';

export default [panelPlugin, savedViewsPlugin];
