import { setTimeout as delay } from 'node:timers/promises';
import type { JetStreamManager } from '@nats-io/jetstream';
import type { JsonLogger } from '@llm-stream/service-kit';
import type { AuditMetrics } from '../metrics/audit-metrics.js';
import { consumerLag, lagDetail, type ConsumerLag, type LagDetail } from './ingestion-lag.js';

/** A durable consumer of the audit log and the stream it reads. */
export interface LaggingConsumer {
  readonly stream: string;
  readonly consumer: string;
}

/** What the readiness probe shows per consumer: its lag, or why it could not be measured. */
export type LagReport = Readonly<Record<string, LagDetail | { readonly unknown: string }>>;

/**
 * Polls the JetStream consumer info of each audit consumer on an interval and publishes its lag: the gauges
 * `llm_audit_ingestion_lag_messages{consumer,state}`, `llm_audit_ingestion_lag_seconds{consumer}` and the
 * stream's max age beside it (`llm_audit_ingestion_retention_seconds{consumer}`: the lag is lossless below
 * it), and the last measurement for the readiness probe. The age is that of the first message after the
 * consumer's ack floor (the oldest one not acked), read by a direct get: two info requests and at most one
 * get per consumer and interval, whatever the load.
 */
export class IngestionLagPoller {
  private readonly last = new Map<string, ConsumerLag | { readonly unknown: string }>();
  private readonly stopping = new AbortController();
  private running: Promise<void> | undefined;

  constructor(
    private readonly jsm: JetStreamManager,
    private readonly consumers: readonly LaggingConsumer[],
    private readonly intervalMs: number,
    private readonly metrics: AuditMetrics,
    private readonly logger: JsonLogger,
  ) {}

  /** Nest lifecycle hook: the first poll at once, then one per interval (a poll never overlaps the next). */
  onApplicationBootstrap(): void {
    this.running = this.run();
  }

  /** Nest lifecycle hook. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    await this.running;
  }

  private async run(): Promise<void> {
    const { signal } = this.stopping;
    while (!signal.aborted) {
      await this.poll(Date.now());
      await delay(this.intervalMs, undefined, { signal, ref: false }).catch(() => undefined);
    }
  }

  /** Measures every consumer once; a consumer that cannot be measured is reported, never thrown. */
  async poll(now: number): Promise<void> {
    await Promise.all(
      this.consumers.map(async ({ stream, consumer }) => {
        try {
          const lag = await this.measure(stream, consumer, now);
          this.last.set(consumer, lag);
          this.metrics.ingestionLagMessages.set({ consumer, state: 'undelivered' }, lag.undelivered);
          this.metrics.ingestionLagMessages.set({ consumer, state: 'unacked' }, lag.unacked);
          this.metrics.ingestionLagSeconds.set({ consumer }, lag.oldestAgeMs / 1000);
          // +Inf for an unlimited max age: lag / retention is then 0, and an alert on the ratio stays quiet.
          this.metrics.retentionSeconds.set({ consumer }, lag.retentionMs === null ? Infinity : lag.retentionMs / 1000);
        } catch (error) {
          // NATS errors name the request's problem (no message content): safe to show and log.
          const reason = error instanceof Error ? error.message : String(error);
          const previous = this.last.get(consumer);
          if (previous === undefined || !('unknown' in previous)) this.logger.warn('ingestion lag cannot be measured', { consumer, error: reason });
          this.last.set(consumer, { unknown: reason });
          this.metrics.ingestionLagPollFailures.inc({ consumer });
        }
      }),
    );
  }

  /** The last measurement of each consumer (none before the first poll). */
  report(): LagReport {
    const report: Record<string, LagDetail | { readonly unknown: string }> = {};
    for (const [consumer, lag] of this.last) report[consumer] = 'unknown' in lag ? lag : lagDetail(lag);
    return report;
  }

  private async measure(stream: string, consumer: string, now: number): Promise<ConsumerLag> {
    const [info, streamInfo] = await Promise.all([this.jsm.consumers.info(stream, consumer), this.jsm.streams.info(stream)]);
    const maxAge = streamInfo.config.max_age;
    if (info.num_pending + info.num_ack_pending === 0) return consumerLag(consumer, info, undefined, maxAge, now);
    // The first stored message after the ack floor: the oldest not acked (next_by_subj skips deleted sequences).
    const oldest = await this.jsm.direct.getMessage(stream, { seq: info.ack_floor.stream_seq + 1, next_by_subj: '>' });
    return consumerLag(consumer, info, oldest?.time.getTime(), maxAge, now);
  }
}
