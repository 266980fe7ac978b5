export type { ProviderAdapter, AdapterFactory } from './adapter.js';
export { DEFAULT_MAX_FRAME_BYTES, type SseDecodeError, type SseFrame } from './sse/sse-frame.js';
