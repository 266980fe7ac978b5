import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { EncodedHeaders } from './encoded-headers.js';
import { headersOfBlock } from './header-block.js';
import { PublishError } from './publish-error.js';
import { onConnectionChange, type ConnectionChange } from './reconnects.js';
import { RetryLoop, type RetryDelays } from './retry-loop.js';
import { missingPositions, storedPositions } from './stored-positions.js';

/** How many messages a stream holds for one (literal) subject. */
export async function storedMessageCount(jsm: JetStreamManager, streamName: string, subject: string): Promise<number> {
  const info = await jsm.streams.info(streamName, { subjects_filter: subject });
  return info.state.subjects?.[subject] ?? 0;
}

/**
 * One message for the publisher's subject. `msgId` is its `Nats-Msg-Id`; `position` is its 1-based place in
 * the subject (an event's seq, a record's raw_seq), so the subject must end up holding exactly `position`
 * messages once the last one is stored, even when some were published twice by two owners.
 */
export interface OutgoingMessage {
  readonly data: string;
  readonly msgId: string;
  readonly position: number;
  /** The message's headers as a serialized NATS header block (see header-block.ts and the message encoders). */
  readonly headerBlock: string;
}

export interface FinishResult {
  /** Messages the subject must hold: the highest position published. */
  readonly published: number;
  /** Messages the stream holds for the subject. */
  readonly stored: number;
  /** Messages sent again with a JetStream ack because the stream did not hold them all. */
  readonly republished: number;
  /**
   * How the end was proven: `count`, the stream's per-subject count (the usual way, one request); `read`, the
   * subject read to its end, because the count stayed short after every kept message was acked (a server
   * whose count disagrees with what it holds, see stored-positions.ts); `read_shared`, read because another
   * writer may have added to the subject ({@link CheckpointedPublisherOptions.othersMayHaveWritten}).
   */
  readonly provenBy: 'count' | 'read' | 'read_shared';
}

export interface CheckpointedPublisherOptions {
  /**
   * The header that carries a message's {@link OutgoingMessage.position} (an event's seq, a record's
   * raw_seq): when a count cannot prove the end, the subject is read and this says which positions it holds.
   */
  readonly positionHeader: string;
  /** Try to confirm storage after this many unconfirmed messages (default 256). */
  readonly checkpointEvery?: number;
  /** Above this many unconfirmed messages the oldest are republished with acks (default 4096). */
  readonly maxUnconfirmed?: number;
  /**
   * The most unconfirmed messages kept in memory while JetStream confirms none (NATS is down or paused);
   * default {@link DEFAULT_MAX_BUFFERED}. Above it {@link CheckpointedPublisher.overflowing} turns true: the
   * owner must end the subject (the gateway ends the stream interrupted), it is never dropped silently.
   */
  readonly maxBuffered?: number;
  /**
   * Asked after each count: true once another writer may have added a message to the subject (the
   * normalizer's gateway.lost in a raw trace, after this gateway's lease may have lapsed). Such a message
   * counts like one of the publisher's, so one lost message would make the count come out right; from then
   * on checkpoints, the repair after a reconnect and the end do not trust the count: the subject's positions
   * are read (its headers, once per `checkpointEvery` messages and at the end). Default: never.
   */
  readonly othersMayHaveWritten?: () => boolean;
  /** Waits between two tries of a JetStream call that failed (default 100 ms doubling up to 2 s). */
  readonly retry?: RetryDelays;
  /**
   * A storage check also runs once the oldest unconfirmed message is this old (default 1,000 ms), and what it
   * proves missing (fewer stored than were sent before its barrier, see confirmedCount) is republished with
   * acks then, not at the end of the subject: a reader waiting at the gap (a backend's client gives a gap 5 s)
   * gets it within about twice this.
   */
  readonly repairAfterMs?: number;
  /**
   * The newest unconfirmed message is sent again as a barrier before a count only while it is younger than
   * this (default 60,000 ms, half the streams' 2-minute duplicate window): an older one could be stored twice.
   */
  readonly barrierMaxAgeMs?: number;
}

/** Acked republish rounds of {@link CheckpointedPublisher.finish} before a shortfall counts as lost for good. */
const MAX_REPAIR_ROUNDS = 3;

/** How many missing positions a {@link PublishError} names. */
const NAMED_MISSING = 10;

/** The default bound of {@link CheckpointedPublisherOptions.maxBuffered}: 16,384 messages per subject. */
export const DEFAULT_MAX_BUFFERED = 16_384;

/** Acked publishes of a repair in flight at once (see sendAll). */
const ACKED_WINDOW = 256;

/**
 * A storage check proves at most this many unconfirmed messages by their own acks instead of a barrier and a
 * count (see proveByAcks): a quiet subject, such as an idle stream's heartbeats (two per check).
 */
const ACK_PROOF_MAX = 2;

/**
 * Publishes one subject's messages without a round trip per message, and still proves they are stored, and
 * never gives up while the process lives: a JetStream call that fails (NATS restarting, paused, a leader
 * change) is tried again until it succeeds, and every message stays in memory until a count or an ack
 * confirms it, so what was sent before a NATS restart is republished after it. Only {@link close} (the
 * connection closing, a shutdown) ends the retries, with a {@link PublishError}.
 *
 * Messages are core-published into a subject a JetStream stream captures: no ack wait on the hot path.
 * Storage is confirmed by counting: the stream reports how many messages it holds for the subject, and since
 * `Nats-Msg-Id` deduplication forbids doubles, holding as many messages as the highest position published
 * proves nothing was lost. Each count follows a barrier (the newest message sent again with an ack), so it
 * sees every message sent before it: a shortfall is a loss, never a server that is only behind. Checkpoints drop
 * confirmed messages from memory and republish what they prove lost; `finish()`, called after the subject's
 * last message, is exact: whatever is missing is republished with JetStream acks (a JetStream leader change
 * drops core publishes silently), and a count that stays short of what JetStream acked is checked by reading
 * the subject's positions, so a server that miscounts (nats-server 2.9.10 after a kill -9) neither fails the
 * subject nor gets its stored messages republished past the duplicate window. If confirmations lag far
 * behind, the oldest messages are republished with acks, which bounds the memory kept per subject. A count
 * cannot tell whose messages it counts: once another writer may have added to the subject
 * ({@link CheckpointedPublisherOptions.othersMayHaveWritten}), checkpoints and the end read its positions.
 */
export class CheckpointedPublisher {
  private unconfirmed: OutgoingMessage[] = [];
  private published = 0;
  private checking = false;
  private backgroundError: unknown;
  private readonly every: number;
  private readonly maxUnconfirmed: number;
  private readonly maxBuffered: number;
  private readonly retrying: RetryLoop;
  private stopListening: (() => void) | undefined;
  /** Since a disconnect, until the repair after the reconnect: new messages wait here, in order. */
  private holding = false;
  private held: OutgoingMessage[] = [];
  /** The highest position sent before the hold began: what the subject must hold before the held ones go. */
  private sentBeforeHold = 0;
  private repairing = false;
  private repaired = 0;
  private readonly repairAfterMs: number;
  /** When the oldest unconfirmed message was published (ms): a check is due once it is `repairAfterMs` old. */
  private unconfirmedSince = 0;
  /** When each unconfirmed message was published (ms), for the timed repair. */
  private readonly publishedAt = new WeakMap<OutgoingMessage, number>();
  private readonly barrierMaxAgeMs: number;
  private readonly positionHeader: string;
  /** The newest message kept was published with an ack: JetStream has processed everything sent before it. */
  private newestAcked = false;
  private readonly othersMayHaveWritten: () => boolean;

  constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly streamName: string,
    private readonly subject: string,
    options: CheckpointedPublisherOptions,
  ) {
    this.positionHeader = options.positionHeader;
    this.every = options.checkpointEvery ?? 256;
    this.maxUnconfirmed = options.maxUnconfirmed ?? 4_096;
    this.maxBuffered = options.maxBuffered ?? DEFAULT_MAX_BUFFERED;
    this.retrying = new RetryLoop(nc, options.retry);
    this.repairAfterMs = options.repairAfterMs ?? 1_000;
    this.barrierMaxAgeMs = options.barrierMaxAgeMs ?? 60_000;
    this.othersMayHaveWritten = options.othersMayHaveWritten ?? (() => false);
  }

  /** More messages wait for confirmation than the bound allows: the owner must end the subject now. */
  get overflowing(): boolean {
    return this.unconfirmed.length > this.maxBuffered;
  }

  /** Ends the retries: a call waiting for JetStream fails with a PublishError (shutdown, tests). */
  close(): void {
    this.stopListening?.();
    this.retrying.stop();
  }

  /** Messages republished with acks before the end because two timed checks found them missing. */
  get repairedEarly(): number {
    return this.repaired;
  }

  /** Messages kept for a possible repair. */
  get unconfirmedCount(): number {
    return this.unconfirmed.length;
  }

  /** Core-publishes a message; a storage check starts in the background when enough are unconfirmed. */
  publish(message: OutgoingMessage): void {
    this.stopListening ??= onConnectionChange(this.nc, (change) => {
      this.connectionChanged(change);
    });
    if (this.holding) this.held.push(message);
    else deferPublish(this.nc, this.subject, message);
    const now = Date.now();
    this.keep(message, now);
    this.newestAcked = false;
    const due = this.unconfirmed.length >= this.every || now - this.unconfirmedSince >= this.repairAfterMs;
    if (due && !this.checking && !this.holding) {
      this.checking = true;
      this.checkpoint()
        .catch((error: unknown) => {
          this.backgroundError = error;
        })
        .finally(() => {
          this.checking = false;
        });
    }
  }

  /**
   * Publishes with a JetStream ack (no storage doubt): for the messages that open or close a subject. It
   * tries until JetStream accepts; `{retry: false}` tries once and rejects at once (a stream being opened
   * is refused instead of waiting for NATS).
   */
  async publishAcked(message: OutgoingMessage, options: { readonly retry?: boolean } = {}): Promise<void> {
    flushDeferredPublishes();
    if (options.retry === false) await this.sendOnce(message);
    else await this.send(message);
    // Kept until a count confirms it like any other, so that finish() counts it in the highest position.
    this.keep(message, Date.now());
    this.newestAcked = true;
  }

  /** Remembers a sent message until a count confirms it. */
  private keep(message: OutgoingMessage, now: number): void {
    if (this.unconfirmed.length === 0) this.unconfirmedSince = now;
    this.unconfirmed.push(message);
    this.publishedAt.set(message, now);
    this.published = Math.max(this.published, message.position);
  }

  /**
   * Call after the subject's last message: proves every message stored, republishing what is missing.
   *
   * The proof is the subject's count. When it falls short, every kept message is republished with an ack (a
   * stored one comes back as a duplicate) and the count is taken again. If it is still short although
   * JetStream acked them all, the count is not trusted alone: the subject is read to its end, and only the
   * positions it really lacks are republished. A position that is missing and no longer kept in memory (a
   * count had confirmed it, and the server lost it since) is lost for good: a {@link PublishError} names it.
   * When another writer may have added to the subject ({@link CheckpointedPublisherOptions.othersMayHaveWritten}),
   * the subject is read at once, after the count, and only what it lacks is republished.
   */
  async finish(): Promise<FinishResult> {
    this.stopListening?.();
    // The end takes over a hold: every unconfirmed message (the held ones too) is republished in order below.
    // Held messages were never sent: none of them may go ahead of the others as a barrier.
    const sentAll = !this.holding && this.held.length === 0;
    this.holding = false;
    this.held = [];
    this.rethrowBackgroundError();
    const counted = await this.confirmedCount(sentAll);
    // Asked after the count: a message another writer added before it is in the count only if the answer is true.
    if (this.othersMayHaveWritten()) return this.repairUntilStored(0);
    if (counted >= this.published) return this.finished(counted, 0, 'count');
    // Some are missing (dropped core publishes, or lost by a server that crashed before writing them).
    await this.sendAll(this.unconfirmed);
    return this.repairUntilStored(this.unconfirmed.length);
  }

  /**
   * Rounds of proof and repair after every kept message was sent: the count proves the subject stored when
   * it is whole and no other writer may have added to it; otherwise the subject's positions are read and the
   * kept messages it lacks are republished with acks, up to {@link MAX_REPAIR_ROUNDS} times.
   */
  private async repairUntilStored(republishedBefore: number): Promise<FinishResult> {
    let republished = republishedBefore;
    for (let round = 1; ; round += 1) {
      // Asked before the count to skip one that could prove nothing, and after it, since a message another
      // writer added before the count is in it only if the answer is true by then.
      if (!this.othersMayHaveWritten()) {
        const stored = await this.confirmedCount();
        if (stored >= this.published && !this.othersMayHaveWritten()) return this.finished(stored, republished, 'count');
      }
      const present = await this.readPositions();
      const missing = missingPositions(present, this.published);
      if (missing.length === 0) return this.finished(this.published, republished, this.othersMayHaveWritten() ? 'read_shared' : 'read');
      const kept = this.unconfirmed.filter((message) => !present.has(message.position));
      const keptPositions = new Set(kept.map((message) => message.position));
      const gone = missing.filter((position) => !keptPositions.has(position));
      if (gone.length > 0 || round >= MAX_REPAIR_ROUNDS) throw this.notStored(gone.length > 0 ? gone : missing, gone.length > 0);
      await this.sendAll(kept);
      republished += kept.length;
    }
  }

  /** The positions the subject holds, read to its end; tried until NATS answers. */
  private readPositions(): Promise<Set<number>> {
    return this.retrying.run(`${this.subject}: reading the stored positions`, () =>
      storedPositions(this.js, this.streamName, this.subject, this.positionHeader),
    );
  }

  private finished(stored: number, republished: number, provenBy: FinishResult['provenBy']): FinishResult {
    this.unconfirmed = [];
    return { published: this.published, stored, republished, provenBy };
  }

  private notStored(missing: readonly number[], forgotten: boolean): PublishError {
    const named = missing.slice(0, NAMED_MISSING).join(', ') + (missing.length > NAMED_MISSING ? ', ...' : '');
    const why = forgotten ? 'confirmed once and no longer kept, so they cannot be republished' : `still missing after ${String(MAX_REPAIR_ROUNDS)} acked republish rounds`;
    return new PublishError('not_stored', `${this.subject}: ${String(missing.length)} of ${String(this.published)} messages are not stored (positions ${named}): ${why}`);
  }

  /**
   * A disconnect starts a hold: what is core-published into a dying connection may be lost, and what follows
   * it must not be stored before the repair of that loss, or the stored order would no longer be the
   * publication order. The reconnect starts the repair.
   */
  private connectionChanged(change: ConnectionChange): void {
    if (change === 'disconnect') {
      if (!this.holding) this.sentBeforeHold = this.published;
      this.holding = true;
      return;
    }
    if (this.repairing || !this.holding) return;
    this.repairing = true;
    this.repair()
      .catch(() => undefined)
      .finally(() => {
        this.repairing = false;
      });
  }

  /**
   * After a reconnect: whatever the server lost (a crash loses what it had not written yet) is republished
   * with acks, in order, then the held messages go out, so the subject's stored order stays the publication
   * order and readers waiting at a gap go on at once, not at the end of the stream.
   */
  private async repair(): Promise<void> {
    const stored = await this.confirmedCount(false);
    // Another writer's message in the count could hide a lost one: then every message sent before the hold goes again.
    if (stored < this.sentBeforeHold || this.othersMayHaveWritten()) {
      const held = new Set(this.held);
      await this.sendAll(this.unconfirmed.filter((each) => !held.has(each)));
    }
    if (!this.holding) return;
    this.holding = false;
    const release = this.held;
    this.held = [];
    for (const message of release) deferPublish(this.nc, this.subject, message);
  }

  /**
   * How many messages the subject holds, counted once JetStream has processed every message sent before the
   * count: stored, or dropped. A core publish is stored asynchronously (nats-server queues it for the stream),
   * so a count after a mere flush can lag behind by as long as the server is busy; under load that lag read
   * as loss and set off acked republishes of messages that were only queued, which loaded the server more.
   * JetStream answers an acked publish only after the messages the same connection sent before it, so the
   * newest message is sent again with an ack first (a duplicate it drops, or the repair of a lost one).
   * `sendNewest: false`: some kept messages were never sent (a hold), which must not be stored before the
   * ones ahead of them; the count then follows a flush only.
   */
  private confirmedCount(sendNewest = true): Promise<number> {
    flushDeferredPublishes();
    const newest = sendNewest && !this.newestAcked ? this.unconfirmed.at(-1) : undefined;
    const fresh = newest !== undefined && this.sendableAgain(newest, Date.now());
    return this.retrying.run(`${this.subject}: storage check`, async () => {
      if (fresh) await this.publishWithAck(newest);
      else await this.nc.flush();
      return storedMessageCount(this.jsm, this.streamName, this.subject);
    });
  }

  /**
   * A storage check while the subject is being published. A count proves storage only while no other writer
   * may have added to the subject (asked after the count); then a count that comes out right forgets every
   * kept message. Otherwise a whole count proves nothing and nothing is forgotten on it, but once
   * `checkpointEvery` messages wait the positions are read: what the subject holds is forgotten. (A read per
   * timed check instead cost the 5-minute chaos run 16 % of its streams: after a NATS pause every open stream
   * of a gateway is in doubt at once.) Either way, a count below what was sent before the barrier proves a
   * loss (another's message can only make it too high), and so does a read that lacks one: what was sent
   * before the barrier and is still kept is republished now.
   */
  private async checkpoint(): Promise<void> {
    if (this.provableByAcks()) {
      await this.proveByAcks();
      return;
    }
    // Every message up to here is processed by JetStream when the count is taken (the barrier).
    const sent = this.published;
    const stored = await this.confirmedCount();
    const shared = this.othersMayHaveWritten();
    // `published` is read after the count arrived: every message sent before the count was taken is in it.
    if (!shared && stored >= this.published) {
      this.unconfirmed = [];
      return;
    }
    const read = shared && this.unconfirmed.length >= this.every;
    if (read) {
      const present = await this.readPositions();
      this.unconfirmed = this.unconfirmed.filter((message) => !present.has(message.position));
    }
    // (A lost one can hide behind newer ones stored before the count; the next check or finish() finds it.)
    if (read || stored < sent) await this.republishUpTo(sent);
    // The next timed check counts from now.
    this.unconfirmedSince = Date.now();
    if (this.unconfirmed.length > this.maxUnconfirmed) await this.republish(this.unconfirmed.length - this.maxUnconfirmed);
  }

  /** Few enough unconfirmed messages to prove by their acks, each young enough to be sent again. */
  private provableByAcks(): boolean {
    if (this.unconfirmed.length > ACK_PROOF_MAX) return false;
    const now = Date.now();
    return this.unconfirmed.every((message) => this.sendableAgain(message, now));
  }

  /** Published less than `barrierMaxAgeMs` ago: sent again with its id, it is still a duplicate JetStream drops. */
  private sendableAgain(message: OutgoingMessage, now: number): boolean {
    return now - (this.publishedAt.get(message) ?? 0) < this.barrierMaxAgeMs;
  }

  /**
   * A quiet subject's storage check: its few unconfirmed messages are sent again with acks (pipelined, one
   * round trip), and each ack proves its own message stored, a duplicate JetStream dropped or the repair of
   * one it lost, whoever else writes to the subject. That is as many requests as a barrier and a count, and
   * no count: on nats-server 2.9 a count walks every subject the stream holds, and an idle stream's two
   * publishers (its heartbeat records, their events) each ran one every second heartbeat.
   */
  private async proveByAcks(): Promise<void> {
    flushDeferredPublishes();
    const proven = this.unconfirmed.slice();
    await this.sendAll(proven);
    const stored = new Set(proven);
    this.unconfirmed = this.unconfirmed.filter((message) => !stored.has(message));
    // The next timed check counts from now.
    this.unconfirmedSince = Date.now();
  }

  /** Republishes with acks, in order, every unconfirmed message up to `position`, and forgets them. */
  private async republishUpTo(position: number): Promise<void> {
    const overdue = this.unconfirmed.filter((message) => message.position <= position);
    await this.sendAll(overdue);
    this.repaired += overdue.length;
    const sent = new Set(overdue);
    this.unconfirmed = this.unconfirmed.filter((message) => !sent.has(message));
  }

  /** Republishes the oldest `count` unconfirmed messages with acks and forgets them. */
  private async republish(count: number): Promise<number> {
    const batch = this.unconfirmed.slice(0, count);
    await this.sendAll(batch);
    this.unconfirmed = this.unconfirmed.slice(batch.length);
    return batch.length;
  }

  private async sendOnce(message: OutgoingMessage): Promise<void> {
    try {
      await this.publishWithAck(message);
    } catch (cause) {
      throw new PublishError('not_stored', `${this.subject}: JetStream did not accept ${message.msgId}`, { cause });
    }
  }

  /**
   * Publishes `messages` with JetStream acks, pipelined: a window of them goes out in order at once and their
   * acks are awaited together, so a repair costs a round trip per window, not per message. One by one, a
   * server recovering its store after a restart (acks late, some timing out at 5 s before a retry) made a
   * stream's end wait tens of seconds for 20 republished events: its readers waited at the gap all that time
   * (11 backend gaps in a 2-minute chaos run). What JetStream did not confirm goes again, in order, until it
   * does; a message sent twice is a duplicate JetStream drops.
   */
  private async sendAll(messages: readonly OutgoingMessage[]): Promise<void> {
    for (let from = 0; from < messages.length; from += ACKED_WINDOW) {
      let left = messages.slice(from, from + ACKED_WINDOW);
      await this.retrying.run(`${this.subject}: JetStream did not accept republished messages`, async () => {
        const outcomes = await Promise.allSettled(left.map((message) => this.publishWithAck(message)));
        const firstRefusal = outcomes.find((outcome) => outcome.status === 'rejected');
        if (firstRefusal === undefined) return;
        const tried = left.length;
        left = left.filter((_message, index) => outcomes[index]?.status === 'rejected');
        throw new Error(`${String(left.length)} of ${String(tried)} not accepted`, { cause: firstRefusal.reason });
      });
    }
  }

  /** Publishes with a JetStream ack, trying again until JetStream accepts it. */
  private async send(message: OutgoingMessage): Promise<void> {
    await this.retrying.run(`${this.subject}: JetStream did not accept ${message.msgId}`, () => this.publishWithAck(message));
  }

  /** One JetStream publish of `message`, answered once it is stored (or refused). */
  private publishWithAck(message: OutgoingMessage): Promise<unknown> {
    return this.js.publish(this.subject, message.data, { msgID: message.msgId, headers: headersOfBlock(message.headerBlock) });
  }

  private rethrowBackgroundError(): void {
    if (this.backgroundError === undefined) return;
    const cause = this.backgroundError;
    this.backgroundError = undefined;
    throw new PublishError('storage_check_failed', `${this.subject}: a background storage check failed`, { cause });
  }
}

/**
 * Core publishes wait for the end of the current turn of the event loop and then go out together. nats.js
 * writes its buffer to the socket in a microtask; a consumer that handles the messages of one socket read in
 * an async loop interleaves with that microtask and writes one publish per syscall. Deferring to
 * `setImmediate` (which runs after every pending microtask, right after the I/O that caused them) turns a
 * burst into one write, at a cost far below a millisecond. Order is kept: one queue per process, and every
 * JetStream publish or flush of a publisher empties it first.
 */
const deferred: { nc: NatsConnection; subject: string; message: OutgoingMessage }[] = [];
let scheduled = false;

function deferPublish(nc: NatsConnection, subject: string, message: OutgoingMessage): void {
  deferred.push({ nc, subject, message });
  if (scheduled) return;
  scheduled = true;
  setImmediate(flushDeferredPublishes);
}

function flushDeferredPublishes(): void {
  scheduled = false;
  const batch = deferred.splice(0, deferred.length);
  for (const { nc, subject, message } of batch) {
    if (nc.isClosed()) continue;
    nc.publish(subject, message.data, { headers: new EncodedHeaders(message.headerBlock) });
  }
}
