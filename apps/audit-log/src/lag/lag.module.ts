import { Module } from '@nestjs/common';
import type { JetStreamManager } from '@nats-io/jetstream';
import { STREAM_NAMES } from '@llm-stream/contract';
import { JsonLogger } from '@llm-stream/service-kit';
import { AuditConfig } from '../config/audit-config.js';
import { AUDIT_CONSUMERS } from '../ingestion/audit-consumers.js';
import { AuditMetrics } from '../metrics/audit-metrics.js';
import { JETSTREAM_MANAGER } from '@llm-stream/nest-kit';
import { IngestionLagPoller } from './ingestion-lag-poller.js';

/** The ingestion lag of both audit consumers, polled from JetStream (metrics and readiness detail). */
@Module({
  providers: [
    {
      provide: IngestionLagPoller,
      inject: [JETSTREAM_MANAGER, AuditConfig, AuditMetrics, JsonLogger],
      useFactory: (jsm: JetStreamManager, config: AuditConfig, metrics: AuditMetrics, logger: JsonLogger) =>
        new IngestionLagPoller(
          jsm,
          [
            { stream: STREAM_NAMES.events, consumer: AUDIT_CONSUMERS.events },
            { stream: STREAM_NAMES.raw, consumer: AUDIT_CONSUMERS.raw },
          ],
          config.AUDIT_LAG_POLL_INTERVAL_MS,
          metrics,
          logger,
        ),
    },
  ],
  exports: [IngestionLagPoller],
})
export class LagModule {}
