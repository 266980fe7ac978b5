import type { ContractEvent, ProviderName, TraceRecord } from '@llm-stream/contract';
import type { ProviderAdapter } from '../adapter.js';
import { NormalizerSession, type UnknownEventCounter } from './normalizer-session.js';
import { TraceRecorder } from './trace-recorder.js';
import { createSseDecoder } from '../sse/sse-decoder.js';
import type { SseFrame } from '../sse/sse-frame.js';

export interface TranscriptOptions {
  /** The adapter for each attempt; the registry's by default (see normalizeTranscript). */
  readonly createAdapter: (provider: ProviderName) => ProviderAdapter;
  readonly streamId?: string;
  readonly tenant?: string;
  readonly model?: string;
  /** The gateway route recorded in `stream.open` (and so in `stream.start`); none by default. */
  readonly route?: string;
  /** Receive time of every record; defaults to the time of the call. */
  readonly clock?: () => number;
  readonly maxFrameBytes?: number;
  /** HTTP status the body came with (default 200). */
  readonly status?: number;
  readonly unknownEvents?: UnknownEventCounter;
}

export interface TranscriptResult {
  readonly events: ContractEvent[];
  /** The raw trace the events were derived from, as the gateway would have published it. */
  readonly records: TraceRecord[];
}

/**
 * Normalizes one recorded response body in process with the given adapters, exactly as the pipeline does live: the body is decoded
 * into frames, recorded as a one-attempt trace ending at end of file, and run through a NormalizerSession.
 * `body` may be one buffer or a sequence of chunks (chunk boundaries never change the result).
 */
export function runTranscript(
  provider: ProviderName,
  body: string | Uint8Array | Iterable<string | Uint8Array>,
  options: TranscriptOptions,
): TranscriptResult {
  const now = Date.now();
  const recorder = new TraceRecorder(options.clock ?? (() => now));
  const session = new NormalizerSession({
    createAdapter: options.createAdapter,
    ...(options.unknownEvents !== undefined && { unknownEvents: options.unknownEvents }),
  });
  const events: ContractEvent[] = [];
  const records: TraceRecord[] = [];
  const accept = (stamped: TraceRecord, parsed?: SseFrame): void => {
    records.push(stamped);
    for (const event of session.accept(stamped, parsed)) events.push(event);
  };
  const record = (unstamped: Parameters<TraceRecorder['stamp']>[0]): void => {
    accept(recorder.stamp(unstamped));
  };

  record({
    kind: 'stream.open',
    stream_id: options.streamId ?? 'st_local',
    tenant: options.tenant ?? 'local',
    provider,
    model: options.model ?? 'unknown',
    ...(options.route !== undefined && { route: options.route }),
    gateway_id: 'local',
    max_attempts: 1,
  });
  record({ kind: 'attempt.start', attempt: 1 });
  record({ kind: 'upstream.response', attempt: 1, status: options.status ?? 200 });
  const decoder = createSseDecoder(options.maxFrameBytes === undefined ? {} : { maxFrameBytes: options.maxFrameBytes });
  const chunks = typeof body === 'string' || body instanceof Uint8Array ? [body] : body;
  for (const chunk of chunks) {
    for (const frame of decoder.push(chunk)) accept(recorder.frame(1, frame), frame);
    if (decoder.error) break;
  }
  if (!decoder.error) for (const frame of decoder.end()) accept(recorder.frame(1, frame), frame);
  const error = decoder.error;
  record(
    error
      ? { kind: 'attempt.end', attempt: 1, reason: 'frame_too_large', detail: `${String(error.bytes)} bytes > ${String(error.limit)}` }
      : { kind: 'attempt.end', attempt: 1, reason: 'eof' },
  );
  return { events, records };
}
