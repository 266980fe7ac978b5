/**
 * When each gateway instance last renewed its liveness lease. A stream whose gateway has been silent for
 * longer than the lease timeout cannot make progress anymore and is ended by its normalizer. A replica that
 * has just started has not heard anybody yet, so silence only counts after it has listened for one timeout.
 */
export class GatewayLeases {
  private readonly lastSeen = new Map<string, number>();

  constructor(
    private readonly timeoutMs: number,
    private readonly listeningSince: number,
  ) {}

  renew(gatewayId: string, now: number): void {
    this.lastSeen.set(gatewayId, now);
  }

  /** True when the gateway is known to be gone. */
  isExpired(gatewayId: string, now: number): boolean {
    if (now - this.listeningSince < this.timeoutMs) return false;
    const seen = this.lastSeen.get(gatewayId);
    return seen === undefined || now - seen > this.timeoutMs;
  }

  /** Forgets gateways silent for a long time (bounded memory over many rolling restarts). */
  prune(now: number): void {
    for (const [gatewayId, seen] of this.lastSeen) if (now - seen > 10 * this.timeoutMs) this.lastSeen.delete(gatewayId);
  }
}
