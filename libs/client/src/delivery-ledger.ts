import type { JsMsg } from '@nats-io/jetstream';

/** One JetStream message the subscription keeps; `msg` is its newest delivery (the one to acknowledge). */
export interface Delivery {
  msg: JsMsg;
}

/**
 * The acknowledgement side of a subscription. With explicit acks (a durable consumer) it remembers every
 * message it holds or has queued but not yet acknowledged, keyed by stream sequence, so that:
 * - a redelivery of such a message (the ack wait expired while it was held) only refreshes the delivery
 *   and is never acknowledged early: an early ack would lose the event if the process died before
 *   delivering it;
 * - a message that is not needed (a duplicate of an event already processed or held through another
 *   message, an event before a stream's start) is acknowledged at once, and an invalid one terminated;
 * - when the subscription stops, everything still owed is handed back (nak) for a prompt redelivery.
 *
 * Without acks (an ordered consumer) every method only does the bookkeeping a caller reads.
 */
export class DeliveryLedger {
  private readonly owned = new Map<number, Delivery>();

  /** `handBackDelayMs`: how long a handed-back message waits before it is redelivered. */
  constructor(
    private readonly acking: boolean,
    private readonly handBackDelayMs = 0,
  ) {}

  /** Messages held or queued and not yet acknowledged. */
  get outstanding(): number {
    return this.owned.size;
  }

  /** When `msg` redelivers a message already kept: keeps the newest delivery and says so. */
  refresh(msg: JsMsg): boolean {
    const kept = this.owned.get(msg.seq);
    if (kept === undefined) return false;
    kept.msg = msg;
    return true;
  }

  /** Starts keeping a message (held, or queued for the backend). */
  keep(delivery: Delivery): void {
    if (this.acking) this.owned.set(delivery.msg.seq, delivery);
  }

  /** The backend processed the message's event. */
  ack(delivery: Delivery): void {
    if (!this.acking) return;
    this.owned.delete(delivery.msg.seq);
    delivery.msg.ack();
  }

  /** A message the subscription does not need: acknowledged so it is never delivered again. */
  discard(msg: JsMsg): void {
    if (!this.acking) return;
    this.owned.delete(msg.seq);
    msg.ack();
  }

  /** A message that can never become a valid event. */
  reject(msg: JsMsg, reason: string): void {
    if (this.acking) msg.term(reason);
  }

  /** A message received but not delivered when the subscription stopped: redelivered to the next reader. */
  handBack(msg: JsMsg): void {
    if (this.acking) msg.nak(this.handBackDelayMs);
  }

  /** Hands back every message still kept. */
  handBackAll(): void {
    if (!this.acking) return;
    for (const delivery of this.owned.values()) delivery.msg.nak(this.handBackDelayMs);
    this.owned.clear();
  }
}
