import { setTimeout as delay } from 'node:timers/promises';
import type { ConsumerMessages, JetStreamClient, JsMsg } from '@nats-io/jetstream';
import type { Result } from '@llm-stream/contract';
import { errorCode } from '@llm-stream/service-kit';
import type { UnstorableMessage } from './read-event-message.js';

/** Waits before the retries of a lone message the store refuses while the database answers. */
const SINGLE_MESSAGE_RETRIES_MS = [100, 1_000] as const;

/** A message and what it decoded to. */
export interface Decoded<T> {
  readonly item: T;
  readonly message: JsMsg;
}

/** What one consumer stores and how. */
export interface BatchHandler<T> {
  /** `null`: nothing to store (acked at once); an error: it can never be stored (terminated). */
  decode(message: JsMsg): Result<T | null, UnstorableMessage>;
  /** Stores the batch in one transaction; throws if nothing was committed. */
  commit(batch: readonly Decoded<T>[]): Promise<void>;
}

/** Where the loop reports (metrics, logs, readiness live in the service around it). */
export interface BatchLoopObserver {
  skipped(consumer: string, message: JsMsg): void;
  /** `reason` is a code, never a text that could quote the message. */
  rejected(consumer: string, message: JsMsg, reason: string): void;
  storeUnavailable(consumer: string, error: unknown): void;
  storeAvailable(consumer: string): void;
  consumerFailed(consumer: string, error: unknown): void;
}

export interface BatchLoopOptions {
  readonly stream: string;
  readonly consumer: string;
  readonly js: JetStreamClient;
  readonly batchSize: number;
  /** How long a batch below the batch size waits for more messages before it commits. */
  readonly lingerMs: number;
  /** The consumer's ack wait: messages held during an outage are kept alive well within it. */
  readonly ackWaitMs: number;
  /** Resolves when the database answers. */
  readonly ping: () => Promise<void>;
  readonly observer: BatchLoopObserver;
}

/**
 * One durable JetStream consumer into the store: messages are pulled continuously into a queue, and each
 * commit takes everything queued (up to the batch size), stores it in one transaction and only then acks it.
 * Batches grow with the load by themselves: while one commits, the next accumulates.
 *
 * A failed commit is one of two things. If the database does not answer, the store is away: nothing is acked
 * any more, the loop reports unavailable and polls the database. JetStream stops delivering once the
 * consumer's max_ack_pending messages are unacked, so the queue stays bounded; the held messages are kept
 * alive (`working`) so that they are not redelivered meanwhile, and once the database answers they are stored
 * in their order. (Should the process die during the outage, JetStream redelivers them after the ack wait.)
 * If the database answers, the batch holds a message the store refuses: the batch is split in halves until
 * that message is alone, and it is terminated (never redelivered) while the rest is stored.
 */
export class BatchLoop<T> {
  private readonly queue: JsMsg[] = [];
  /** The batch being committed. */
  private inflight: readonly JsMsg[] = [];
  private keepAlive: NodeJS.Timeout | undefined;
  private messages: ConsumerMessages | undefined;
  private wakeCommitter: (() => void) | undefined;
  private stopping = false;
  private loops: Promise<unknown> | undefined;

  constructor(
    private readonly handler: BatchHandler<T>,
    private readonly options: BatchLoopOptions,
  ) {}

  start(): void {
    // A delivered message not acked within the ack wait is redelivered: one waiting behind a slow commit, or
    // held during an outage, is not lost, but would be handled twice. So JetStream is told, well within the
    // ack wait, that every message still held is being worked on (acked ones ignore it).
    this.keepAlive = setInterval(() => {
      for (const message of this.inflight) message.working();
      for (const message of this.queue) message.working();
    }, Math.max(250, Math.floor(this.options.ackWaitMs / 3)));
    this.loops = Promise.all([this.pumpLoop(), this.commitLoop()]);
  }

  /** Stops pulling, lets the running commit finish, and hands whatever is queued back to JetStream. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wakeCommitter?.();
    await this.messages?.close();
    await this.loops;
    clearInterval(this.keepAlive);
    for (const message of this.queue.splice(0)) message.nak();
  }

  private async pumpLoop(): Promise<void> {
    const { js, stream, consumer, batchSize, observer } = this.options;
    while (!this.stopping) {
      try {
        const messages = await (await js.consumers.get(stream, consumer)).consume({ max_messages: batchSize });
        this.messages = messages;
        // Stopped while subscribing: the close that was meant for this subscription missed it.
        if (this.isStopping()) await messages.close();
        for await (const message of messages) {
          this.queue.push(message);
          // The committer waits for a first message, or (lingering) for a full batch.
          if (this.queue.length === 1 || this.queue.length >= batchSize) this.wakeCommitter?.();
        }
      } catch (error) {
        observer.consumerFailed(consumer, error);
      }
      // The iteration ended without being asked to (the consumer went away): subscribe again shortly.
      if (!this.isStopping()) await delay(1_000);
    }
  }

  /** A method, not a field read: the flag changes while the loops await. */
  private isStopping(): boolean {
    return this.stopping;
  }

  private async commitLoop(): Promise<void> {
    while (!this.stopping) {
      if (this.queue.length === 0) {
        await new Promise<void>((resolve) => (this.wakeCommitter = resolve));
        this.wakeCommitter = undefined;
        continue;
      }
      await this.linger();
      const batch = this.queue.splice(0, this.options.batchSize);
      this.inflight = batch;
      const unsettled = await this.process(batch);
      this.inflight = [];
      if (unsettled.length === 0) continue;
      // The store is away: what could not be stored goes back to the head of the queue, in order.
      this.queue.unshift(...unsettled);
      await this.waitForStore();
    }
  }

  /**
   * Group commit: a transaction costs about the same for 10 rows as for 1,000 (SQLite's fsync, PostgreSQL's
   * round trips and WAL flush), so a batch below the batch size waits up to the linger time for more.
   */
  private async linger(): Promise<void> {
    const deadline = Date.now() + this.options.lingerMs;
    while (this.queue.length < this.options.batchSize && !this.stopping) {
      const left = deadline - Date.now();
      if (left <= 0) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wakeCommitter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeCommitter = undefined;
    }
  }

  /** Settles each message of the batch; returns the messages left unsettled because the store is away. */
  private async process(batch: readonly JsMsg[]): Promise<JsMsg[]> {
    const { consumer, observer } = this.options;
    const decoded: Decoded<T>[] = [];
    for (const message of batch) {
      const result = this.handler.decode(message);
      if (!result.ok) {
        // No reason text: a `+TERM <reason>` is ignored by nats-server before 2.10 (the message would stay pending).
        message.term();
        observer.rejected(consumer, message, result.error.message);
      } else if (result.value === null) {
        message.ack();
        observer.skipped(consumer, message);
      } else {
        decoded.push({ item: result.value, message });
      }
    }
    return this.commitOrIsolate(decoded);
  }

  private async commitOrIsolate(batch: readonly Decoded<T>[], retries: readonly number[] = SINGLE_MESSAGE_RETRIES_MS): Promise<JsMsg[]> {
    if (batch.length === 0) return [];
    const { consumer, observer } = this.options;
    try {
      await this.handler.commit(batch);
      for (const { message } of batch) message.ack();
      return [];
    } catch (error) {
      if (!(await this.storeAnswers())) {
        observer.storeUnavailable(consumer, error);
        return batch.map(({ message }) => message);
      }
      const [only] = batch;
      if (batch.length === 1 && only !== undefined) {
        // Alone and still failing: retried a little first (a failure can be transient even while the
        // database answers), then terminated so that it does not block everything behind it.
        const [wait, ...later] = retries;
        if (wait !== undefined) {
          await delay(wait);
          return this.commitOrIsolate(batch, later);
        }
        only.message.term();
        observer.rejected(consumer, only.message, errorCode(error));
        return [];
      }
      const half = Math.ceil(batch.length / 2);
      const first = await this.commitOrIsolate(batch.slice(0, half));
      if (first.length > 0) return [...first, ...batch.slice(half).map(({ message }) => message)];
      return this.commitOrIsolate(batch.slice(half));
    }
  }

  private async storeAnswers(): Promise<boolean> {
    try {
      await this.options.ping();
      return true;
    } catch {
      return false;
    }
  }

  private async waitForStore(): Promise<void> {
    for (let wait = 250; !this.stopping; wait = Math.min(wait * 2, 2_000)) {
      await delay(wait);
      if (await this.storeAnswers()) {
        this.options.observer.storeAvailable(this.options.consumer);
        return;
      }
    }
  }
}
