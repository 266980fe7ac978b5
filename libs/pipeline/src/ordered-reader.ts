import type { ConsumerMessages, JetStreamClient, JsMsg } from '@nats-io/jetstream';
import { ClosedConnectionError, DrainingConnectionError } from '@nats-io/nats-core';
import { DeliverPolicy, type Consumer } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { onConnectionChange } from './reconnects.js';

export interface OrderedReaderOptions {
  /** Messages asked for per pull (default 256). */
  readonly batch?: number;
  /** How long one pull stays open (default 5 s): a lost server or consumer is noticed within it. */
  readonly pullExpiresMs?: number;
  /** Pause before the next pull after a failed one (default 250 ms). */
  readonly retryDelayMs?: number;
  /** Headers without payloads. */
  readonly headersOnly?: boolean;
  /**
   * The connection `js` uses: after each of its reconnects the pull in flight is ended at once and the next
   * one recovers, instead of waiting for the pull's expiry.
   */
  readonly connection?: NatsConnection;
}

/**
 * A subject's messages in stored order, from the first, for as long as the caller iterates: the stored log of
 * one stream (its raw trace, its events), read live. It survives a NATS server restart or a lost consumer.
 *
 * It reads with a JetStream ordered consumer, one pull at a time (`fetch`), never `consume()`: after a
 * restart, nats.js 3.4's `consume()` recreates the ordered consumer but keeps the pull accounting of the
 * old one, asks for 0 messages and stalls for good. A failed pull just ends, and the next one recreates the
 * consumer at the stream sequence after the last message delivered, so nothing is skipped or repeated.
 */
export class OrderedReader implements AsyncIterable<JsMsg> {
  private closed = false;
  private current: ConsumerMessages | undefined;
  private wake: (() => void) | undefined;

  constructor(
    private readonly js: JetStreamClient,
    private readonly stream: string,
    private readonly subject: string,
    private readonly options: OrderedReaderOptions = {},
  ) {}

  /** Ends the iteration: at once if it waits for messages, else after the message being handled. */
  close(): void {
    this.closed = true;
    void this.current?.close();
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<JsMsg> {
    const pull = { max_messages: this.options.batch ?? 256, expires: this.options.pullExpiresMs ?? 5_000 };
    let consumer: Consumer | undefined;
    /** Stream sequence of the last message delivered: a new consumer starts right after it. */
    let lastStreamSeq = 0;
    /** Set by the reconnect listener (an object: the loop must not narrow it to its last assignment). */
    const reconnected = { reset: false };
    // After a reconnect the pull in flight asked a server that may have lost it and its consumer: end it now
    // and start a new consumer after the last message delivered, instead of waiting for the pull's expiry.
    const connection = this.options.connection;
    const stopListening =
      connection === undefined
        ? () => undefined
        : onConnectionChange(connection, (change) => {
            if (change !== 'reconnect') return;
            reconnected.reset = true;
            void this.current?.close();
          });
    try {
      while (!this.isClosed()) {
        try {
          if (reconnected.reset && consumer !== undefined) {
            void consumer.delete().catch(() => false);
            consumer = undefined;
          }
          reconnected.reset = false;
          // Looked up inside the loop: a lookup that fails (NATS restarting, a timeout under load) is retried too.
          consumer ??= await this.js.consumers.get(this.stream, {
            filter_subjects: this.subject,
            ...(lastStreamSeq > 0 && { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: lastStreamSeq + 1 }),
            ...(this.options.headersOnly === true && { headers_only: true }),
          });
          const messages = await consumer.fetch(pull);
          this.current = messages;
          if (this.isClosed()) break;
          for await (const message of messages) {
            lastStreamSeq = message.seq;
            yield message;
            if (this.isClosed()) break;
          }
        } catch (error) {
          if (this.isClosed()) break;
          if (error instanceof ClosedConnectionError || error instanceof DrainingConnectionError) throw error;
          // The server is restarting, the consumer is gone, the pull timed out: the next pull recovers.
          await this.pause(this.options.retryDelayMs ?? 250);
        }
      }
    } finally {
      stopListening();
      await this.current?.close();
      // An ordered consumer is ephemeral; deleting it now spares the server its inactivity timeout.
      await consumer?.delete().catch(() => false);
    }
  }

  /** A method, not the field: the field is narrowed to false inside the loop, though close() may run meanwhile. */
  private isClosed(): boolean {
    return this.closed;
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
