import { isValidStreamId, isValidTenant } from '@llm-stream/contract';
import { LlmStreamClientError } from './client-error.js';
import type { SeqCheckpointStore } from './seq-checkpoint-store.js';
import type { GapHandler, InvalidEventHandler } from './subscription-reports.js';

/** Options of {@link LlmStreamClient}. */
export interface LlmStreamClientOptions {
  /** The tenant whose streams the client reads (`llm.events.<tenant>.*`). */
  readonly tenant: string;
  /**
   * Check every event against the contract's JSON Schema (default true). With false, events are trusted:
   * only what ordering needs is checked (a JSON object on its own stream's subject, a string `type`, a
   * positive integer `seq`), for a producer you run yourself on a hot path.
   */
  readonly validate?: boolean;
  /** Told about every message skipped as invalid; the iteration goes on. */
  readonly onInvalid?: InvalidEventHandler;
  /**
   * How long later events wait for a missing seq before the gap is an error (default 30 000 ms: a producer
   * repairs a dropped publish once it sees the store short, and after a NATS restart under load that takes
   * longer than a few seconds; the chaos suite saw 5 s given up on events the store held later).
   */
  readonly gapTimeoutMs?: number;
  /** Events held back over all streams of one subscription, at most (default 10 000). */
  readonly maxHeldEvents?: number;
  /** Finished streams a tenant subscription remembers to drop their late duplicates (default 100 000). */
  readonly maxFinishedStreams?: number;
}

/** Where a tenant subscription starts: new events only, every stored event, or events stored since a time. */
export type TenantStart = 'new' | 'all' | Date;

/** Options of {@link LlmStreamClient.stream}. */
export interface StreamOptions {
  /** Deliver only events after this seq (a reader that resumes). Default 0: from the stream's first event. */
  readonly afterSeq?: number;
  /** Aborting ends the iteration like `close()`. */
  readonly signal?: AbortSignal;
}

/** Options of {@link LlmStreamClient.tenantStreams}. */
export interface TenantStreamsOptions {
  /** Default `new`. */
  readonly since?: TenantStart;
  /** Give up unfilled gaps instead of throwing them (see {@link GapHandler}). */
  readonly onGap?: GapHandler;
  readonly signal?: AbortSignal;
}

/** Options of {@link LlmStreamClient.durableTenantStreams}. */
export interface DurableTenantStreamsOptions {
  /** Where the consumer starts when it is created (default `all`); an existing consumer continues. */
  readonly since?: TenantStart;
  /** Redelivery time of an unacknowledged event, set when the consumer is created (default 30 000 ms). */
  readonly ackWaitMs?: number;
  /** Per-stream last processed seq kept outside the process (see {@link SeqCheckpointStore}). */
  readonly checkpoints?: SeqCheckpointStore;
  readonly onGap?: GapHandler;
  readonly signal?: AbortSignal;
}

export const CLIENT_DEFAULTS = {
  validate: true,
  gapTimeoutMs: 30_000,
  maxHeldEvents: 10_000,
  maxFinishedStreams: 100_000,
  ackWaitMs: 30_000,
} as const;

/** Durable consumer names: a subject token, and readable in `nats consumer ls`. */
export const CONSUMER_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

function invalid(message: string): LlmStreamClientError {
  return new LlmStreamClientError('invalid_argument', message);
}

export function checkTenant(tenant: string): void {
  if (!isValidTenant(tenant)) throw invalid(`not a valid tenant: ${JSON.stringify(tenant)}`);
}

export function checkStreamId(streamId: string): void {
  if (!isValidStreamId(streamId)) throw invalid(`not a valid stream id: ${JSON.stringify(streamId)}`);
}

export function checkConsumerName(name: string): void {
  if (!CONSUMER_NAME_PATTERN.test(name)) throw invalid(`not a valid durable consumer name: ${JSON.stringify(name)}`);
}

/** A count or a duration that must be a positive integer (`zeroAllowed` for an afterSeq). */
export function checkCount(name: string, value: number, zeroAllowed = false): void {
  if (Number.isSafeInteger(value) && value >= (zeroAllowed ? 0 : 1)) return;
  throw invalid(`${name} must be a ${zeroAllowed ? 'non-negative' : 'positive'} integer, not ${value}`);
}

export function checkStart(since: TenantStart): void {
  if (since instanceof Date && Number.isNaN(since.getTime())) throw invalid('since is an invalid Date');
}
