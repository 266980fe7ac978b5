/**
 * How far one durable consumer of the audit log is behind its JetStream stream. Everything not acked yet is
 * unprocessed: JetStream holds it (and redelivers what was delivered, once the ack wait ends) until the audit
 * log has committed it, so a lag costs time, not data, as long as the stream still holds the messages (see
 * the app README, "Lag").
 */
export interface ConsumerLag {
  readonly consumer: string;
  /** Messages the consumer has not been delivered yet (`num_pending`). */
  readonly undelivered: number;
  /** Messages delivered and not acked yet: queued or being committed (`num_ack_pending`). */
  readonly unacked: number;
  /** Age of the oldest unprocessed message (now minus its JetStream time); 0 when there is none. */
  readonly oldestAgeMs: number;
  /**
   * How long the stream keeps a message (its max age; null: unlimited). A message the audit log has not
   * stored by then is removed from the stream and never stored: the lag is lossless while it stays below this.
   */
  readonly retentionMs: number | null;
  /** When the consumer was asked (ms since the epoch). */
  readonly measuredAt: number;
}

/** What the consumer info says, in the fields the lag is computed from. */
export interface ConsumerPosition {
  readonly num_pending: number;
  readonly num_ack_pending: number;
}

/**
 * The lag of a consumer at `now`; `oldestTime` is the JetStream time of its oldest unprocessed message and
 * `maxAgeNanos` the stream's max age (0: unlimited), as JetStream states it. Pure.
 */
export function consumerLag(consumer: string, position: ConsumerPosition, oldestTime: number | undefined, maxAgeNanos: number, now: number): ConsumerLag {
  const unprocessed = position.num_pending + position.num_ack_pending;
  return {
    consumer,
    undelivered: position.num_pending,
    unacked: position.num_ack_pending,
    // The oldest message may have been acked between the two requests (then it is newer than measured, never older).
    oldestAgeMs: unprocessed === 0 || oldestTime === undefined ? 0 : Math.max(0, now - oldestTime),
    retentionMs: maxAgeNanos > 0 ? Math.round(maxAgeNanos / 1e6) : null,
    measuredAt: now,
  };
}

/** The lag as the readiness probe shows it (snake_case, like the rest of the HTTP API). */
export interface LagDetail {
  readonly undelivered: number;
  readonly unacked: number;
  readonly oldest_age_ms: number;
  readonly retention_ms: number | null;
  readonly measured_at: number;
}

export function lagDetail(lag: ConsumerLag): LagDetail {
  return { undelivered: lag.undelivered, unacked: lag.unacked, oldest_age_ms: lag.oldestAgeMs, retention_ms: lag.retentionMs, measured_at: lag.measuredAt };
}
