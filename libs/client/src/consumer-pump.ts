import type { ConsumerMessages, JsMsg } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { LlmStreamClientError } from './client-error.js';

/** What {@link ConsumerPump.next} got: a message, the deadline, or the end after {@link ConsumerPump.close}. */
export type PumpResult = { readonly kind: 'message'; readonly message: JsMsg } | { readonly kind: 'timeout' } | { readonly kind: 'ended' };

/** A consumer's messages, and what to do with the consumer once they are no longer read. */
export interface OpenedConsumer {
  readonly messages: ConsumerMessages;
  /** Ephemeral consumers are deleted rather than left to expire on the server. */
  readonly dispose?: () => Promise<void>;
}

/** Opens (or reopens) a consumer; `resumeFrom` is the stream sequence to continue at, if known. */
export type OpenConsumer = (resumeFrom: number | undefined) => Promise<OpenedConsumer>;

const REOPEN_BACKOFF_MS = [250, 500, 1_000, 2_000, 5_000] as const;

/**
 * Reads one JetStream consumer's messages with a deadline, and keeps reading across failures.
 *
 * nats.js already carries a consumer across reconnects (an ordered consumer is recreated from its cursor, a
 * durable one is pulled again). Should the message iterator still end or fail while the connection lives,
 * the pump opens the consumer again after a backoff, at the stream sequence after the last message it
 * passed on; the subscriptions drop whatever is delivered twice by seq. Only the first open may fail (a
 * missing stream is a setup error, not a transient one).
 */
export class ConsumerPump {
  private consumer: OpenedConsumer | undefined;
  private iterator: AsyncIterator<JsMsg> | undefined;
  /** A `next()` that lost a race against the deadline: the next call waits for it instead of asking again. */
  private pending: Promise<IteratorResult<JsMsg>> | undefined;
  private closing = false;
  private resumeFrom: number | undefined;
  private opened = false;
  private wakeUp: (() => void) | undefined;
  private reopenCount = 0;

  constructor(
    private readonly nc: NatsConnection,
    private readonly open: OpenConsumer,
  ) {}

  /** How many times the consumer was opened again after its messages ended unexpectedly. */
  get reopens(): number {
    return this.reopenCount;
  }

  /** The next message, or `timeout` at `deadline` (ms since the epoch), or `ended` once closed and drained. */
  async next(deadline: number | undefined): Promise<PumpResult> {
    for (;;) {
      const iterator = this.iterator ?? (await this.reopen());
      if (iterator === undefined) return { kind: 'ended' };
      this.pending ??= iterator.next();
      let result: IteratorResult<JsMsg> | 'timeout';
      try {
        result = await raceDeadline(this.pending, deadline);
      } catch {
        result = { done: true, value: undefined };
      }
      if (result === 'timeout') return { kind: 'timeout' };
      this.pending = undefined;
      if (result.done !== true) {
        this.resumeFrom = result.value.seq + 1;
        return { kind: 'message', message: result.value };
      }
      if (this.closing) return { kind: 'ended' };
      if (this.nc.isClosed()) throw new LlmStreamClientError('connection_closed', 'the NATS connection was closed');
      this.iterator = undefined;
      this.reopenCount += 1;
      await this.stop(this.consumer);
    }
  }

  /**
   * Stops the consumer. Messages it had already received are still returned by {@link next}, then `ended`,
   * so a durable subscription can hand them back (nak) instead of leaving them to the ack wait.
   */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.wakeUp?.();
    await this.stop(this.consumer);
  }

  /**
   * `ConsumerMessages.close()` settles only once its iterator reaches the end marker, which needs a reader:
   * it is not awaited (its pull subscription and timers stop at once).
   */
  private async stop(consumer: OpenedConsumer | undefined): Promise<void> {
    if (consumer === undefined) return;
    void consumer.messages.close();
    await consumer.dispose?.().catch(() => undefined);
  }

  private async reopen(): Promise<AsyncIterator<JsMsg> | undefined> {
    for (let attempt = 0; !this.isClosing(); attempt += 1) {
      if (this.opened || attempt > 0) await this.pause(REOPEN_BACKOFF_MS[Math.min(attempt, REOPEN_BACKOFF_MS.length - 1)] ?? 0);
      if (this.isClosing()) break;
      try {
        this.consumer = await this.open(this.resumeFrom);
      } catch (error) {
        if (!this.opened) throw error;
        if (this.nc.isClosed()) throw new LlmStreamClientError('connection_closed', 'the NATS connection was closed', { cause: error });
        continue;
      }
      this.opened = true;
      this.iterator = this.consumer.messages[Symbol.asyncIterator]();
      if (this.isClosing()) await this.stop(this.consumer);
      return this.iterator;
    }
    return undefined;
  }

  /** Read through a method: `close()` may set it during any await. */
  private isClosing(): boolean {
    return this.closing;
  }

  /** Waits `ms`, or less if the pump is closed meanwhile. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

/** Settles with the promise's result, or with `timeout` at `deadline`; the timer never outlives the race. */
async function raceDeadline<T>(promise: Promise<T>, deadline: number | undefined): Promise<T | 'timeout'> {
  if (deadline === undefined) return promise;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      resolve('timeout');
    }, Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
