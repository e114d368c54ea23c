export { picture } from './picture';
export type { RenderHandle, RenderOptions } from './render';
export { render } from './render';
export { renderOutput } from './render-output';
export type { Snapshot, View } from './types';
export { MIME_TYPE, SCHEMA_VERSION } from './types';
export { checkDoc } from './validate';
