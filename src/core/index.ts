export { render } from './render';
export type { RenderHandle, RenderOptions } from './render';
export { checkDoc } from './validate';
export { MIME_TYPE, SCHEMA_VERSION } from './types';
export type { View, Snapshot } from './types';
