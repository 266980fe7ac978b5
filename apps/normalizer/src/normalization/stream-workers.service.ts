import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { trace } from '@opentelemetry/api';
import { AckPolicy, type ConsumerMessages, type JetStreamClient, type JetStreamManager, type JsMsg } from '@nats-io/jetstream';
import { nanos } from '@nats-io/nats-core';
import type { NatsConnection } from '@nats-io/transport-node';
import { STREAM_NAMES, decodeWorkItem } from '@llm-stream/contract';
import { JsonLogger } from '@llm-stream/service-kit';
import { NormalizerConfig } from '../config/normalizer-config.js';
import { NormalizerMetrics } from '../metrics/normalizer-metrics.js';
import { JETSTREAM, JETSTREAM_MANAGER, NATS_CONNECTION } from '@llm-stream/nest-kit';
import { GatewayLeaseService } from './gateway-lease.service.js';
import { StreamObserverService } from './stream-observer.service.js';
import { StreamWorker } from './stream-worker.js';

/** The durable consumer all normalizer replicas share on LLM_WORK. */
export const WORK_CONSUMER = 'normalizers';

/** Pause before a failed or ended work consume is started again. */
const WORK_CONSUMER_RETRY_MS = 250;

/**
 * Takes work items (one per stream) from LLM_WORK and runs one StreamWorker per item, up to
 * MAX_CONCURRENT_STREAMS at once (items beyond that go back to JetStream for the other replicas). On SIGTERM it stops taking work, lets owned streams finish for up to
 * SHUTDOWN_DRAIN_MS, and hands the rest back to JetStream for another replica.
 */
@Injectable()
export class WorkConsumerService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly workers = new Map<string, { worker: StreamWorker; done: Promise<void> }>();
  private stopping = false;
  private messages: ConsumerMessages | undefined;
  private loop: Promise<void> | undefined;
  private lagTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly config: NormalizerConfig,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(JETSTREAM) private readonly js: JetStreamClient,
    @Inject(JETSTREAM_MANAGER) private readonly jsm: JetStreamManager,
    private readonly metrics: NormalizerMetrics,
    private readonly leases: GatewayLeaseService,
    private readonly observer: StreamObserverService,
    private readonly logger: JsonLogger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // The first time at start-up, so a normalizer that cannot set its consumer up fails to start.
    await this.ensureConsumer();
    this.loop = this.consume();
    this.lagTimer = setInterval(() => {
      this.jsm.consumers
        .info(STREAM_NAMES.work, WORK_CONSUMER)
        .then((info) => {
          this.metrics.consumerLag.set({ consumer: WORK_CONSUMER }, info.num_pending);
        })
        .catch(() => undefined);
    }, 5_000);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearInterval(this.lagTimer);
    await this.messages?.close();
    await this.loop;
    const drained = await Promise.race([
      Promise.all([...this.workers.values()].map((entry) => entry.done)).then(() => true),
      new Promise<false>((resolve) => {
        setTimeout(() => {
          resolve(false);
        }, this.config.SHUTDOWN_DRAIN_MS).unref();
      }),
    ]);
    if (!drained) {
      this.logger.info('handing streams over to other replicas', { streams: this.workers.size });
      for (const { worker } of this.workers.values()) worker.handOver();
      await Promise.all([...this.workers.values()].map((entry) => entry.done));
    }
  }

  /**
   * Takes work items for as long as the service runs. A consume that ends or fails (the server restarted,
   * the consumer was lost, the connection is reconnecting) is started again after a pause, and the durable
   * consumer re-created if the server lost it: a NATS restart costs time, never the work.
   */
  private async consume(): Promise<void> {
    while (this.running()) {
      try {
        await this.consumeOnce();
      } catch (error) {
        if (!this.running()) return;
        this.logger.warn('work consumer interrupted: starting it again', { error: error instanceof Error ? error.message : String(error) });
      }
      if (this.running()) await this.pause(WORK_CONSUMER_RETRY_MS);
    }
  }

  /** A method, not the field: `stopping` is set by the shutdown hook while the loop awaits. */
  private running(): boolean {
    return !this.stopping && !this.nc.isClosed();
  }

  private async consumeOnce(): Promise<void> {
    await this.ensureConsumer();
    const consumer = await this.js.consumers.get(STREAM_NAMES.work, WORK_CONSUMER);
    const messages = await consumer.consume({ max_messages: 32 });
    this.messages = messages;
    if (this.stopping) await messages.close();
    for await (const message of messages) {
      if (this.stopping) {
        message.nak();
        continue;
      }
      if (this.workers.size >= this.config.MAX_CONCURRENT_STREAMS) {
        // Full: give the item back now. Held here until a slot frees, it would outlive its ack wait and be
        // redelivered to another replica, and the stream would end up with two owners.
        message.nak(this.workingIntervalMs());
        continue;
      }
      this.start(message);
    }
  }

  private async ensureConsumer(): Promise<void> {
    const settings = {
      durable_name: WORK_CONSUMER,
      ack_policy: AckPolicy.Explicit,
      ack_wait: nanos(this.config.WORK_ACK_WAIT_MS),
      max_deliver: -1,
      max_ack_pending: -1,
    };
    try {
      await this.jsm.consumers.add(STREAM_NAMES.work, settings);
    } catch {
      // It exists with other settings (an older ack wait): bring it up to date.
      await this.jsm.consumers.update(STREAM_NAMES.work, WORK_CONSUMER, { ack_wait: settings.ack_wait, max_ack_pending: -1 });
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      setTimeout(resolve, ms).unref();
    });
  }

  private start(message: JsMsg): void {
    const decoded = decodeWorkItem(message.string());
    if (!decoded.ok) {
      this.logger.error('invalid work item', { reason: decoded.error.message });
      message.term();
      return;
    }
    const item = decoded.value;
    const running = this.workers.get(item.stream_id);
    if (running) {
      // Redelivered to its own owner (it was slow to say it is working, or NATS restarted): keep the running
      // worker, on the new delivery.
      running.worker.redelivered(message);
      return;
    }
    const worker = new StreamWorker(item, message, {
      nc: this.nc,
      js: this.js,
      jsm: this.jsm,
      leases: this.leases.leases,
      tracer: trace.getTracer('llm-stream-normalizer'),
      unknownEvents: this.metrics,
      observer: this.observer,
      workingIntervalMs: this.workingIntervalMs(),
      clock: Date.now,
    });
    const done = worker
      .run()
      .catch((error: unknown) => {
        // The item was neither acked nor handed over: JetStream redelivers it after the ack wait.
        this.logger.error('stream worker failed', {
          stream_id: item.stream_id,
          trace_id: worker.traceId,
          error: error instanceof Error ? error.message : String(error),
        });
      })
      .finally(() => {
        this.workers.delete(item.stream_id);
        this.metrics.openStreams.set(this.workers.size);
      });
    this.workers.set(item.stream_id, { worker, done });
    this.metrics.openStreams.set(this.workers.size);
  }

  /** How often an owner tells JetStream it still works on an item: a third of the ack wait. */
  private workingIntervalMs(): number {
    return Math.max(200, Math.floor(this.config.WORK_ACK_WAIT_MS / 3));
  }
}
