import type { JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { assertNever } from '@llm-stream/contract';
import { PublishError } from '../publish-error.js';
import { RetryLoop } from '../retry-loop.js';
import { storedPositions } from '../stored-positions.js';
import { AckInbox, type AckTarget } from './ack-inbox.js';
import { deferPublish } from './deferred-publishes.js';
import { withHeader, type OutgoingMessage } from './outgoing-message.js';
import type { PubAck } from './pub-ack.js';

export interface AckedPublisherOptions {
  /** The header that carries a message's position: a settle reads it from the stored subject. */
  readonly positionHeader: string;
  /** A message not acked for this long is sent again with the same id (default 3,000 ms). */
  readonly ackTimeoutMs?: number;
  /**
   * A message is sent again only while it was first sent less than this long ago (default 60,000 ms, half the
   * streams' 2-minute duplicate window), so that JetStream still drops a second copy; an older one is settled
   * by reading what the subject holds first.
   */
  readonly resendWithinMs?: number;
  /**
   * The most unacked messages kept (default {@link DEFAULT_MAX_UNACKED}); above it {@link AckedPublisher.overflowing}
   * turns true and the owner must end the subject (the gateway ends the stream interrupted).
   */
  readonly maxUnacked?: number;
}

export interface FinishResult {
  /** The highest position published. */
  readonly published: number;
  /** Sends again of unacked messages (a timeout, a reconnect, a refusal). */
  readonly resent: number;
  /** Messages older than the resend window, settled by reading the subject. */
  readonly settledByRead: number;
  /** Messages sent fenced (see {@link AckedPublisher.fenceNext}), whether the fence held or not. */
  readonly fenced: number;
}

/** The default bound of {@link AckedPublisherOptions.maxUnacked}: 16,384 messages per subject. */
export const DEFAULT_MAX_UNACKED = 16_384;

interface InFlight {
  readonly message: OutgoingMessage;
  firstSentAt: number;
  sentAt: number;
}

/**
 * Where the fence stands: none; `armed` (the next message goes fenced); `draining` (that message waits for every
 * earlier one to be acked); `sent` (it is in flight, `original` without the fence header).
 */
type Fence =
  | { readonly state: 'none' }
  | { readonly state: 'armed' }
  | { readonly state: 'draining' }
  | { readonly state: 'sent'; readonly position: number; readonly original: OutgoingMessage };

const NO_FENCE: Fence = { state: 'none' };

interface Waiter {
  readonly resolve: () => void;
  readonly reject: (error: PublishError) => void;
}

/**
 * Publishes one subject's messages and proves each one stored by its own JetStream ack. Every message is
 * core-published with its `Nats-Msg-Id` and a reply subject of the connection's {@link AckInbox}; nothing waits
 * for one ack before the next message goes. A message is stored when its PubAck arrives, and only then. One not
 * acked within `ackTimeoutMs`, refused, or in flight at a reconnect is sent again with the same id, which
 * JetStream drops as a duplicate if it had stored it; past `resendWithinMs` that guarantee ends, so such a
 * message is settled by reading the positions the subject holds before anything is sent again: nothing is
 * stored twice. It never gives up while the process lives; {@link close} ends it.
 *
 * A fence ({@link fenceNext}): the next message waits until every earlier one is acked and goes with
 * `Nats-Expected-Last-Subject-Sequence` set to the newest stored one's sequence, so JetStream refuses it if
 * anyone else wrote to the subject since; `onFenced` then hears it, and the message and those after it go
 * again without the fence (the subject stays whole).
 */
export class AckedPublisher implements AckTarget {
  private readonly inFlight = new Map<number, InFlight>();
  /** Messages behind a fence (the fenced one first while it drains), not sent yet. */
  private held: OutgoingMessage[] = [];
  private fence: Fence = NO_FENCE;
  private highest = 0;
  /** The stream sequence of the newest message of this publisher JetStream stored. */
  private lastStoredSeq = 0;
  private resent = 0;
  private settledByRead = 0;
  private fencedSends = 0;
  private settling = false;
  private closed = false;
  private readonly finishing: Waiter[] = [];
  private readonly positionWaiters = new Map<number, Waiter>();
  private readonly id: string;
  private readonly inbox: AckInbox;
  private readonly retrying: RetryLoop;
  private readonly ackTimeoutMs: number;
  private readonly resendWithinMs: number;
  private readonly maxUnacked: number;
  private progress: ((ackedThrough: number) => void) | undefined;
  private fencedListener: (() => void) | undefined;

  constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly streamName: string,
    private readonly subject: string,
    private readonly options: AckedPublisherOptions,
  ) {
    this.inbox = AckInbox.of(nc);
    this.id = this.inbox.register(this);
    this.retrying = new RetryLoop(nc);
    this.ackTimeoutMs = options.ackTimeoutMs ?? 3_000;
    this.resendWithinMs = options.resendWithinMs ?? 60_000;
    this.maxUnacked = options.maxUnacked ?? DEFAULT_MAX_UNACKED;
  }

  /** Every position published up to this one is acked. */
  get ackedThrough(): number {
    const first = this.inFlight.keys().next();
    const heldFirst = this.held[0]?.position;
    const unacked = first.done === true ? heldFirst : Math.min(first.value, heldFirst ?? first.value);
    return unacked === undefined ? this.highest : unacked - 1;
  }

  /** Sends again so far (a timeout, a reconnect, a refusal). */
  get resentCount(): number {
    return this.resent;
  }

  /** Messages published and not acked yet. */
  get unackedCount(): number {
    return this.inFlight.size + this.held.length;
  }

  /** More messages wait for acks than the bound allows: the owner must end the subject now. */
  get overflowing(): boolean {
    return this.unackedCount > this.maxUnacked;
  }

  /** Called with {@link ackedThrough} whenever it moves. */
  onProgress(listener: (ackedThrough: number) => void): void {
    this.progress = listener;
  }

  /** Called once if a fenced message is refused because another writer added to the subject. */
  onFenced(listener: () => void): void {
    this.fencedListener = listener;
  }

  /** The next message published goes fenced (see the class comment). */
  fenceNext(): void {
    if (this.fence.state === 'none') this.fence = { state: 'armed' };
  }

  publish(message: OutgoingMessage): void {
    this.highest = Math.max(this.highest, message.position);
    switch (this.fence.state) {
      case 'none':
        this.send(message);
        return;
      case 'armed':
        this.fence = { state: 'draining' };
        this.held.push(message);
        this.sendFencedWhenDrained();
        return;
      case 'draining':
      case 'sent':
        this.held.push(message);
        return;
      default:
        assertNever(this.fence, 'fence');
    }
  }

  /**
   * Publishes and resolves once the message is acked, or rejects after `timeoutMs` with a `not_stored`
   * {@link PublishError}; the message stays in flight either way (it is sent again until acked).
   */
  publishAndWait(message: OutgoingMessage, timeoutMs: number): Promise<void> {
    this.publish(message);
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.positionWaiters.delete(message.position);
        reject(new PublishError('not_stored', `${this.subject}: JetStream did not ack ${message.msgId} within ${String(timeoutMs)} ms`));
      }, timeoutMs);
      this.positionWaiters.set(message.position, {
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
    });
  }

  /** Call after the subject's last message: resolves once every message published is acked. */
  finish(): Promise<FinishResult> {
    return new Promise<void>((resolve, reject) => {
      if (this.closed) reject(this.closedError());
      else if (this.unackedCount === 0) resolve();
      else this.finishing.push({ resolve, reject });
    }).then(() => ({ published: this.highest, resent: this.resent, settledByRead: this.settledByRead, fenced: this.fencedSends }));
  }

  /** Stops: whoever waits for acks gets a `not_stored` PublishError (shutdown, tests). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.retrying.stop();
    this.inbox.unregister(this.id);
    const error = this.closedError();
    for (const waiter of this.finishing.splice(0)) waiter.reject(error);
    for (const waiter of this.positionWaiters.values()) waiter.reject(error);
    this.positionWaiters.clear();
  }

  acked(position: number, ack: PubAck): void {
    const entry = this.inFlight.get(position);
    if (entry === undefined) return;
    const fenced = this.fence.state === 'sent' && this.fence.position === position ? this.fence : undefined;
    if (!ack.ok) {
      if (ack.refusal === 'wrong_last_sequence' && fenced !== undefined) {
        this.fenceRefused(fenced.original);
        return;
      }
      // Sent again by the next sweep after a short pause (a leader election, a stream not available yet).
      entry.sentAt = Math.min(entry.sentAt, Date.now() - this.ackTimeoutMs + 200);
      return;
    }
    this.lastStoredSeq = Math.max(this.lastStoredSeq, ack.seq);
    this.stored(position);
    if (fenced !== undefined) this.releaseHeld();
  }

  sweep(now: number): void {
    this.sendOverdue(now, this.ackTimeoutMs);
  }

  /** After a reconnect every message in flight is overdue: it may have been lost with the old connection. */
  reconnected(): void {
    this.sendOverdue(Date.now(), 0);
  }

  /** Sends again what has waited `unackedForMs` or longer for its ack; what is past the resend window is settled. */
  private sendOverdue(now: number, unackedForMs: number): void {
    if (this.settling || this.closed) return;
    let settle = false;
    for (const entry of this.inFlight.values()) {
      if (now - entry.sentAt < unackedForMs) continue;
      if (now - entry.firstSentAt < this.resendWithinMs) this.sendAgain(entry, now);
      else settle = true;
    }
    if (settle) void this.settle();
  }

  private send(message: OutgoingMessage): void {
    const now = Date.now();
    const existing = this.inFlight.get(message.position);
    if (existing !== undefined) {
      this.sendAgain(existing, now);
      return;
    }
    const wasIdle = this.inFlight.size === 0;
    this.inFlight.set(message.position, { message, firstSentAt: now, sentAt: now });
    if (wasIdle) this.inbox.busy(this);
    this.transmit(message);
  }

  private sendAgain(entry: InFlight, now: number): void {
    entry.sentAt = now;
    this.resent += 1;
    this.transmit(entry.message);
  }

  private transmit(message: OutgoingMessage): void {
    deferPublish({ nc: this.nc, subject: this.subject, data: message.data, headerBlock: message.headerBlock, reply: this.inbox.replySubject(this.id, message.position) });
  }

  private stored(position: number): void {
    // Only the oldest message in flight holds ackedThrough back (the map keeps publication order).
    const wasOldest = this.inFlight.keys().next().value === position;
    this.inFlight.delete(position);
    this.positionWaiters.get(position)?.resolve();
    this.positionWaiters.delete(position);
    if (this.inFlight.size === 0) {
      this.inbox.idle(this);
      if (this.fence.state === 'draining') this.sendFencedWhenDrained();
    }
    if (wasOldest) this.progress?.(this.ackedThrough);
    if (this.unackedCount === 0) for (const waiter of this.finishing.splice(0)) waiter.resolve();
  }

  /** The first held message goes with the fence once nothing is in flight: then the newest stored sequence is known. */
  private sendFencedWhenDrained(): void {
    if (this.inFlight.size > 0) return;
    const original = this.held.shift();
    if (original === undefined) {
      this.fence = NO_FENCE;
      return;
    }
    this.fence = { state: 'sent', position: original.position, original };
    this.fencedSends += 1;
    this.send(withHeader(original, 'Nats-Expected-Last-Subject-Sequence', String(this.lastStoredSeq)));
  }

  /** The fence held, or was refused: what waited behind it goes now. */
  private releaseHeld(): void {
    this.fence = NO_FENCE;
    const release = this.held;
    this.held = [];
    for (const message of release) this.send(message);
  }

  /** Another writer added to the subject: the owner hears it, and the trace is completed without the fence. */
  private fenceRefused(original: OutgoingMessage): void {
    this.inFlight.delete(original.position);
    this.fencedListener?.();
    this.fencedListener = undefined;
    this.held.unshift(original);
    this.releaseHeld();
  }

  /**
   * Messages first sent longer ago than the resend window: a second copy might be stored twice, so the subject's
   * positions are read first; the ones it holds are stored, the others go again as new.
   */
  private async settle(): Promise<void> {
    this.settling = true;
    try {
      const present = await this.retrying.run(`${this.subject}: reading the stored positions`, () =>
        storedPositions(this.js, this.streamName, this.subject, this.options.positionHeader),
      );
      const now = Date.now();
      for (const entry of [...this.inFlight.values()]) {
        if (now - entry.firstSentAt < this.resendWithinMs) continue;
        this.settledByRead += 1;
        if (present.has(entry.message.position)) {
          this.stored(entry.message.position);
          continue;
        }
        entry.firstSentAt = now;
        this.sendAgain(entry, now);
      }
    } catch {
      // Closed meanwhile: close() has told whoever waits.
    } finally {
      this.settling = false;
    }
  }

  private closedError(): PublishError {
    return new PublishError('not_stored', `${this.subject}: the publisher closed with ${String(this.unackedCount)} messages unacked`);
  }
}
