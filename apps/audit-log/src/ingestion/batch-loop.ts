import { setTimeout as delay } from 'node:timers/promises';
import type { ConsumerMessages, JetStreamClient, JsMsg } from '@nats-io/jetstream';
import type { Result } from '@llm-stream/contract';
import type { UnstorableMessage } from './read-event-message.js';

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
  /** Resolves when the database answers. */
  readonly ping: () => Promise<void>;
  readonly observer: BatchLoopObserver;
}

/**
 * One durable JetStream consumer into the store: messages are pulled continuously into a queue, and each
 * commit takes everything queued (up to the batch size), stores it in one transaction and only then acks it.
 * Batches grow with the load by themselves: while one commits, the next accumulates.
 *
 * A failed commit is one of two things. If the database does not answer, the store is away: pulling stops,
 * every unacked message is nak'ed (JetStream redelivers it), the loop reports unavailable and polls the
 * database until it answers, then resumes. If the database answers, the batch holds a message the store
 * refuses: the batch is split in halves until that message is alone, and it is terminated (never redelivered)
 * while the rest is stored.
 */
export class BatchLoop<T> {
  private readonly queue: JsMsg[] = [];
  private messages: ConsumerMessages | undefined;
  private wakeCommitter: (() => void) | undefined;
  private wakePump: (() => void) | undefined;
  private stopping = false;
  private paused = false;
  private loops: Promise<unknown> | undefined;

  constructor(
    private readonly handler: BatchHandler<T>,
    private readonly options: BatchLoopOptions,
  ) {}

  start(): void {
    this.loops = Promise.all([this.pumpLoop(), this.commitLoop()]);
  }

  /** Stops pulling, lets the running commit finish, and hands whatever is queued back to JetStream. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wakeCommitter?.();
    this.wakePump?.();
    await this.messages?.close();
    await this.loops;
    for (const message of this.queue.splice(0)) message.nak();
  }

  private async pumpLoop(): Promise<void> {
    const { js, stream, consumer, batchSize, observer } = this.options;
    while (!this.stopping) {
      if (this.paused) {
        await new Promise<void>((resolve) => (this.wakePump = resolve));
        this.wakePump = undefined;
        continue;
      }
      try {
        const messages = await (await js.consumers.get(stream, consumer)).consume({ max_messages: batchSize });
        this.messages = messages;
        // Paused or stopped while subscribing: the close that was meant for this subscription missed it.
        if (this.halted()) await messages.close();
        for await (const message of messages) {
          this.queue.push(message);
          // The committer waits for a first message, or (lingering) for a full batch.
          if (this.queue.length === 1 || this.queue.length >= batchSize) this.wakeCommitter?.();
        }
      } catch (error) {
        observer.consumerFailed(consumer, error);
      }
      // The iteration ended without being asked to (the consumer went away): subscribe again shortly.
      if (!this.halted()) await delay(1_000);
    }
  }

  /** A method, not a field read: both flags change while the loops await. */
  private halted(): boolean {
    return this.stopping || this.paused;
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
      const unsettled = await this.process(batch);
      if (unsettled.length === 0) continue;
      // The store is away: stop pulling and give everything back; JetStream redelivers it later.
      this.paused = true;
      await this.messages?.close();
      for (const message of [...unsettled, ...this.queue.splice(0)]) message.nak();
      await this.waitForStore();
      this.paused = false;
      this.wakePump?.();
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
        message.term(result.error.code);
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

  private async commitOrIsolate(batch: readonly Decoded<T>[]): Promise<JsMsg[]> {
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
        only.message.term('refused by the store');
        observer.rejected(consumer, only.message, error instanceof Error ? error.message : String(error));
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
