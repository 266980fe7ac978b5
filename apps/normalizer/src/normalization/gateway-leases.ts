/** Lease timeouts after this replica's own reconnect (or a failed PING) before silence counts again. */
export const RECONNECT_GRACE_TIMEOUTS = 3;

/**
 * When each gateway instance last renewed its liveness lease, and whether this replica could have heard it.
 * A stream whose gateway has been silent for longer than the lease timeout cannot make progress anymore and
 * is ended by its normalizer. Silence is evidence only while this replica was really listening:
 * - a replica that has just started has not heard anybody yet, so silence counts after one timeout;
 * - the same after its own NATS connection was lost or re-established (a NATS restart silences everybody);
 * - while a round trip to the server (a PING, {@link probeStarted}) goes unanswered for longer than the probe
 *   bound, the server is paused or swamped and delivers nobody's lease: nothing expires, and once the answer
 *   comes late, silence counts again from then, for one timeout like a start. One, not the three of a
 *   reconnect: the PONG comes after every renewal the server delivered before it, so this replica has heard
 *   them all, and the gateways, still connected, renew within their interval (a busy normalizer answers a PING
 *   late every few seconds; three timeouts each time held a dead gateway's streams open for 40 s).
 * The caller adds its own evidence (the last raw record of the stream arrived at `evidenceAt`): a gateway that
 * still writes the stream's trace is alive whatever its lease timer does.
 */
export class GatewayLeases {
  private readonly lastSeen = new Map<string, number>();
  private probeSince: number | undefined;

  constructor(
    private readonly timeoutMs: number,
    private listeningSince: number,
    /** How long a round trip to the server may take before the connection counts as deaf (default a quarter timeout). */
    private readonly probeBoundMs = Math.max(1, Math.floor(timeoutMs / 4)),
  ) {}

  renew(gatewayId: string, now: number): void {
    this.lastSeen.set(gatewayId, now);
  }

  /**
   * This replica's connection was lost or re-established: it may have missed renewals until `now`, and the
   * gateways reconnect on their own schedule (a loaded one later than this replica), so silence counts again
   * only after {@link RECONNECT_GRACE_TIMEOUTS} lease timeouts.
   */
  unheard(now: number): void {
    this.listeningSince = Math.max(this.listeningSince, now + (RECONNECT_GRACE_TIMEOUTS - 1) * this.timeoutMs);
  }

  /** A round trip to the server starts (call {@link probeAnswered} when it returns, failed or not). */
  probeStarted(now: number): void {
    this.probeSince ??= now;
  }

  /**
   * True when the answer failed (nothing expires for {@link RECONNECT_GRACE_TIMEOUTS} timeouts, as after a
   * reconnect) or came late (nothing expires for one timeout).
   */
  probeAnswered(now: number, ok: boolean): boolean {
    const since = this.probeSince;
    this.probeSince = undefined;
    if (!ok) {
      this.unheard(now);
      return true;
    }
    if (since === undefined || now - since <= this.probeBoundMs) return false;
    this.listeningSince = Math.max(this.listeningSince, now);
    return true;
  }

  /** True when the gateway is known to be gone: silent for a timeout while this replica was surely listening. */
  isExpired(gatewayId: string, now: number, evidenceAt = Number.NEGATIVE_INFINITY): boolean {
    if (this.probeSince !== undefined && now - this.probeSince > this.probeBoundMs) return false;
    if (now - this.listeningSince < this.timeoutMs) return false;
    const seen = Math.max(this.lastSeen.get(gatewayId) ?? Number.NEGATIVE_INFINITY, evidenceAt);
    return now - seen > this.timeoutMs;
  }

  /** Forgets gateways silent for a long time (bounded memory over many rolling restarts). */
  prune(now: number): void {
    for (const [gatewayId, seen] of this.lastSeen) if (now - seen > 10 * this.timeoutMs) this.lastSeen.delete(gatewayId);
  }
}
