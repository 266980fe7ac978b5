/**
 * An unbounded async queue: a push source (a nats.js consume callback) read as an async iterator. Its bound
 * comes from the source: a durable consumer stops delivering at `max_ack_pending` unacknowledged messages.
 * Unlike nats.js's own iterator, it never runs deferred pull requests when it is read after the consumer
 * stopped, and what it holds can be taken out at once ({@link takeAll}) to be handed back.
 */
export class MessageQueue<T> implements AsyncIterator<T> {
  private readonly items: T[] = [];
  private waiting: ((result: IteratorResult<T>) => void) | undefined;
  private ended = false;

  push(item: T): void {
    if (this.ended) return;
    const waiting = this.waiting;
    if (waiting === undefined) {
      this.items.push(item);
      return;
    }
    this.waiting = undefined;
    waiting({ done: false, value: item });
  }

  /** No more items: readers get what is queued, then the end. */
  end(): void {
    this.ended = true;
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.({ done: true, value: undefined });
  }

  /** Removes and returns every queued item. */
  takeAll(): T[] {
    return this.items.splice(0, this.items.length);
  }

  next(): Promise<IteratorResult<T>> {
    const item = this.items.shift();
    if (item !== undefined) return Promise.resolve({ done: false, value: item });
    if (this.ended) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }
}
