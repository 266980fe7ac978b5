import type { ContractEvent } from '@llm-stream/contract';
import { endsStream, storedEventOf, type StoredEvent } from './event-feed.js';

/** A feed of a stream's events for one HTTP client, closed by its reader when it leaves. */
export interface ClientFeed extends AsyncIterable<StoredEvent> {
  close(): void;
  /** The stream's trace id, when the feed learned it (for log lines). */
  readonly traceId?: string | undefined;
}

interface Derived {
  /** The raw record the event was derived from: it may go out once every record up to this one is acked. */
  readonly rawSeq: number;
  readonly event: StoredEvent;
}

/**
 * The events of a stream this gateway owns, for its HTTP client, from the gateway's own session: the same
 * deterministic session the normalizer runs over the stored trace, so the same events with the same seq and
 * the same JSON. Each one is released only once every raw record up to the one it derives from is acked by
 * JetStream: no event reaches a client before the bytes that caused it are stored.
 *
 * If the raw trace's fence is refused (a normalizer stored gateway.lost, so the log ends the stream there and not
 * where this session would), nothing more is released: after the events already released the client is served
 * from the log, which holds every one of them.
 */
export class LocalEventFeed implements ClientFeed {
  private readonly derived: Derived[] = [];
  private readonly ready: StoredEvent[] = [];
  private ackedThrough = 0;
  private state: 'local' | 'from_log' | 'closed' = 'local';
  private wake: (() => void) | undefined;
  private logFeed: ClientFeed | undefined;

  /** @param fromLog the stored log's events after a seq, for when this session is no longer the log's. */
  constructor(private readonly fromLog: (afterSeq: number) => ClientFeed) {}

  /** The session derived `events` from the raw record `rawSeq`. */
  add(rawSeq: number, events: readonly ContractEvent[]): void {
    if (this.state !== 'local') return;
    for (const event of events) this.derived.push({ rawSeq, event: storedEventOf(event) });
    this.release();
  }

  /** JetStream acked every raw record up to `rawSeq`. */
  acked(rawSeq: number): void {
    this.ackedThrough = Math.max(this.ackedThrough, rawSeq);
    this.release();
  }

  /**
   * The client is served from the log from here on: the log no longer follows this session (see the class
   * comment), the session stopped before its end (the log's owner ends the stream), or a normalizer of another
   * adapters build runs (the log may hold other events than this session computes).
   */
  switchToLog(): void {
    if (this.state !== 'local') return;
    this.state = 'from_log';
    this.derived.length = 0;
    this.signal();
  }

  close(): void {
    this.state = 'closed';
    this.derived.length = 0;
    this.logFeed?.close();
    this.signal();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<StoredEvent> {
    let lastSeq = 0;
    for (;;) {
      const next = this.ready.shift();
      if (next !== undefined) {
        lastSeq = next.seq;
        yield next;
        if (endsStream(next)) return;
        continue;
      }
      switch (this.state) {
        case 'closed':
          return;
        case 'from_log': {
          this.logFeed = this.fromLog(lastSeq);
          yield* this.logFeed;
          return;
        }
        case 'local':
          await new Promise<void>((resolve) => {
            this.wake = resolve;
          });
          continue;
      }
    }
  }

  private release(): void {
    const waiting = this.derived.findIndex((derived) => derived.rawSeq > this.ackedThrough);
    const released = this.derived.splice(0, waiting === -1 ? this.derived.length : waiting);
    if (released.length === 0) return;
    for (const { event } of released) this.ready.push(event);
    this.signal();
  }

  private signal(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
