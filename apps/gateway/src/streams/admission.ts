import { assertNever } from '@llm-stream/contract';

/** The limits above which a gateway refuses new streams (MAX_OPEN_STREAMS, MAX_EVENT_LOOP_LAG_MS). */
export interface AdmissionLimits {
  readonly maxOpenStreams: number;
  readonly maxEventLoopLagMs: number;
}

/** Why a new stream is refused: too many open here, or this process's event loop falls behind. */
export type Refusal = { readonly reason: 'open_streams'; readonly open: number } | { readonly reason: 'event_loop_lag'; readonly lagMs: number };

/**
 * Admission control: a new stream is admitted below both limits, refused (503 `overloaded`, `Retry-After`)
 * at or above one of them, before anything is sent upstream, so the open streams keep their latency.
 * Pure: the open count and the lag are passed in.
 */
export function admit(limits: AdmissionLimits, openStreams: number, lagMs: number): Refusal | undefined {
  if (openStreams >= limits.maxOpenStreams) return { reason: 'open_streams', open: openStreams };
  if (lagMs > limits.maxEventLoopLagMs) return { reason: 'event_loop_lag', lagMs };
  return undefined;
}

/** The refusal in words, for the error body. */
export function refusalMessage(refusal: Refusal, limits: AdmissionLimits): string {
  switch (refusal.reason) {
    case 'open_streams':
      return `the gateway holds ${String(refusal.open)} open streams (MAX_OPEN_STREAMS ${String(limits.maxOpenStreams)}); retry later or elsewhere`;
    case 'event_loop_lag':
      return `the gateway's event loop lags ${String(Math.round(refusal.lagMs))} ms (MAX_EVENT_LOOP_LAG_MS ${String(limits.maxEventLoopLagMs)}); retry later or elsewhere`;
    default:
      return assertNever(refusal, 'refusal');
  }
}
