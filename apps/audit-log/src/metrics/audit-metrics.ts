import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** The audit log's Prometheus metrics (names documented in the app's README). */
export class AuditMetrics {
  readonly registry = new Registry();

  /** Messages taken from a consumer, by what became of them. */
  readonly messages = new Counter({
    name: 'llm_audit_messages_total',
    help: 'Messages handled, by consumer and outcome (stored, duplicate, foreign, skipped, rejected)',
    labelNames: ['consumer', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly commitSeconds = new Histogram({
    name: 'llm_audit_commit_seconds',
    help: 'Duration of one batch transaction',
    labelNames: ['consumer'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  readonly batchMessages = new Histogram({
    name: 'llm_audit_batch_messages',
    help: 'Messages per committed batch',
    labelNames: ['consumer'] as const,
    buckets: [1, 10, 50, 100, 250, 500, 1000, 2000, 5000, 10000],
    registers: [this.registry],
  });

  readonly streamsEnded = new Counter({
    name: 'llm_audit_streams_ended_total',
    help: 'Streams whose terminal event was stored, by terminal status',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });

  readonly storeUp = new Gauge({
    name: 'llm_audit_store_up',
    help: '1 while the database takes commits, 0 during an outage (ingestion paused)',
    registers: [this.registry],
  });

  readonly consumerLag = new Gauge({
    name: 'llm_jetstream_consumer_lag',
    help: 'Messages not yet delivered to a durable consumer',
    labelNames: ['consumer'] as const,
    registers: [this.registry],
  });

  readonly retentionDeleted = new Counter({
    name: 'llm_audit_retention_deleted_streams_total',
    help: 'Streams deleted because they are older than AUDIT_RETENTION_DAYS',
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    this.storeUp.set(1);
  }
}
