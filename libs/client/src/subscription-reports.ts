import type { EventMessageError } from '@llm-stream/contract';
import type { StreamGapError } from './stream-gap-error.js';

/**
 * Why a message was not delivered as an event: the codes of `decodeEventMessage` (not an event subject,
 * not JSON, schema violation, stream id differs from the subject's), `invalid_seq` (not a positive integer;
 * only checked this way with `validate: false`), and `event_after_terminal` (a seq after its stream's
 * terminal event, which the contract forbids).
 */
export type InvalidEventCode = EventMessageError['code'] | 'invalid_seq' | 'event_after_terminal';

/** A message skipped because it is not a deliverable event. It never ends the iteration. */
export interface InvalidEventReport {
  readonly code: InvalidEventCode;
  readonly message: string;
  readonly subject: string;
  /** The message's sequence in the JetStream stream, to find it with `nats stream get`. */
  readonly streamSequence: number;
}

/** Called for each invalid message (a log line or a metric in the backend). */
export type InvalidEventHandler = (report: InvalidEventReport) => void;

/**
 * Called instead of throwing when a stream's gap never fills: the stream continues at its next held event
 * and the missing ones are given up. Without a handler the iteration throws the {@link StreamGapError}.
 */
export type GapHandler = (gap: StreamGapError) => void;

/** Counters of one subscription, read at any time. */
export interface SubscriptionStats {
  /** Events yielded to the backend. */
  readonly delivered: number;
  /** Messages whose (stream_id, seq) was already delivered or held: dropped. */
  readonly duplicates: number;
  /** Events before a stream's start point (`afterSeq`, a checkpoint, a mid-stream join): dropped. */
  readonly skipped: number;
  /** Messages reported through `onInvalid`. */
  readonly invalid: number;
  /** Streams first met mid-way and delivered from their lowest held seq. */
  readonly joinedMidStream: number;
  /** Gaps given up through `onGap`. */
  readonly gapsSkipped: number;
  /** Events waiting for an earlier seq right now. */
  readonly held: number;
  /** Times the consumer was opened again after its messages ended unexpectedly. */
  readonly reopens: number;
}
