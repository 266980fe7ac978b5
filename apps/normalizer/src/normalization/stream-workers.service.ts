import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { trace } from '@opentelemetry/api';
import type { JetStreamClient, JetStreamManager, JsMsg } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { STREAM_NAMES, WORK_HOLDER_QUERIES, decodeWorkItem, workHolderSubject, type WorkItem } from '@llm-stream/contract';
import { JETSTREAM, JETSTREAM_MANAGER, JetStreamTransport, NATS_CONNECTION } from '@llm-stream/nest-kit';
import { HELD, TERM, WorkProgressKeeper, ackSubjectOf, isHeldElsewhere, nak, type Settlement } from '@llm-stream/pipeline';
import { WORK_PROGRESS_THREAD } from '@llm-stream/pipeline/work-progress-thread';
import { JsonLogger, natsSettings } from '@llm-stream/service-kit';
import { NormalizerConfig } from '../config/normalizer-config.js';
import { NormalizerMetrics } from '../metrics/normalizer-metrics.js';
import { GatewayLeaseService } from './gateway-lease.service.js';
import { StreamObserverService } from './stream-observer.service.js';
import { StreamWorker } from './stream-worker.js';
import { WORK_CONSUMER, workingIntervalMs } from './work-consumer.js';

/** How long a holder has to answer (its progress thread answers within milliseconds when it is alive). */
const HOLDER_QUERY_TIMEOUT_MS = 1_500;

/**
 * Runs one StreamWorker per work item the JetStream transport delivers, up to MAX_CONCURRENT_STREAMS at once
 * (items beyond that go back to JetStream for the other replicas). A worker holds its item in progress for the
 * whole stream and acks it after the terminal event is stored; a worker thread tells JetStream the held items'
 * progress (WorkProgressKeeper), so a busy event loop never lets an item go to another replica. An item
 * delivered again (after a NATS restart or pause) is first offered to its holder: another replica that still
 * holds it answers, and this one leaves it alone, so a stream never has two owners. On SIGTERM it stops taking work, lets owned
 * streams finish for up to SHUTDOWN_DRAIN_MS, and hands the rest back to JetStream for another replica.
 */
@Injectable()
export class StreamWorkersService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly workers = new Map<string, { worker: StreamWorker; done: Promise<void> }>();
  /** Redelivered items whose holder is being asked for: a second delivery meanwhile is not a new stream. */
  private readonly asking = new Set<string>();
  private readonly progress: WorkProgressKeeper;
  private lagTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly config: NormalizerConfig,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(JETSTREAM) private readonly js: JetStreamClient,
    @Inject(JETSTREAM_MANAGER) private readonly jsm: JetStreamManager,
    private readonly transport: JetStreamTransport,
    private readonly metrics: NormalizerMetrics,
    private readonly leases: GatewayLeaseService,
    private readonly observer: StreamObserverService,
    private readonly logger: JsonLogger,
  ) {
    const nats = natsSettings(config);
    this.progress = new WorkProgressKeeper({
      servers: nats.servers,
      auth: nats,
      name: 'llm-stream-normalizer',
      intervalMs: workingIntervalMs(config),
      holderQueries: WORK_HOLDER_QUERIES,
      threadFile: WORK_PROGRESS_THREAD,
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.progress.start();
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
    clearInterval(this.lagTimer);
    // Before Nest closes the transports: no new item may start while the owned streams drain.
    await this.transport.stopConsumer(WORK_CONSUMER);
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
    await this.progress.stop();
  }

  /** A delivered work item: its worker holds it (a new one, or the running one on a redelivery), or it goes back. */
  take(message: JsMsg): Settlement {
    if (this.workers.size >= this.config.MAX_CONCURRENT_STREAMS) {
      // Full: give the item back now. Held here until a slot frees, it would outlive its ack wait and be
      // redelivered to another replica, and the stream would end up with two owners.
      return nak(workingIntervalMs(this.config));
    }
    const decoded = decodeWorkItem(message.string());
    if (!decoded.ok) {
      this.logger.error('invalid work item', { reason: decoded.error.message });
      return TERM;
    }
    const item = decoded.value;
    const running = this.workers.get(item.stream_id);
    if (running) {
      // Redelivered to its own owner (it was slow to say it is working, or NATS restarted): keep the running
      // worker, on the new delivery.
      running.worker.redelivered(message);
      this.progress.hold(item.stream_id, ackSubjectOf(message));
      return HELD;
    }
    if (this.asking.has(item.stream_id)) return HELD;
    if (message.info.deliveryCount > 1) {
      // Delivered again: its holder may be alive on another replica (its progress was lost while NATS was
      // away). Asked without blocking the consumer; the answer decides who runs the stream.
      this.asking.add(item.stream_id);
      // The question may take longer than the ack wait: the delivery is kept in progress meanwhile. Left to
      // lapse, it went to a third replica, which asked the same question and, by the time nobody had answered,
      // found the stream finished by the first one and took it over a second time.
      message.working();
      const keepInProgress = setInterval(() => {
        message.working();
      }, workingIntervalMs(this.config));
      void isHeldElsewhere(this.nc, workHolderSubject(item.stream_id), HOLDER_QUERY_TIMEOUT_MS).then((heldElsewhere) => {
        clearInterval(keepInProgress);
        this.asking.delete(item.stream_id);
        if (heldElsewhere) {
          // Its holder's progress thread keeps it in progress (JetStream applies +WPI by stream sequence): the
          // holder finishes and acks it; this delivery is left to that.
          this.observer.leftToHolder(item);
        } else if (!this.workers.has(item.stream_id)) this.start(item, message);
      });
      return HELD;
    }
    this.start(item, message);
    return HELD;
  }

  private start(item: WorkItem, message: JsMsg): void {
    const worker = new StreamWorker(item, message, {
      nc: this.nc,
      js: this.js,
      jsm: this.jsm,
      leases: this.leases.leases,
      tracer: trace.getTracer('llm-stream-normalizer'),
      unknownEvents: this.metrics,
      observer: this.observer,
      workingIntervalMs: workingIntervalMs(this.config),
      progressTold: () => this.progress.running,
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
        this.progress.release(item.stream_id);
        this.workers.delete(item.stream_id);
        this.metrics.openStreams.set(this.workers.size);
      });
    this.workers.set(item.stream_id, { worker, done });
    this.progress.hold(item.stream_id, ackSubjectOf(message));
    this.metrics.openStreams.set(this.workers.size);
  }
}
