import { ServiceMetrics } from '@llm-stream/observability';

/** The audit log's Prometheus metrics (names documented in the app's README). */
export class AuditMetrics extends ServiceMetrics {
  /** Messages taken from a consumer, by what became of them. */
  readonly messages = this.counter({
    name: 'llm_audit_messages_total',
    help: 'Messages handled, by consumer and outcome (stored, duplicate, foreign, skipped, rejected)',
    labelNames: ['consumer', 'outcome'],
  });

  readonly commitSeconds = this.histogram({
    name: 'llm_audit_commit_seconds',
    help: 'Duration of one batch transaction',
    labelNames: ['consumer'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  });

  readonly batchMessages = this.histogram({
    name: 'llm_audit_batch_messages',
    help: 'Messages per committed batch',
    labelNames: ['consumer'],
    buckets: [1, 10, 50, 100, 250, 500, 1000, 2000, 5000, 10000],
  });

  readonly streamsEnded = this.counter({ name: 'llm_audit_streams_ended_total', help: 'Streams whose terminal event was stored, by terminal status', labelNames: ['status'] });

  readonly storeUp = this.gauge({ name: 'llm_audit_store_up', help: '1 while the database takes commits, 0 during an outage (ingestion paused)' });

  readonly consumerLag = this.gauge({ name: 'llm_jetstream_consumer_lag', help: 'Messages not yet delivered to a durable consumer', labelNames: ['consumer'] });

  readonly ingestionLagMessages = this.gauge({
    name: 'llm_audit_ingestion_lag_messages',
    help: 'Messages a consumer has not processed yet, from JetStream consumer info: undelivered, or delivered and not acked (unacked)',
    labelNames: ['consumer', 'state'],
  });

  readonly ingestionLagSeconds = this.gauge({
    name: 'llm_audit_ingestion_lag_seconds',
    help: 'Age of the oldest message a consumer has not processed yet (0 when it has processed everything)',
    labelNames: ['consumer'],
  });

  readonly retentionSeconds = this.gauge({
    name: 'llm_audit_ingestion_retention_seconds',
    help: "Max age of the consumer's JetStream stream (+Inf: unlimited): a message not stored within it is removed unstored",
    labelNames: ['consumer'],
  });

  readonly ingestionLagPollFailures = this.counter({
    name: 'llm_audit_ingestion_lag_poll_failures_total',
    help: 'Polls of the JetStream consumer info that failed (the lag gauges keep their last value)',
    labelNames: ['consumer'],
  });

  readonly retentionDeleted = this.counter({
    name: 'llm_audit_retention_deleted_streams_total',
    help: 'Streams deleted because they are older than AUDIT_RETENTION_DAYS',
  });

  constructor() {
    super();
    this.storeUp.set(1);
  }
}
