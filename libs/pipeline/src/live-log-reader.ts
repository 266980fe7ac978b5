import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection, Subscription } from '@nats-io/nats-core';
import { allowsDirectGets, nextStoredMessage } from './direct-reads.js';
import { LiveLogGapError } from './live-log-gap-error.js';
import { storedLogMessage, toLogMessage, type LogMessage } from './log-message.js';
import { storedMessageCount } from './stored-message-count.js';
import { OrderedReader } from './ordered-reader.js';
import { onConnectionChange } from './reconnects.js';
import { RetryLoop } from './retry-loop.js';

const MSG_ID_HEADER = 'Nats-Msg-Id';

/** Where a message goes in the subject's sequence: its 1-based key, or `unkeyed` (outside the sequence). */
export type LogPosition = number | 'unkeyed';

export interface LiveLogReaderOptions {
  /**
   * The message's 1-based place in the subject (a raw record's raw_seq, an event's seq); `unkeyed` for a
   * message outside the sequence (a normalizer's gateway.lost, raw_seq 0), which goes to `onUnkeyed` instead.
   * `undefined`: not one of ours, skipped.
   */
  readonly positionOf: (message: LogMessage) => LogPosition | undefined;
  /** Messages may have been stored before this reader subscribed: read them from JetStream first. */
  readonly catchUp: boolean;
  /** A message outside the sequence arrived (live or stored); the reader does not yield it. */
  readonly onUnkeyed?: (message: LogMessage) => void;
  /**
   * The most messages handed out beyond a gap (default {@link DEFAULT_MAX_WAITING}); the caller's reorder
   * buffer must hold at least as many.
   */
  readonly maxWaiting?: number;
  /**
   * One more message would go beyond `maxWaiting` past a gap the store has not filled: it is not handed out and
   * the caller takes over (the normalizer reads the trace in stored order, where the session's own bound
   * decides). Without it the iteration fails with a {@link LiveLogGapError}.
   */
  readonly onOverflow?: () => void;
  /**
   * The first look at the store while no live message has yet proven the subscription caught up (see
   * {@link LiveLogReader}); later looks double the pause, up to 30 s. Default 1,000 ms.
   */
  readonly unprovenCheckMs?: number;
}

/** The default bound of messages handed out beyond a gap: as many as a publisher keeps unacked. */
export const DEFAULT_MAX_WAITING = 16_384;

const DEFAULT_UNPROVEN_CHECK_MS = 1_000;
/**
 * The most messages a catch-up reads by direct gets before it reads with a consumer: a new stream's subject
 * holds one to three when its reader starts, a takeover's may hold thousands.
 */
const DIRECT_CATCH_UP_LIMIT = 16;
/** The longest pause between two looks at the store of a reader whose subscription is not proven yet. */
const MAX_UNPROVEN_CHECK_MS = 30_000;

/** Why the reader reads the store: see {@link LiveLogReader}. */
type RepairReason = 'catch-up' | 'gap' | 'reconnect' | 'unproven';

/** How the reader got to where it is, for tests and metrics. */
export interface LiveLogStats {
  /** Messages taken from the core subscription. */
  readonly live: number;
  /** Messages taken from JetStream (catch-up and repairs). */
  readonly stored: number;
  /** Reads of the stored log: the catch-up, after a gap, after a reconnect. */
  readonly repairs: number;
}

/**
 * One subject's messages, each key (1, 2, 3, ...) once and none missing, live, for as long as the caller
 * iterates: the raw trace of a stream for its normalizer, a stream's events for the gateway serving them.
 * Messages are handed out as they arrive, so key n can come after n+1..m (a message lost on the way and read
 * back from the store): the caller puts them in order, once (the session's SeqOrder by raw_seq, a feed's by seq).
 *
 * In the steady state a message costs a core subscription delivery and nothing else: no JetStream consumer,
 * no pull, no ack. JetStream (the stored log of the subject, which captures the same messages) is read only to
 *  - catch up: the messages stored before the subscription existed (`catchUp`);
 *  - repair a gap: a message arrived whose key is beyond the next one (the missing one was lost on the way,
 *    e.g. published into a dying connection, and will be stored by the publisher's repair);
 *  - recover from a reconnect: what was published while this connection was away is in the store; a count of
 *    the subject says whether anything is there that was not delivered, so an idle stream costs one request.
 * A stored read runs until the store has nothing more and no key is missing, then the consumer is deleted.
 * Duplicates (a resend, a message read both live and stored) are dropped by key.
 *
 * A message published before the subscription reached the server (before this reader existed, or while its
 * connection was away) is not delivered live, and may be stored only after the catch-up or the count looked:
 * JetStream stores what it receives a little later than the server routes it (seconds, on a server recovering
 * its store after a restart under load). When it is the subject's last message, no later message reveals the
 * gap, and the reader would wait for good. So after a catch-up or a reconnect, until a live message arrives that
 * is the next key (a publisher publishes in key order, so everything before it has been taken), the reader looks
 * at the store again after 1 s, 2 s, 4 s, ... (at most 30 s apart): a few counts per
 * catch-up or reconnect, none in the steady state.
 */
export class LiveLogReader implements AsyncIterable<LogMessage> {
  /** The lowest key not handed out yet. */
  private next = 1;
  /** Keys above `next` already handed out (beyond a gap): a gap is open while this is not empty. */
  private readonly beyond = new Set<number>();
  /** Ready for the iterator, in arrival order. */
  private readonly ready: LogMessage[] = [];
  /** Message ids of the unkeyed messages delivered (each counts once however often it arrives). */
  private readonly unkeyedSeen = new Set<string>();
  private wake: (() => void) | undefined;
  private closed = false;
  private failure: Error | undefined;
  private repairing = false;
  /** A reconnect while a stored read ran: the store is counted again after it. */
  private reconnected = false;
  private storedReader: OrderedReader | undefined;
  private readonly subscription: Subscription;
  private readonly stopListening: () => void;
  private readonly retrying: RetryLoop;
  private counts = { live: 0, stored: 0, repairs: 0 };
  private arrivedAt = Number.NEGATIVE_INFINITY;
  /**
   * False from a catch-up or a reconnect until a live message arrives that is the next key. Without a
   * catch-up nothing can be published before the subscription (the caller subscribes first).
   */
  private liveProven = true;
  private unprovenCheckMs = 0;
  private unprovenTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly stream: string,
    private readonly subject: string,
    private readonly options: LiveLogReaderOptions,
  ) {
    this.retrying = new RetryLoop(nc);
    // Subscribed at once, before anything the caller publishes next on this connection: the server registers
    // it first, so every message published after that is delivered live.
    this.subscription = nc.subscribe(subject, {
      callback: (error, message) => {
        if (error !== null) return;
        this.counts.live += 1;
        this.arrivedAt = Date.now();
        this.offer(toLogMessage(message), true);
      },
    });
    this.stopListening = onConnectionChange(nc, (change) => {
      if (change !== 'reconnect') return;
      this.unproven();
      this.requestRepair('reconnect');
    });
    if (options.catchUp) {
      this.unproven();
      this.requestRepair('catch-up');
    }
  }

  /** Epoch ms when the last live message came off the socket (evidence that its publisher is alive). */
  get lastArrivalAt(): number {
    return this.arrivedAt;
  }

  get stats(): LiveLogStats {
    return { ...this.counts };
  }

  /** Ends the iteration: at once if it waits for messages, else after the message being handled. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.subscription.unsubscribe();
    this.stopListening();
    this.retrying.stop();
    clearTimeout(this.unprovenTimer);
    this.storedReader?.close();
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<LogMessage> {
    try {
      while (!this.isClosed()) {
        const message = this.ready.shift();
        if (message !== undefined) {
          yield message;
          continue;
        }
        if (this.failure !== undefined) throw this.failure;
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
        this.wake = undefined;
      }
      // Closed because it gave up (a gap never repaired): the caller must not take the end for a clean one.
      if (this.failure !== undefined) throw this.failure;
    } finally {
      this.close();
    }
  }

  private overflow(): void {
    const waiting = this.beyond.size;
    this.beyond.clear();
    if (this.options.onOverflow !== undefined) {
      this.options.onOverflow();
      return;
    }
    this.failure = new LiveLogGapError(this.subject, this.next, waiting);
    this.close();
  }

  /** A method, not the field: close() may run while the iterator waits, and TypeScript would narrow the field. */
  private isClosed(): boolean {
    return this.closed;
  }

  private offer(message: LogMessage, live: boolean): void {
    if (this.closed) return;
    const position = this.options.positionOf(message);
    if (position === undefined) return;
    if (position === 'unkeyed') {
      const id = message.header(MSG_ID_HEADER) ?? '';
      if (this.unkeyedSeen.has(id)) return;
      this.unkeyedSeen.add(id);
      this.options.onUnkeyed?.(message);
      return;
    }
    if (live && position === this.next && !this.liveProven) {
      this.liveProven = true;
      clearTimeout(this.unprovenTimer);
    }
    if (position < this.next || this.beyond.has(position)) return;
    if (position > this.next) {
      if (this.beyond.size >= (this.options.maxWaiting ?? DEFAULT_MAX_WAITING)) {
        this.overflow();
        return;
      }
      this.beyond.add(position);
      // A key is missing: it was lost on the way here; the store has it, or will once its publisher resends it.
      this.requestRepair('gap');
    } else {
      this.next += 1;
      while (this.beyond.delete(this.next)) this.next += 1;
    }
    this.ready.push(message);
    this.wake?.();
  }

  /** A catch-up or a reconnect: messages published before the subscription may be stored later. */
  private unproven(): void {
    this.liveProven = false;
    this.unprovenCheckMs = this.options.unprovenCheckMs ?? DEFAULT_UNPROVEN_CHECK_MS;
  }

  /** After a repair, while the subscription is not proven: the next look at the store. */
  private scheduleUnprovenCheck(): void {
    if (this.closed || this.liveProven) return;
    clearTimeout(this.unprovenTimer);
    const delay = this.unprovenCheckMs;
    this.unprovenCheckMs = Math.min(delay * 2, MAX_UNPROVEN_CHECK_MS);
    this.unprovenTimer = setTimeout(() => {
      this.unprovenTimer = undefined;
      if (this.closed || this.liveProven) return;
      // A repair running now schedules the next look when it ends.
      this.requestRepair('unproven');
    }, delay);
    this.unprovenTimer.unref();
  }

  private requestRepair(reason: RepairReason): void {
    if (this.closed) return;
    if (this.repairing) {
      // A gap meanwhile is seen by the running repair (it reads until no key is missing). After a reconnect
      // the stored read in flight recovers by itself (OrderedReader), and the store is counted again after it.
      if (reason === 'reconnect') this.reconnected = true;
      return;
    }
    this.repairing = true;
    this.reconnected = false;
    void this.repair(reason).catch((error: unknown) => {
      if (this.closed) return;
      this.failure = error instanceof Error ? error : new Error(String(error));
      this.wake?.();
    });
  }

  /**
   * Reads the store until no key is missing. After a reconnect or while unproven, a count first asks whether it
   * holds anything undelivered; a catch-up first tries direct gets.
   */
  private async repair(reason: RepairReason): Promise<void> {
    try {
      let count = reason === 'reconnect' || reason === 'unproven';
      let direct = reason === 'catch-up';
      for (;;) {
        if (direct) {
          direct = false;
          if (!(await this.caughtUpDirectly())) await this.readStoredUntilCaughtUp();
        } else if (!count || (await this.storeHoldsMore())) await this.readStoredUntilCaughtUp();
        if (this.closed) return;
        // Checked with no await before `repairing` turns false: a gap that opens later starts a new repair.
        if (this.beyond.size > 0) {
          count = false;
          continue;
        }
        if (this.reconnected) {
          this.reconnected = false;
          count = true;
          continue;
        }
        return;
      }
    } finally {
      this.repairing = false;
      this.scheduleUnprovenCheck();
    }
  }

  /** Whether the subject's stored log may hold a message this reader has not delivered, or a key is missing. */
  private async storeHoldsMore(): Promise<boolean> {
    if (this.beyond.size > 0) return true;
    const stored = await this.retrying.run(`${this.subject}: stored count`, () => storedMessageCount(this.jsm, this.stream, this.subject));
    return stored > this.next - 1 + this.unkeyedSeen.size;
  }

  /**
   * The catch-up by direct gets, one message each, until a live message proves the subscription (the next key
   * arrived live, so every later one comes live too) or the store holds no more: true when caught up that way
   * with no key missing. Past {@link DIRECT_CATCH_UP_LIMIT} messages (a takeover's long trace), or when a get
   * fails or cannot be made (a server restarting, a stream without `allow_direct`), the consumer's read, which
   * waits for a missing key and retries, takes over; duplicates are dropped by key. On a replicated stream a
   * follower may answer a get before it stored the newest message: the looks at the store that follow a
   * catch-up until a live message proves the subscription (see the class comment) find it.
   */
  private async caughtUpDirectly(): Promise<boolean> {
    try {
      if (!(await allowsDirectGets(this.jsm, this.stream))) return false;
      this.counts.repairs += 1;
      let seq = 0;
      for (let read = 0; read < DIRECT_CATCH_UP_LIMIT; read++) {
        if (this.closed || (this.liveProven && this.beyond.size === 0)) return true;
        const stored = await nextStoredMessage(this.jsm, this.stream, this.subject, seq);
        if (stored === null) return this.beyond.size === 0;
        seq = stored.seq;
        this.counts.stored += 1;
        this.offer(storedLogMessage(stored), false);
      }
    } catch {
      return false;
    }
    return false;
  }

  private async readStoredUntilCaughtUp(): Promise<void> {
    if (this.closed) return;
    this.counts.repairs += 1;
    const reader = new OrderedReader(this.js, this.stream, this.subject, { connection: this.nc });
    this.storedReader = reader;
    try {
      for await (const message of reader) {
        this.counts.stored += 1;
        this.offer(toLogMessage(message), false);
        if (this.isClosed()) return;
        // The store had nothing more when this message was delivered, and nothing is missing: live from here.
        if (message.info.pending === 0 && this.beyond.size === 0) return;
      }
    } finally {
      reader.close();
      if (this.storedReader === reader) this.storedReader = undefined;
    }
  }
}
