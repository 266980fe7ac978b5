import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { trace } from '@opentelemetry/api';
import type { JetStreamManager, JsMsg } from '@nats-io/jetstream';
import { STREAM_NAMES, parseStreamSubject } from '@llm-stream/contract';
import { JETSTREAM_MANAGER } from '@llm-stream/nest-kit';
import type { Settlement } from '@llm-stream/pipeline';
import { JsonLogger } from '@llm-stream/service-kit';
import { TenantSettings } from '../config/tenant-settings.js';
import { AuditMetrics } from '../metrics/audit-metrics.js';
import type { AuditRepository } from '../store/audit-repository.js';
import { AUDIT_REPOSITORY } from '../store/store-tokens.js';
import { AUDIT_CONSUMERS } from './audit-consumers.js';
import { BatchIngestion, type IngestionObserver } from './batch-ingestion.js';
import { EventBatchHandler } from './event-batch-handler.js';
import { IngestionStatus } from './ingestion-status.js';
import { RawBatchHandler } from './raw-batch-handler.js';
import type { IncomingEvent, IncomingRaw } from '../store/audit-repository.js';

/**
 * Stores the batches of the two durable consumers (delivered by the JetStream transport): `audit-events` on
 * LLM_EVENTS and `audit-raw` on LLM_RAW; reports what it could not store, the store's availability (readiness)
 * and the consumers' lag. On SIGTERM the transport stops both: the batch being committed finishes, the rest
 * goes back to JetStream.
 */
@Injectable()
export class IngestionService implements OnApplicationBootstrap, BeforeApplicationShutdown, IngestionObserver {
  private readonly events: BatchIngestion<IncomingEvent>;
  private readonly raw: BatchIngestion<IncomingRaw>;
  private lagTimer: NodeJS.Timeout | undefined;

  constructor(
    tenants: TenantSettings,
    @Inject(JETSTREAM_MANAGER) private readonly jsm: JetStreamManager,
    @Inject(AUDIT_REPOSITORY) repository: AuditRepository,
    private readonly metrics: AuditMetrics,
    private readonly status: IngestionStatus,
    private readonly logger: JsonLogger,
  ) {
    const common = { ping: () => repository.ping(), observer: this };
    this.events = new BatchIngestion(new EventBatchHandler(repository, metrics, trace.getTracer('llm-stream-audit-log'), logger), {
      ...common,
      consumer: AUDIT_CONSUMERS.events,
    });
    this.raw = new BatchIngestion(new RawBatchHandler(repository, tenants, metrics, logger), { ...common, consumer: AUDIT_CONSUMERS.raw });
  }

  onApplicationBootstrap(): void {
    this.lagTimer = setInterval(() => {
      this.measureLag();
    }, 5_000);
  }

  beforeApplicationShutdown(): void {
    clearInterval(this.lagTimer);
  }

  storeEvents(batch: readonly JsMsg[], stopping: AbortSignal): Promise<Settlement[]> {
    return this.events.store(batch, stopping);
  }

  storeRaw(batch: readonly JsMsg[], stopping: AbortSignal): Promise<Settlement[]> {
    return this.raw.store(batch, stopping);
  }

  skipped(consumer: string): void {
    this.metrics.messages.inc({ consumer, outcome: 'skipped' });
  }

  rejected(consumer: string, message: JsMsg, reason: string): void {
    this.metrics.messages.inc({ consumer, outcome: 'rejected' });
    // The reason names what is wrong with the message, never its content.
    this.logger.warn('message cannot be stored: terminated', { consumer, stream_id: parseStreamSubject(message.subject)?.streamId, reason });
  }

  storeUnavailable(consumer: string, error: unknown): void {
    this.status.storeUnavailable(consumer);
    this.metrics.storeUp.set(0);
    this.logger.error('store unavailable: ingestion paused, messages handed back for redelivery', {
      consumer,
      error: error instanceof Error ? error.message : String(error),
    });
  }

  storeAvailable(consumer: string): void {
    this.status.storeAvailable(consumer);
    if (this.status.check() === 'ok') this.metrics.storeUp.set(1);
    this.logger.info('store available again: ingestion resumed', { consumer });
  }

  private measureLag(): void {
    for (const [stream, consumer] of [
      [STREAM_NAMES.events, AUDIT_CONSUMERS.events],
      [STREAM_NAMES.raw, AUDIT_CONSUMERS.raw],
    ] as const) {
      this.jsm.consumers
        .info(stream, consumer)
        .then((info) => {
          this.metrics.consumerLag.set({ consumer }, info.num_pending + info.num_ack_pending);
        })
        .catch(() => undefined);
    }
  }
}
