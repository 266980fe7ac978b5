import type { ServedBody } from '../recorded-run.js';

/**
 * How much of the time from `from` to `to` a stream's gateway spent waiting between two upstream attempts (its
 * retry backoff, a Retry-After it honoured): no body of the stream was being served and a later one followed.
 * A client sees no event then by design (nothing is visible before a retried attempt's first delta), so only
 * the rest of a gap in its events can be the system's delay. `served`: the stream's bodies in start order.
 */
export function retryWaitWithin(served: readonly ServedBody[], from: number, to: number): number {
  let waited = 0;
  let servedUntil = Number.NEGATIVE_INFINITY;
  for (const body of served) {
    const quietFrom = Math.max(servedUntil, from);
    const quietTo = Math.min(body.startedAt, to);
    if (quietTo > quietFrom) waited += quietTo - quietFrom;
    servedUntil = Math.max(servedUntil, body.endedAt);
  }
  return waited;
}
