import type { JsMsg } from '@nats-io/jetstream';
import type { BatchMessageHandler, FailureSettlement, MessageDelivery } from './message-delivery.js';
import { handBack, settle, type Settlement } from './settlement.js';

export interface BatchDeliveryOptions {
  readonly handle: BatchMessageHandler;
  readonly onFailure: FailureSettlement;
  readonly batchSize: number;
  readonly lingerMs: number;
  /** The consumer's ack wait: messages waiting or in hand are kept alive well within it. */
  readonly ackWaitMs: number;
}

/**
 * Batches that grow with the load: messages are queued as they arrive, and each handler call takes everything
 * queued (up to the batch size) and settles it. A batch below the batch size waits up to the linger time for
 * more (a transaction costs about the same for 10 rows as for 1,000). The queue stays bounded by the
 * consumer's max_ack_pending: JetStream stops delivering once that many messages are unsettled.
 */
export class BatchDelivery implements MessageDelivery {
  private readonly queue: JsMsg[] = [];
  /** The batch being handled. */
  private inflight: readonly JsMsg[] = [];
  private keepAlive: NodeJS.Timeout | undefined;
  private wakeHandler: (() => void) | undefined;
  private readonly stopping = new AbortController();
  private running: Promise<void> | undefined;

  constructor(private readonly options: BatchDeliveryOptions) {}

  start(): void {
    // A delivered message not settled within the ack wait is redelivered: one waiting behind a slow batch, or
    // held while the handler waits (a store outage), is not lost, but would be handled twice. So JetStream is
    // told, well within the ack wait, that every message still held is being worked on (settled ones ignore it).
    this.keepAlive = setInterval(() => {
      for (const message of this.inflight) message.working();
      for (const message of this.queue) message.working();
    }, Math.max(250, Math.floor(this.options.ackWaitMs / 3)));
    this.running = this.handleLoop();
  }

  take(message: JsMsg): Promise<void> {
    if (this.stopping.signal.aborted) {
      handBack(message);
      return Promise.resolve();
    }
    this.queue.push(message);
    // The handler loop waits for a first message, or (lingering) for a full batch.
    if (this.queue.length === 1 || this.queue.length >= this.options.batchSize) this.wakeHandler?.();
    return Promise.resolve();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    this.wakeHandler?.();
    await this.running;
    clearInterval(this.keepAlive);
    for (const message of this.queue.splice(0)) handBack(message);
  }

  /** A method, not a field read: the flag changes while the loop awaits. */
  private isStopping(): boolean {
    return this.stopping.signal.aborted;
  }

  private async handleLoop(): Promise<void> {
    while (!this.isStopping()) {
      if (this.queue.length === 0) {
        await new Promise<void>((resolve) => (this.wakeHandler = resolve));
        this.wakeHandler = undefined;
        continue;
      }
      await this.linger();
      const batch = this.queue.splice(0, this.options.batchSize);
      this.inflight = batch;
      await this.handleBatch(batch);
      this.inflight = [];
    }
  }

  private async handleBatch(batch: readonly JsMsg[]): Promise<void> {
    let settlements: readonly Settlement[];
    try {
      settlements = await this.options.handle(batch, this.stopping.signal);
      // A programmer error, settled like a failure rather than guessed at.
      if (settlements.length !== batch.length) throw new TypeError(`a batch handler settled ${settlements.length} of ${batch.length} messages`);
    } catch {
      // The handler reported its failure (the transport's instrumentation logs it): only the settlement is left.
      for (const message of batch) settle(message, this.options.onFailure);
      return;
    }
    batch.forEach((message, index) => {
      const settlement = settlements[index];
      if (settlement !== undefined) settle(message, settlement);
    });
  }

  private async linger(): Promise<void> {
    const deadline = Date.now() + this.options.lingerMs;
    while (this.queue.length < this.options.batchSize && !this.isStopping()) {
      const left = deadline - Date.now();
      if (left <= 0) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wakeHandler = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeHandler = undefined;
    }
  }
}
