export type { ProviderAdapter, AdapterFactory } from './adapter.js';
export { DEFAULT_MAX_FRAME_BYTES, type SseDecodeError, type SseFrame } from './sse/sse-frame.js';
export { createSseDecoder, type SseDecoder, type SseDecoderOptions } from './sse/sse-decoder.js';
export { parseSseRecord } from './sse/sse-record.js';
export { NormalizerSession, type NormalizerSessionOptions, type UnknownEventCounter } from './session/normalizer-session.js';
export { TraceRecorder, type UnstampedRecord } from './session/trace-recorder.js';
export { runTranscript, type TranscriptOptions, type TranscriptResult } from './session/run-transcript.js';
export { AnthropicAdapter } from './anthropic/anthropic-adapter.js';
export { GeminiAdapter } from './gemini/gemini-adapter.js';
