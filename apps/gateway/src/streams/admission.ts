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

/** What admission control decided for a new stream: a slot (see {@link AdmissionSlots}), or why not. */
export type Admission<Slot> = { readonly admitted: true; readonly slot: Slot } | { readonly admitted: false; readonly refusal: Refusal };

/**
 * The count admission control holds against MAX_OPEN_STREAMS, exact under any burst: the streams held (`held`:
 * open, until their end is stored) plus those admitted whose opening is in flight. A slot is taken in the same
 * synchronous step as the decision, so no await between admission and holding lets a burst through; a refusal
 * takes none.
 */
export class AdmissionSlots {
  private opening = 0;

  constructor(
    private readonly limits: AdmissionLimits,
    private readonly held: () => number,
    private readonly lagMs: () => number,
  ) {}

  /** Why a new stream would be refused now, or undefined when it would be admitted. */
  refusal(): Refusal | undefined {
    return admit(this.limits, this.held() + this.opening, this.lagMs());
  }

  /** A slot for an opening, or the refusal. The slot's `release` (idempotent) ends the opening: held by then, or failed. */
  take(): Admission<{ readonly release: () => void }> {
    const refusal = this.refusal();
    if (refusal !== undefined) return { admitted: false, refusal };
    this.opening += 1;
    let released = false;
    return {
      admitted: true,
      slot: {
        release: () => {
          if (released) return;
          released = true;
          this.opening -= 1;
        },
      },
    };
  }
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
