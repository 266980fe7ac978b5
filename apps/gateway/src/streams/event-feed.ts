import type { JetStreamClient } from '@nats-io/jetstream';
import { HEADERS, STREAM_NAMES, eventsSubject, isTerminalEvent, type ContractEvent } from '@llm-stream/contract';
import { OrderedReader, decodeEventMessage } from '@llm-stream/client';

/**
 * A stream's contract events from JetStream, in seq order, starting after `afterSeq`, until the terminal
 * event. It reads the stored log (an ordered consumer from the subject's first message, which survives a
 * NATS restart), so a resumed or late reader gets exactly the same events as the first one; a seq already
 * delivered is skipped and a seq that arrives early (a republish after a loss) waits until the gap before it
 * is filled.
 */
export class EventFeed implements AsyncIterable<ContractEvent> {
  private readonly reader: OrderedReader;
  private trace: string | undefined;

  constructor(
    js: JetStreamClient,
    tenant: string,
    streamId: string,
    private readonly afterSeq: number,
  ) {
    this.reader = new OrderedReader(js, STREAM_NAMES.events, eventsSubject(tenant, streamId));
  }

  /** The stream's trace id, from the W3C trace context of the first event read (for log lines). */
  get traceId(): string | undefined {
    return this.trace;
  }

  close(): void {
    this.reader.close();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<ContractEvent> {
    let next = 1;
    const early = new Map<number, ContractEvent>();
    try {
      for await (const message of this.reader) {
        // Our own normalizer wrote these events: the JSON Schema check is skipped on this hot path.
        this.trace ??= /^00-([0-9a-f]{32})-/.exec(message.headers?.get(HEADERS.traceparent) ?? '')?.[1];
        const decoded = decodeEventMessage(message.subject, message.string(), { validate: false });
        if (!decoded.ok) continue;
        const event = decoded.value.event;
        if (event.seq < next) continue;
        early.set(event.seq, event);
        for (let ready = early.get(next); ready !== undefined; ready = early.get(next)) {
          early.delete(next);
          next += 1;
          if (ready.seq > this.afterSeq) yield ready;
          if (isTerminalEvent(ready)) return;
        }
      }
    } finally {
      this.reader.close();
    }
  }
}
