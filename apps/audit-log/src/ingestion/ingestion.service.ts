import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { trace } from '@opentelemetry/api';
import type { JetStreamClient, JetStreamManager, JsMsg } from '@nats-io/jetstream';
import { STREAM_NAMES, parseStreamSubject } from '@llm-stream/contract';
import { JsonLogger } from '@llm-stream/service-kit';
import { AuditConfig } from '../config/audit-config.js';
import { TenantSettings } from '../config/tenant-settings.js';
import { AuditMetrics } from '../metrics/audit-metrics.js';
import { JETSTREAM, JETSTREAM_MANAGER } from '@llm-stream/nest-kit';
import type { AuditRepository } from '../store/audit-repository.js';
import { AUDIT_REPOSITORY } from '../store/store-tokens.js';
import { BatchLoop, type BatchLoopObserver } from './batch-loop.js';
import { AUDIT_CONSUMERS, ensureConsumer } from './ensure-consumer.js';
import { EventBatchHandler } from './event-batch-handler.js';
import { IngestionStatus } from './ingestion-status.js';
import { RawBatchHandler } from './raw-batch-handler.js';

/**
 * Runs the two durable consumers into the store: `audit-events` on LLM_EVENTS and `audit-raw` on LLM_RAW.
 * On SIGTERM both stop pulling, finish the batch they are committing and hand the rest back to JetStream.
 */
@Injectable()
export class IngestionService implements OnApplicationBootstrap, BeforeApplicationShutdown, BatchLoopObserver {
  private readonly loops: { start(): void; stop(): Promise<void> }[] = [];
  private lagTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly config: AuditConfig,
    private readonly tenants: TenantSettings,
    @Inject(JETSTREAM) private readonly js: JetStreamClient,
    @Inject(JETSTREAM_MANAGER) private readonly jsm: JetStreamManager,
    @Inject(AUDIT_REPOSITORY) private readonly repository: AuditRepository,
    private readonly metrics: AuditMetrics,
    private readonly status: IngestionStatus,
    private readonly logger: JsonLogger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const settings = { ackWaitMs: this.config.AUDIT_ACK_WAIT_MS, maxAckPending: this.config.AUDIT_MAX_ACK_PENDING };
    await ensureConsumer(this.jsm, STREAM_NAMES.events, AUDIT_CONSUMERS.events, settings);
    await ensureConsumer(this.jsm, STREAM_NAMES.raw, AUDIT_CONSUMERS.raw, settings);
    const common = {
      js: this.js,
      batchSize: this.config.AUDIT_BATCH_SIZE,
      lingerMs: this.config.AUDIT_BATCH_LINGER_MS,
      ackWaitMs: this.config.AUDIT_ACK_WAIT_MS,
      ping: () => this.repository.ping(), observer: this };
    const tracer = trace.getTracer('llm-stream-audit-log');
    this.loops.push(
      new BatchLoop(new EventBatchHandler(this.repository, this.metrics, tracer, this.logger), {
        ...common,
        stream: STREAM_NAMES.events,
        consumer: AUDIT_CONSUMERS.events,
      }),
      new BatchLoop(new RawBatchHandler(this.repository, this.tenants, this.metrics, this.logger), {
        ...common,
        stream: STREAM_NAMES.raw,
        consumer: AUDIT_CONSUMERS.raw,
      }),
    );
    for (const loop of this.loops) loop.start();
    this.lagTimer = setInterval(() => {
      this.measureLag();
    }, 5_000);
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.lagTimer);
    await Promise.all(this.loops.map((loop) => loop.stop()));
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

  consumerFailed(consumer: string, error: unknown): void {
    this.logger.warn('consumer interrupted, subscribing again', { consumer, error: error instanceof Error ? error.message : String(error) });
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
