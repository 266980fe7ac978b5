import type { JetStreamClient, JsMsg } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { BLOCK_KINDS, EVENT_TYPES, HEADERS, STREAM_NAMES, eventsSubject, type BlockKind, type ContractEventType } from '@llm-stream/contract';
import { OrderedReader, decodeEventMessage } from '@llm-stream/pipeline';

/**
 * One stored contract event as the HTTP client gets it: its JSON exactly as the normalizer stored it (never
 * parsed and serialized again on this hot path), with what routing needs read from the message headers.
 */
export interface StoredEvent {
  readonly seq: number;
  readonly type: ContractEventType;
  /** Receive time of the upstream bytes that caused it (ms). */
  readonly ts: number;
  /** For block events: the block's kind (the projection withholds reasoning). */
  readonly blockKind: BlockKind | undefined;
  readonly json: string;
}

const TERMINAL = new Set<ContractEventType>(['stream.done', 'stream.error']);

/**
 * A stream's contract events from JetStream, in seq order, starting after `afterSeq`, until the terminal
 * event. It reads the stored log (an ordered consumer from the subject's first message, which survives a
 * NATS restart), so a resumed or late reader gets exactly the same events as the first one; a seq already
 * delivered is skipped and a seq that arrives early (a republish after a loss) waits until the gap before it
 * is filled.
 */
export class EventFeed implements AsyncIterable<StoredEvent> {
  private readonly reader: OrderedReader;
  private trace: string | undefined;

  constructor(
    js: JetStreamClient,
    nc: NatsConnection,
    tenant: string,
    streamId: string,
    private readonly afterSeq: number,
  ) {
    this.reader = new OrderedReader(js, STREAM_NAMES.events, eventsSubject(tenant, streamId), { connection: nc });
  }

  /** The stream's trace id, from the W3C trace context of the first event read (for log lines). */
  get traceId(): string | undefined {
    return this.trace;
  }

  close(): void {
    this.reader.close();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<StoredEvent> {
    let next = 1;
    const early = new Map<number, StoredEvent>();
    try {
      for await (const message of this.reader) {
        this.trace ??= /^00-([0-9a-f]{32})-/.exec(message.headers?.get(HEADERS.traceparent) ?? '')?.[1];
        const event = storedEvent(message);
        if (event === undefined || event.seq < next) continue;
        early.set(event.seq, event);
        for (let ready = early.get(next); ready !== undefined; ready = early.get(next)) {
          early.delete(next);
          next += 1;
          if (ready.seq > this.afterSeq) yield ready;
          if (TERMINAL.has(ready.type)) return;
        }
      }
    } finally {
      this.reader.close();
    }
  }
}

/**
 * Reads routing fields from the headers our normalizer writes; a message without them (another producer, an
 * older one) is parsed instead. Our own normalizer wrote these events: the JSON Schema check is skipped.
 */
function storedEvent(message: JsMsg): StoredEvent | undefined {
  const json = message.string();
  const headers = message.headers;
  const seq = Number(headers?.get(HEADERS.seq));
  const type = headers?.get(HEADERS.eventType) as ContractEventType | undefined;
  const ts = Number(headers?.get(HEADERS.ts));
  if (Number.isSafeInteger(seq) && seq > 0 && type !== undefined && (EVENT_TYPES as readonly string[]).includes(type) && Number.isFinite(ts) && headers?.has(HEADERS.ts)) {
    const kind = headers.get(HEADERS.blockKind);
    return { seq, type, ts, blockKind: (BLOCK_KINDS as readonly string[]).includes(kind) ? (kind as BlockKind) : undefined, json };
  }
  const decoded = decodeEventMessage(message.subject, json, { validate: false });
  if (!decoded.ok) return undefined;
  const event = decoded.value.event;
  return { seq: event.seq, type: event.type, ts: event.ts, blockKind: 'block' in event ? event.block.kind : undefined, json };
}
