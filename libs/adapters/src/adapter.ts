import type { AttemptEndRecord, MachineInput, ProviderName, UpstreamResponseRecord } from '@llm-stream/contract';
import type { SseFrame } from './sse/sse-frame.js';

/**
 * Layer 2: maps one provider protocol onto state-machine inputs. An adapter instance lives for one upstream
 * attempt and keeps only the state its protocol needs (open block keys, a pending finish reason...), never
 * copies of streamed text.
 *
 * Adapters never throw on provider input: bytes that do not fit the protocol become a `fail` input with
 * `protocol_error`, unknown event and part types become `warn` inputs (code `unknown_event` or
 * `unknown_part`) and are otherwise skipped. They never emit anything after their own terminal input.
 */
export interface ProviderAdapter {
  readonly provider: ProviderName;
  /** The upstream answered. An error status (>= 400) carries the body; the adapter turns it into `fail`. */
  response(record: UpstreamResponseRecord): readonly MachineInput[];
  /** One SSE record of the body, in receive order. */
  frame(frame: SseFrame): readonly MachineInput[];
  /**
   * The body ended (cleanly or not). The adapter settles what it still holds (a Gemini unframed error body,
   * for example). If no terminal input was produced by then, the session ends the stream as interrupted.
   */
  end(record: AttemptEndRecord): readonly MachineInput[];
}

export type AdapterFactory = () => ProviderAdapter;
