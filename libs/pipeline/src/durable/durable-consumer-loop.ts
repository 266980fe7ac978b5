import type { ConsumerMessages, JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { onConnectionChange } from '../reconnects.js';
import { WakeablePause } from '../wakeable-pause.js';
import { BatchDelivery } from './batch-delivery.js';
import { ensureDurableConsumer, type DurableConsumerDefinition } from './durable-consumer.js';
import { DurableConsumerError } from './durable-consumer-error.js';
import type { DeliveryMode, MessageDelivery } from './message-delivery.js';
import { SingleDelivery } from './single-delivery.js';

export interface DurableConsumerLoopOptions {
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  readonly consumer: DurableConsumerDefinition;
  readonly delivery: DeliveryMode;
  /** Messages pulled ahead of the handler (nats.js `max_messages`); default 32, or the batch size. */
  readonly pullAhead?: number;
  /** Pause before a consume that ended or failed is started again; default 250 ms. */
  readonly retryMs?: number;
  /** Hears every interruption (the loop goes on by itself: this is for logs). */
  readonly onInterrupted?: (error: DurableConsumerError) => void;
}

const DEFAULT_RETRY_MS = 250;
const DEFAULT_PULL_AHEAD = 32;

/**
 * The one loop that reads a durable pull consumer, for every service. It consumes the consumer and hands each
 * message to its delivery (one at a time, or in batches), which settles it by what the handler decided.
 *
 * It never gives up while the connection lives: a consume that ends or fails (a NATS restart or pause, the
 * consumer deleted or lost with the server's store) is started again after a pause, re-creating the consumer
 * if the server lost it, and a reconnect starts a fresh consume at once. JetStream's redelivery is what makes
 * it lossless: a message is settled only after its handler decided, so one that was in flight when the
 * consume broke is redelivered after the ack wait (at least once, never lost).
 *
 * `stop()` stops taking: the message (or batch) in hand finishes and is settled, what was received and not
 * handled goes back to JetStream (nak) for another instance. A message the server was sending as the consume
 * closed is dropped with the subscription (a pull in flight cannot be cancelled): JetStream redelivers it
 * after the ack wait, late but not lost.
 */
export class DurableConsumerLoop {
  private readonly delivery: MessageDelivery;
  private stopping = false;
  private messages: ConsumerMessages | undefined;
  private loop: Promise<void> | undefined;
  private readonly pause = new WakeablePause();
  private consumes = 0;

  constructor(private readonly options: DurableConsumerLoopOptions) {
    this.delivery = deliveryFor(options.delivery, options.consumer.ackWaitMs);
  }

  get name(): string {
    return this.options.consumer.durable;
  }

  /** How many consumes were started (1 plus one per restart). */
  get started(): number {
    return this.consumes;
  }

  /**
   * Creates (or updates) the consumer, failing if it cannot (a service that cannot set its consumer up fails
   * to start), then consumes in the background until {@link stop}.
   */
  async start(): Promise<void> {
    await ensureDurableConsumer(this.options.jsm, this.options.consumer);
    this.delivery.start();
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.pause.wake();
    // First, so that what the consume still yields is handed back instead of handled.
    const delivered = this.delivery.stop();
    // Not awaited: close() settles once the loop has read what was already received.
    void this.messages?.close();
    await this.loop;
    await delivered;
  }

  /** A method, not a field read: `stopping` is set by stop() while the loop awaits. */
  private running(): boolean {
    return !this.stopping && !this.options.nc.isClosed();
  }

  private async run(): Promise<void> {
    while (this.running()) {
      const interruption = await this.consumeOnce();
      if (!this.running()) return;
      this.options.onInterrupted?.(interruption);
      await this.pause.wait(this.options.retryMs ?? DEFAULT_RETRY_MS);
    }
  }

  /** One consume, to its end; returns why it ended. */
  private async consumeOnce(): Promise<DurableConsumerError> {
    const { js, jsm, consumer, nc } = this.options;
    let messages: ConsumerMessages;
    try {
      // Every time, not only at the start: the server may have lost the consumer (deleted, or a lost store).
      await ensureDurableConsumer(jsm, consumer);
      messages = await (await js.consumers.get(consumer.stream, consumer.durable)).consume({
        max_messages: this.options.pullAhead ?? pullAheadOf(this.options.delivery),
        // A deleted consumer ends the iteration (then re-created above) instead of being waited for forever.
        abort_on_missing_resource: true,
      });
    } catch (cause) {
      return new DurableConsumerError('setup_failed', consumer.durable, { cause });
    }
    this.consumes += 1;
    this.messages = messages;
    // An object, not a `let`: the listener sets it while the loop awaits.
    const seen = { reconnect: false };
    const unwatch = onConnectionChange(nc, (change) => {
      if (change !== 'reconnect') return;
      seen.reconnect = true;
      void messages.close();
    });
    // Stopped while subscribing: the close meant for this consume missed it.
    if (!this.running()) void messages.close();
    try {
      for await (const message of messages) await this.delivery.take(message);
      return new DurableConsumerError(seen.reconnect ? 'reconnected' : 'consume_ended', consumer.durable);
    } catch (cause) {
      return new DurableConsumerError('consume_failed', consumer.durable, { cause });
    } finally {
      unwatch();
    }
  }
}

function deliveryFor(mode: DeliveryMode, ackWaitMs: number): MessageDelivery {
  switch (mode.kind) {
    case 'single':
      return new SingleDelivery(mode.handle, mode.onFailure);
    case 'batch':
      return new BatchDelivery({ ...mode, ackWaitMs });
  }
}

function pullAheadOf(mode: DeliveryMode): number {
  switch (mode.kind) {
    case 'single':
      return DEFAULT_PULL_AHEAD;
    case 'batch':
      return mode.batchSize;
  }
}
