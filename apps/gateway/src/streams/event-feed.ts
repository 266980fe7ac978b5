import type { ConsumerMessages, JetStreamClient } from '@nats-io/jetstream';
import { HEADERS, STREAM_NAMES, eventsSubject, isTerminalEvent, type ContractEvent } from '@llm-stream/contract';
import { decodeEventMessage } from '@llm-stream/client';

/**
 * A stream's contract events from JetStream, in seq order, starting after `afterSeq`, until the terminal
 * event. It reads the stored log (an ordered consumer from the subject's first message), so a resumed or
 * late reader gets exactly the same events as the first one; a seq already delivered is skipped and a seq
 * that arrives early (a republish after a loss) waits until the gap before it is filled.
 */
export class EventFeed implements AsyncIterable<ContractEvent> {
  private messages: ConsumerMessages | undefined;
  private closed = false;
  private trace: string | undefined;

  constructor(
    private readonly js: JetStreamClient,
    private readonly tenant: string,
    private readonly streamId: string,
    private readonly afterSeq: number,
  ) {}

  /** The stream's trace id, from the W3C trace context of the first event read (for log lines). */
  get traceId(): string | undefined {
    return this.trace;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.messages?.close();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<ContractEvent> {
    const subject = eventsSubject(this.tenant, this.streamId);
    const consumer = await this.js.consumers.get(STREAM_NAMES.events, { filter_subjects: subject });
    const messages = await consumer.consume();
    this.messages = messages;
    if (this.closed) await messages.close();
    let next = 1;
    const early = new Map<number, ContractEvent>();
    try {
      for await (const message of messages) {
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
      await messages.close();
    }
  }
}
