import type { JsMsg } from '@nats-io/jetstream';

/**
 * The time after a durable subscription starts during which messages a previous reader received but never
 * acknowledged can still come back, later than newer messages (JetStream redelivers them when their ack
 * wait expires). Until it closes, the subscription must not conclude that a stream it first meets mid-way
 * starts at the lowest seq seen so far: an earlier, unacknowledged event may still be on its way, and
 * starting after it would lose it.
 *
 * It closes when as many distinct redeliveries arrived as the consumer reported unacknowledged at the start
 * (a previous reader that stopped cleanly handed everything back, so they come at once), or at the latest
 * one ack wait plus a margin after the start. Redeliveries are only counted during the first ack wait:
 * before it ends nothing this reader received can have been redelivered yet.
 */
export class RedeliveryWindow {
  private readonly seen = new Set<number>();
  private open: boolean;

  constructor(
    private readonly pendingAtStart: number,
    private readonly startedAt: number,
    private readonly ackWaitMs: number,
    private readonly marginMs: number,
  ) {
    this.open = pendingAtStart > 0;
  }

  /** Joins of streams met mid-way wait until this time (0 once the window has closed). */
  get joinNotBefore(): number {
    return this.open ? this.startedAt + this.ackWaitMs + this.marginMs : 0;
  }

  /** Counts a redelivery; returns true when it closed the window. */
  observe(msg: JsMsg, now: number): boolean {
    if (!this.open || !msg.redelivered || now >= this.startedAt + this.ackWaitMs) return false;
    this.seen.add(msg.seq);
    if (this.seen.size < this.pendingAtStart) return false;
    this.open = false;
    return true;
  }
}
