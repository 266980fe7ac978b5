export type { ProviderAdapter, AdapterFactory } from './adapter.js';
export { DEFAULT_MAX_FRAME_BYTES, type SseDecodeError, type SseFrame } from './sse/sse-frame.js';
export { createSseDecoder, type SseDecoder, type SseDecoderOptions } from './sse/sse-decoder.js';
export { parseSseRecord } from './sse/sse-record.js';
export { DEFAULT_MAX_HELD_RECORDS, NormalizerSession, type NormalizerSessionOptions, type UnknownEventCounter } from './session/normalizer-session.js';
export { ADAPTERS_BUILD } from './adapters-build.js';
export { SeqOrder, type SeqOffer } from './session/seq-order.js';
export { TraceRecorder, type UnstampedRecord } from './session/trace-recorder.js';
export { runTranscript, type TranscriptOptions, type TranscriptResult } from './session/run-transcript.js';
export { replayTrace, type ProviderAdapterFactory, type ReplayTraceOptions } from './replay-check/replay-trace.js';
export { outcomeChanges, type OutcomeChange, type OutcomeField } from './replay-check/outcome-changes.js';
export { replayStoredStream, type StoredStream } from './replay-check/replay-stored-stream.js';
export type { ChangedStream, ReplayReport, StreamReplay, UnreplayableStream } from './replay-check/replay-report.js';
export {
  ReplayTally,
  replayCheck,
  type ProviderReplayTotals,
  type ReplayCandidate,
  type ReplayCounts,
  type ReplayVerdict,
  type UnreplayableReason,
} from './replay-check/replay-tally.js';
export { CONFORMANCE_EPOCH_MS, conformanceRunOptions } from './session/conformance-run.js';
export { AnthropicAdapter } from './anthropic/anthropic-adapter.js';
export { OpenAiResponsesAdapter } from './openai-responses/openai-responses-adapter.js';
export { OpenAiChatAdapter } from './openai-chat/openai-chat-adapter.js';
export { GeminiAdapter } from './gemini/gemini-adapter.js';
export { GeminiInteractionsAdapter } from './gemini-interactions/gemini-interactions-adapter.js';
export { GEMINI_INTERACTIONS_ENDPOINT, interactionsStreamingBody } from './gemini-interactions/interactions-endpoint.js';
export { createProviderAdapter } from './adapter-registry.js';
export { normalizeTranscript } from './normalize-transcript.js';
export {
  conformanceFixture,
  exportNotes,
  exportedBody,
  finalAttemptFrames,
  type ConformanceFixture,
  type ExportableRawEntry,
} from './fixture/conformance-fixture.js';
