import type { JsMsg } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { isTerminalEvent, type ContractEvent } from '@llm-stream/contract';
import { LlmStreamClientError } from './client-error.js';
import { ConsumerPump, type OpenConsumer } from './consumer-pump.js';
import { DeliveryLedger, type Delivery } from './delivery-ledger.js';
import { EventSequencer, type Release, type SequencedEvent } from './event-sequencer.js';
import { readEventMessage } from './read-event-message.js';
import { RedeliveryWindow } from './redelivery-window.js';
import type { SeqCheckpointStore } from './seq-checkpoint-store.js';
import type { GapHandler, InvalidEventCode, InvalidEventHandler, SubscriptionStats } from './subscription-reports.js';

/** A consumer ready to be read. */
export interface StartedConsumer {
  readonly open: OpenConsumer;
  /**
   * Durable consumers: how many messages earlier readers left unacknowledged, and the time within which
   * all of them are redelivered (the ack wait, or the hand-back delay if longer).
   */
  readonly redelivery?: { readonly pendingAtStart: number; readonly withinMs: number };
}

/** What a subscription reads and how it settles what it read. */
export interface SubscriptionPlan {
  /** Creates or looks up the consumer; called once, when the iteration starts. */
  readonly start: () => Promise<StartedConsumer>;
  /** Explicit acks: a durable consumer. */
  readonly acking: boolean;
  /** Durable consumers: redelivery delay of the messages handed back when the subscription stops. */
  readonly handBackDelayMs?: number;
  readonly checkpoints?: SeqCheckpointStore;
  /** One stream read after `afterSeq`; the iteration ends with its terminal event. */
  readonly single?: { readonly streamId: string; readonly afterSeq: number };
}

export interface SubscriptionSettings {
  readonly validate: boolean;
  readonly gapTimeoutMs: number;
  readonly maxHeldEvents: number;
  readonly maxFinishedStreams: number;
  readonly onInvalid?: InvalidEventHandler;
  readonly onGap?: GapHandler;
  readonly signal?: AbortSignal;
}

type Counters = { -readonly [K in keyof SubscriptionStats]: SubscriptionStats[K] };

/**
 * Contract events from one JetStream consumer, each (stream_id, seq) once and in seq order per stream.
 * Iterate it once with `for await`; {@link close} (or the abort signal) ends the loop after the current event.
 *
 * With a durable consumer an event is acknowledged when the loop asks for the next one (after the
 * checkpoint store, if any, saved it): an event the backend was still processing when it died is delivered
 * again to the next reader. {@link close} ends the loop after the current event, which counts as processed;
 * leaving the loop with `break` or a throw does not acknowledge the current event. Either way every
 * unacknowledged message is handed back to the server for a prompt redelivery to the next reader.
 */
export class EventSubscription implements AsyncIterable<ContractEvent> {
  private readonly sequencer: EventSequencer<Delivery>;
  private readonly ledger: DeliveryLedger;
  private readonly queue: SequencedEvent<Delivery>[] = [];
  private readonly counters: Counters = {
    delivered: 0,
    duplicates: 0,
    skipped: 0,
    invalid: 0,
    joinedMidStream: 0,
    gapsSkipped: 0,
    held: 0,
    reopens: 0,
  };
  private pump: ConsumerPump | undefined;
  private readonly startedAt: Promise<void>;
  private markStarted: (error?: unknown) => void = () => undefined;
  private iterated = false;
  private closed = false;

  constructor(
    private readonly nc: NatsConnection,
    private readonly plan: SubscriptionPlan,
    private readonly settings: SubscriptionSettings,
    private readonly onEnded: (subscription: EventSubscription) => void = () => undefined,
  ) {
    this.sequencer = new EventSequencer({
      gapTimeoutMs: settings.gapTimeoutMs,
      maxHeld: settings.maxHeldEvents,
      maxFinished: settings.maxFinishedStreams,
    });
    this.ledger = new DeliveryLedger(plan.acking, plan.handBackDelayMs);
    if (plan.single !== undefined) this.sequencer.track(plan.single.streamId, plan.single.afterSeq);
    settings.signal?.addEventListener('abort', () => void this.close(), { once: true });
    this.startedAt = new Promise<void>((resolve, reject) => {
      this.markStarted = (error) => {
        if (error === undefined) resolve();
        else reject(error instanceof Error ? error : new Error('the subscription could not start', { cause: error }));
      };
    });
    // Nobody has to wait for the start: a failure also surfaces in the iteration.
    this.startedAt.catch(() => undefined);
  }

  /**
   * Resolves once the iteration has set up its consumer and fixed its starting point (with `new` or a Date,
   * every event stored from then on is delivered); rejects if it could not. A subscription starts when it
   * is first iterated.
   */
  started(): Promise<void> {
    return this.startedAt;
  }

  get stats(): SubscriptionStats {
    return { ...this.counters, held: this.sequencer.heldCount, reopens: this.pump?.reopens ?? 0 };
  }

  /**
   * Ends the iteration: the loop leaves after the event it is processing (which a durable subscription then
   * acknowledges), or at once if it is waiting. Unacknowledged messages are handed back when the loop
   * leaves; a loop that is never resumed leaves them to the ack wait.
   */
  close(): Promise<void> {
    this.closed = true;
    this.pump?.close();
    if (!this.iterated) this.onEnded(this);
    return Promise.resolve();
  }

  [Symbol.asyncIterator](): AsyncIterator<ContractEvent> {
    if (this.iterated) throw new LlmStreamClientError('already_iterated', 'a subscription can be iterated once');
    this.iterated = true;
    return this.run();
  }

  private async *run(): AsyncGenerator<ContractEvent, void, undefined> {
    if (this.closed) return;
    let started: StartedConsumer;
    try {
      started = await this.plan.start();
      this.markStarted();
    } catch (error) {
      this.markStarted(error);
      this.onEnded(this);
      throw error;
    }
    const pump = new ConsumerPump(this.nc, started.open);
    this.pump = pump;
    const owed = started.redelivery;
    const window = owed && new RedeliveryWindow(owed.pendingAtStart, Date.now(), owed.withinMs, this.settings.gapTimeoutMs);
    if (window !== undefined) this.sequencer.setJoinNotBefore(window.joinNotBefore);
    const single = this.plan.single;
    try {
      for (;;) {
        for (let item = this.queue.shift(); item !== undefined && !this.isClosed(); item = this.queue.shift()) {
          this.counters.delivered += 1;
          yield item.event;
          await this.settle(item);
          if (single !== undefined && isTerminalEvent(item.event)) return;
        }
        if (this.isClosed() || (single !== undefined && this.sequencer.isFinished(single.streamId))) return;
        const next = await pump.next(this.sequencer.nextDeadline());
        // Deliveries lost in a reconnect come back as redeliveries too: they must not close the window early.
        if (pump.reopens > 0) window?.countNoMore();
        if (next.kind === 'ended') return;
        if (next.kind === 'message') await this.accept(next.message, window);
        this.expireHolds();
      }
    } finally {
      this.cleanUp(pump);
    }
  }

  private async accept(msg: JsMsg, window: RedeliveryWindow | undefined): Promise<void> {
    // A redelivery of a message still held or queued: nothing new, and never to be acked early.
    if (this.ledger.refresh(msg)) return;
    if (window?.observe(msg, Date.now()) === true) this.sequencer.setJoinNotBefore(0);
    const read = readEventMessage(msg.subject, msg.string(), this.settings.validate);
    if (!read.ok) {
      this.report(read.error.code, read.error.message, msg);
      this.ledger.reject(msg, read.error.code);
      return;
    }
    const event = read.value;
    const checkpoints = this.plan.checkpoints;
    if (checkpoints !== undefined && !this.sequencer.knows(event.stream_id)) {
      const floor = await checkpoints.load(event.stream_id);
      if (floor !== undefined) this.sequencer.track(event.stream_id, floor);
    }
    const delivery: Delivery = { msg };
    const result = this.sequencer.accept(event, delivery, Date.now());
    switch (result.verdict) {
      case 'released':
        this.enqueue(result);
        return;
      case 'held':
        this.ledger.keep(delivery);
        return;
      case 'duplicate':
        this.counters.duplicates += 1;
        this.ledger.discard(msg);
        return;
      case 'skipped':
        this.counters.skipped += 1;
        this.ledger.discard(msg);
        this.enqueue(result);
        return;
      case 'after_terminal':
        this.report('event_after_terminal', `seq ${event.seq} of ${event.stream_id} follows its terminal event`, msg);
        this.ledger.discard(msg);
        return;
    }
  }

  /** Ends the holds that are due: joins mid-way streams, and throws (or skips, with `onGap`) unfilled gaps. */
  private expireHolds(): void {
    for (let expiry = this.sequencer.expireNext(Date.now()); expiry !== undefined; expiry = this.sequencer.expireNext(Date.now())) {
      if (expiry.kind === 'joined') {
        this.counters.joinedMidStream += 1;
        this.enqueue(expiry.release);
        continue;
      }
      if (this.settings.onGap === undefined) throw expiry.error;
      this.settings.onGap(expiry.error);
      this.counters.gapsSkipped += 1;
      this.enqueue(this.sequencer.skipGap(expiry.error.streamId, Date.now()));
    }
  }

  private enqueue(release: Release<Delivery>): void {
    for (const item of release.released) {
      this.ledger.keep(item.token);
      this.queue.push(item);
    }
    for (const item of release.discarded) {
      const { stream_id: streamId, seq } = item.event;
      this.report('event_after_terminal', `seq ${seq} of ${streamId} follows its terminal event`, item.token.msg);
      this.ledger.discard(item.token.msg);
    }
  }

  /** The backend is done with the event: checkpoint, then ack (a crash between the two only repeats the ack). */
  private async settle(item: SequencedEvent<Delivery>): Promise<void> {
    await this.plan.checkpoints?.save(item.event.stream_id, item.event.seq);
    this.ledger.ack(item.token);
  }

  /** Read through a method: `close()` may set it during any await or yield. */
  private isClosed(): boolean {
    return this.closed;
  }

  private report(code: InvalidEventCode, message: string, msg: JsMsg): void {
    this.counters.invalid += 1;
    this.settings.onInvalid?.({ code, message, subject: msg.subject, streamSequence: msg.seq });
  }

  private cleanUp(pump: ConsumerPump): void {
    this.closed = true;
    pump.close();
    // Everything received and not acknowledged goes back to the server, not left to the ack wait.
    if (this.plan.acking && !this.nc.isClosed()) {
      this.ledger.handBackAll();
      for (const msg of pump.takeReceived()) this.ledger.handBack(msg);
    }
    this.onEnded(this);
  }
}
