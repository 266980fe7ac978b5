/** What {@link SeqOrder.offer} did with an item. */
export type SeqOffer<T> =
  /** The item and the held ones it made contiguous, in order: process them now. */
  | { readonly kind: 'ready'; readonly items: readonly T[] }
  /** Its number was already released or is already held: a redelivery or a republish. */
  | { readonly kind: 'duplicate' }
  /** An item before it is missing: it waits until the gap fills. */
  | { readonly kind: 'held' }
  /** An item before it is missing and the buffer is full: the gap is given up (the buffer is emptied). */
  | { readonly kind: 'overflow'; readonly missing: number };

/**
 * Puts items numbered 1, 2, 3, ... back in order: a stream's raw records by raw_seq (for its session), a
 * stream's events by seq (for a feed of the log). Readers hand out what arrives as it arrives, so item n can
 * come after n+1..m (a message lost on the way and read back from the store, a republish). Items after a gap
 * are held (at most `limit` of them) and released once the gap fills; released items are contiguous from 1.
 */
export class SeqOrder<T> {
  private released = 0;
  private readonly held = new Map<number, T>();

  constructor(private readonly limit: number) {}

  /** The number of the last released item (0 before the first). */
  get lastReleased(): number {
    return this.released;
  }

  /** Items waiting for a gap to fill. */
  get heldCount(): number {
    return this.held.size;
  }

  /**
   * The common case without allocating: `seq` is the next one and nothing waits, so it is released at once.
   * Returns false (and changes nothing) otherwise; then {@link offer} decides.
   */
  releaseIfNext(seq: number): boolean {
    if (seq !== this.released + 1 || this.held.size > 0) return false;
    this.released = seq;
    return true;
  }

  offer(seq: number, item: T): SeqOffer<T> {
    if (seq <= this.released || this.held.has(seq)) return { kind: 'duplicate' };
    if (seq > this.released + 1) {
      if (this.held.size >= this.limit) {
        const missing = this.released + 1;
        this.held.clear();
        return { kind: 'overflow', missing };
      }
      this.held.set(seq, item);
      return { kind: 'held' };
    }
    const items = [item];
    this.released = seq;
    for (let next = this.held.get(this.released + 1); next !== undefined; next = this.held.get(this.released + 1)) {
      this.held.delete(this.released + 1);
      this.released += 1;
      items.push(next);
    }
    return { kind: 'ready', items };
  }

  /** Drops the held items (their reader reads them again, in another order): as if they never arrived. */
  forgetHeld(): void {
    this.held.clear();
  }
}
