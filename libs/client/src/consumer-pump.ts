import type { JsMsg } from '@nats-io/jetstream';
import type { NatsConnection, Status } from '@nats-io/nats-core';
import { setTimeout as sleep } from 'node:timers/promises';
import { LlmStreamClientError } from './client-error.js';

/** What {@link ConsumerPump.next} got: a message, the deadline, or the end after {@link ConsumerPump.close}. */
export type PumpResult = { readonly kind: 'message'; readonly message: JsMsg } | { readonly kind: 'timeout' } | { readonly kind: 'ended' };

/** A consumer being read. */
export interface OpenedConsumer {
  /** Its messages; after `stop()` they end once what was already received has been read. */
  readonly messages: AsyncIterator<JsMsg>;
  /**
   * Stops delivery at once and releases the consumer (an ephemeral one is deleted). Never waits: closing
   * nats.js's messages settles only when a reader reaches their end, and a delete may wait for JetStream.
   */
  readonly stop: () => void;
  /** Removes and returns what was received and not yet read (to hand it back); absent if it cannot. */
  readonly takeReceived?: () => JsMsg[];
}

/** Opens (or reopens) a consumer; `resumeFrom` is the stream sequence to continue at, if known. */
export type OpenConsumer = (resumeFrom: number | undefined) => Promise<OpenedConsumer>;

const REOPEN_BACKOFF_MS = [100, 250, 500, 1_000, 2_000, 5_000] as const;

/**
 * Reads one JetStream consumer's messages with a deadline, and keeps reading across reconnects and failures.
 *
 * After a reconnect the pump opens the consumer again itself, at the stream sequence after the last message
 * it passed on (a durable consumer continues from its acks). nats.js would also recover the consumer, but
 * its pull accounting can stall until the pending pull expires; a fresh consumer resumes at once. The same
 * happens, after a backoff, if the message iterator ends or fails while the connection lives. Messages the
 * old consumer had already received are still passed on first; the subscriptions drop by seq whatever
 * arrives twice. Only the first open may fail (a missing stream is a setup error, not a transient one).
 */
export class ConsumerPump {
  private consumer: OpenedConsumer | undefined;
  private iterator: AsyncIterator<JsMsg> | undefined;
  /** A `next()` that lost a race against the deadline: the next call waits for it instead of asking again. */
  private pending: Promise<IteratorResult<JsMsg>> | undefined;
  private closing = false;
  private resumeFrom: number | undefined;
  private opened = false;
  /** Aborted by close(): ends a reopen backoff at once. */
  private readonly closed = new AbortController();
  private reopenCount = 0;
  private readonly statuses: AsyncIterable<Status>;

  constructor(
    private readonly nc: NatsConnection,
    private readonly open: OpenConsumer,
  ) {
    this.statuses = nc.status();
    this.watchReconnects().catch(() => undefined);
  }

  /** How many times the consumer was opened again (after a reconnect, or after its messages ended). */
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
      if (this.isClosing()) return { kind: 'ended' };
      if (this.nc.isClosed()) throw new LlmStreamClientError('connection_closed', 'the NATS connection was closed');
      this.stop(this.consumer);
      this.iterator = undefined;
      this.reopenCount += 1;
    }
  }

  /** Messages received and not read when the pump was closed, removed (to hand back to the server). */
  takeReceived(): JsMsg[] {
    return this.consumer?.takeReceived?.() ?? [];
  }

  /** Stops the consumer; {@link next} then returns what was already received, then `ended`. */
  close(): void {
    if (this.closing) return;
    this.closing = true;
    this.closed.abort();
    stopIterating(this.statuses);
    this.stop(this.consumer);
  }

  private async watchReconnects(): Promise<void> {
    for await (const status of this.statuses) {
      // Ending the old consumer's messages makes next() open a new one once it has passed on what is left.
      if (status.type === 'reconnect' && !this.isClosing()) this.stop(this.consumer);
    }
  }

  private async backoff(ms: number): Promise<void> {
    await sleep(ms, undefined, { signal: this.closed.signal }).catch(() => undefined);
  }

  private stop(consumer: OpenedConsumer | undefined): void {
    consumer?.stop();
  }

  private async reopen(): Promise<AsyncIterator<JsMsg> | undefined> {
    for (let attempt = 0; !this.isClosing(); attempt += 1) {
      if (this.opened) await this.backoff(REOPEN_BACKOFF_MS[Math.min(attempt, REOPEN_BACKOFF_MS.length - 1)] ?? 0);
      if (this.isClosing()) break;
      try {
        this.consumer = await this.open(this.resumeFrom);
      } catch (error) {
        if (!this.opened) throw error;
        if (this.nc.isClosed()) throw new LlmStreamClientError('connection_closed', 'the NATS connection was closed', { cause: error });
        continue;
      }
      this.opened = true;
      this.iterator = this.consumer.messages;
      if (this.isClosing()) this.stop(this.consumer);
      return this.iterator;
    }
    return undefined;
  }

  /** Read through a method: `close()` may set it during any await. */
  private isClosing(): boolean {
    return this.closing;
  }
}

/** `nc.status()` is typed as a plain AsyncIterable; nats.js returns a queued iterator that can be stopped. */
function stopIterating(iterable: AsyncIterable<Status>): void {
  const stop = (iterable as { stop?: unknown }).stop;
  if (typeof stop === 'function') stop.call(iterable);
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
