/**
 * When this instance's liveness lease may have gone unheard, from the renewals the server confirmed (the lease
 * worker's flush after each one). A normalizer that hears no renewal for its lease timeout, while the stream's
 * trace is silent too, appends gateway.lost to the stream's raw trace: one message this gateway did not write,
 * which its count proof would take for one of its own. A silence longer than `maxSilenceMs` (two lease
 * intervals: a normalizer's timeout must be longer) is such a gap: a process stopped (SIGSTOP), a main thread
 * stalled past the worker's bound, a lease connection away from the server.
 */
export class LeaseGaps {
  private lastHeardAt: number | undefined;
  private lastGapEndedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly maxSilenceMs: number) {}

  /** The server confirmed a renewal at `at` (ms). */
  heard(at: number): void {
    if (this.lastHeardAt !== undefined && at - this.lastHeardAt > this.maxSilenceMs) this.lastGapEndedAt = at;
    this.lastHeardAt = Math.max(this.lastHeardAt ?? at, at);
  }

  /**
   * True when a gap overlapped the time from `since` to `now`: one that ended since then, or one in progress
   * (nothing heard for too long, or nothing heard at all yet).
   */
  mayHaveLapsedSince(since: number, now: number): boolean {
    if (this.lastHeardAt === undefined || now - this.lastHeardAt > this.maxSilenceMs) return true;
    return this.lastGapEndedAt >= since;
  }
}
