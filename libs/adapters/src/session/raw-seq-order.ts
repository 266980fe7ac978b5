/** What {@link RawSeqOrder.offer} did with a record. */
export type RawSeqOffer<T> =
  /** The record and the held ones it made contiguous, in raw_seq order: process them now. */
  | { readonly kind: 'ready'; readonly items: readonly T[] }
  /** Its raw_seq was already released or is already held: a redelivery or a republish. */
  | { readonly kind: 'duplicate' }
  /** A record before it is missing: it waits until the gap fills. */
  | { readonly kind: 'held' }
  /** A record before it is missing and the buffer is full: the gap is given up (the buffer is emptied). */
  | { readonly kind: 'overflow'; readonly missing: number };

/**
 * Puts a stream's raw trace back into raw_seq order. The gateway core-publishes records and, at the end of the
 * stream, republishes the ones JetStream did not store, so a reader of the stored trace can see record n after
 * n+1..m. Records after a gap are held (at most `limit` of them) and released once the gap fills. Released
 * records are contiguous from raw_seq 1, so what a reader derives from them depends only on the records and
 * their stored order: every normalizer replica derives the same thing.
 */
export class RawSeqOrder<T> {
  private released = 0;
  private readonly held = new Map<number, T>();

  constructor(private readonly limit: number) {}

  /** The raw_seq of the last released record (0 before the first). */
  get lastReleased(): number {
    return this.released;
  }

  /** Records waiting for a gap to fill. */
  get heldCount(): number {
    return this.held.size;
  }

  /**
   * The common case without allocating: `rawSeq` is the next one and nothing waits, so it is released at once.
   * Returns false (and changes nothing) otherwise; then {@link offer} decides.
   */
  releaseIfNext(rawSeq: number): boolean {
    if (rawSeq !== this.released + 1 || this.held.size > 0) return false;
    this.released = rawSeq;
    return true;
  }

  offer(rawSeq: number, item: T): RawSeqOffer<T> {
    if (rawSeq <= this.released || this.held.has(rawSeq)) return { kind: 'duplicate' };
    if (rawSeq > this.released + 1) {
      if (this.held.size >= this.limit) {
        const missing = this.released + 1;
        this.held.clear();
        return { kind: 'overflow', missing };
      }
      this.held.set(rawSeq, item);
      return { kind: 'held' };
    }
    const items = [item];
    this.released = rawSeq;
    for (let next = this.held.get(this.released + 1); next !== undefined; next = this.held.get(this.released + 1)) {
      this.held.delete(this.released + 1);
      this.released += 1;
      items.push(next);
    }
    return { kind: 'ready', items };
  }
}
