/**
 * A stream's events could not be delivered in seq order: an event is missing and later ones wait for it.
 * - `gap_timeout`: the missing event did not arrive within the gap timeout after a later one was held;
 * - `buffer_full`: more events were held, over all streams of the subscription, than the buffer bound allows.
 *
 * Storage keeps every stream's seq contiguous from 1 (the normalizer proves it before acking its work), so a
 * gap that never fills means events were lost or deleted (retention, manual purge): the client cannot
 * deliver that stream exactly once, and says so instead of skipping silently.
 */
export class StreamGapError extends Error {
  override readonly name = 'StreamGapError';

  constructor(
    readonly code: 'gap_timeout' | 'buffer_full',
    /** The stream whose events are out of order. */
    readonly streamId: string,
    /** The seq the client waits for. */
    readonly expectedSeq: number,
    /** The later seqs held back, ascending (at most the first 16). */
    readonly heldSeqs: readonly number[],
  ) {
    const why = code === 'gap_timeout' ? 'never arrived' : 'did not arrive before the hold buffer filled up';
    super(`${streamId}: seq ${expectedSeq} ${why} (held: ${heldSeqs.join(', ')})`);
  }
}
