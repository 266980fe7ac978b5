export type { ProviderAdapter, AdapterFactory } from './adapter.js';
export { DEFAULT_MAX_FRAME_BYTES, type SseDecodeError, type SseFrame } from './sse/sse-frame.js';
export { createSseDecoder, type SseDecoder, type SseDecoderOptions } from './sse/sse-decoder.js';
export { parseSseRecord } from './sse/sse-record.js';
