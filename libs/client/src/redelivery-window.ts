import type { JsMsg } from '@nats-io/jetstream';

/**
 * The time after a durable subscription starts during which messages a previous reader received but never
 * acknowledged can still come back, later than newer messages (JetStream redelivers them when their ack
 * wait expires, or after the delay of a hand-back). Until it closes, the subscription must not conclude
 * that a stream it first meets mid-way starts at the lowest seq seen so far: an earlier, unacknowledged
 * event may still be on its way, and starting after it would lose it.
 *
 * It closes when as many distinct redeliveries arrived as the consumer reported unacknowledged at the start
 * (a previous reader that stopped cleanly handed everything back, so they come soon), or at the latest
 * `withinMs` plus a margin after the start.
 */
export class RedeliveryWindow {
  /** Stream sequences this reader received while the window was open (forgotten when it closes). */
  private readonly received = new Set<number>();
  private redelivered = 0;
  private counting = true;
  private open: boolean;

  constructor(
    private readonly pendingAtStart: number,
    private readonly startedAt: number,
    private readonly withinMs: number,
    private readonly marginMs: number,
  ) {
    this.open = pendingAtStart > 0;
  }

  /** Joins of streams met mid-way wait until this time (0 once the window has closed). */
  get joinNotBefore(): number {
    return this.open ? this.startedAt + this.withinMs + this.marginMs : 0;
  }

  /** Stops counting redeliveries: from now on only time closes the window. */
  countNoMore(): void {
    this.counting = false;
    this.received.clear();
  }

  /**
   * Counts a redelivery of a message an earlier reader received: redelivered, and not received by this
   * reader before (a message this reader holds longer than the ack wait is redelivered to it too).
   * Returns true when it closed the window.
   */
  observe(msg: JsMsg, now: number): boolean {
    if (!this.open || !this.counting || now >= this.startedAt + this.withinMs || this.received.has(msg.seq)) return false;
    this.received.add(msg.seq);
    if (!msg.redelivered) return false;
    this.redelivered += 1;
    if (this.redelivered < this.pendingAtStart) return false;
    this.open = false;
    this.received.clear();
    return true;
  }
}
