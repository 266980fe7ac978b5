import { consumerLag, lagDetail } from './ingestion-lag.js';

describe('consumerLag', () => {
  const position = { num_pending: 7, num_ack_pending: 3 };

  it('counts undelivered and unacked messages and the age of the oldest one', () => {
    expect(consumerLag('audit-raw', position, 1_000, 3_600_000_000_000, 61_000)).toEqual({
      consumer: 'audit-raw',
      undelivered: 7,
      unacked: 3,
      oldestAgeMs: 60_000,
      retentionMs: 3_600_000,
      measuredAt: 61_000,
    });
  });

  it('has no age when nothing is unprocessed, and never a negative one (the oldest was acked meanwhile)', () => {
    expect(consumerLag('c', { num_pending: 0, num_ack_pending: 0 }, 1_000, 0, 61_000).oldestAgeMs).toBe(0);
    expect(consumerLag('c', position, 62_000, 0, 61_000).oldestAgeMs).toBe(0);
    expect(consumerLag('c', position, undefined, 0, 61_000).oldestAgeMs).toBe(0);
  });

  it('reads a max age of 0 as unlimited retention', () => {
    const lag = consumerLag('c', position, 1_000, 0, 2_000);
    expect(lag.retentionMs).toBeNull();
    expect(lagDetail(lag)).toEqual({ undelivered: 7, unacked: 3, oldest_age_ms: 1_000, retention_ms: null, measured_at: 2_000 });
  });
});
