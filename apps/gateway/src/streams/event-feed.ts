import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { BLOCK_KINDS, EVENT_TYPES, HEADERS, STREAM_NAMES, decodeEventMessage, eventsSubject, type BlockKind, type ContractEventType } from '@llm-stream/contract';
import { LiveLogReader, type LogMessage } from '@llm-stream/pipeline';

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
 * A stream's contract events in seq order, starting after `afterSeq`, until the terminal event. Live events come
 * by core subscription (no JetStream consumer per stream); JetStream's stored log is read only for what was
 * stored before the feed subscribed (`catchUp`: a resume, a late reader), after a gap and after a reconnect
 * (see LiveLogReader), so a resumed or late reader gets exactly the same events as the first one.
 *
 * Created before the stream's work item is published, a feed needs no catch-up: nothing can be stored before
 * it subscribed.
 */
export class EventFeed implements AsyncIterable<StoredEvent> {
  private readonly reader: LiveLogReader;
  private trace: string | undefined;

  constructor(
    connection: { readonly nc: NatsConnection; readonly js: JetStreamClient; readonly jsm: JetStreamManager },
    tenant: string,
    streamId: string,
    private readonly afterSeq: number,
    catchUp: boolean,
  ) {
    this.reader = new LiveLogReader(connection.nc, connection.js, connection.jsm, STREAM_NAMES.events, eventsSubject(tenant, streamId), {
      positionOf: (message) => seqOf(message),
      catchUp,
    });
  }

  /** The stream's trace id, from the W3C trace context of the first event read (for log lines). */
  get traceId(): string | undefined {
    return this.trace;
  }

  close(): void {
    this.reader.close();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<StoredEvent> {
    try {
      for await (const message of this.reader) {
        this.trace ??= /^00-([0-9a-f]{32})-/.exec(message.header(HEADERS.traceparent) ?? '')?.[1];
        const event = storedEvent(message);
        if (event === undefined) continue;
        if (event.seq > this.afterSeq) yield event;
        if (TERMINAL.has(event.type)) return;
      }
    } finally {
      this.reader.close();
    }
  }
}

/** The event's seq from its header, or from its JSON when a producer wrote no header. */
function seqOf(message: LogMessage): number | undefined {
  const seq = Number(message.header(HEADERS.seq));
  return Number.isSafeInteger(seq) && seq > 0 ? seq : storedEvent(message)?.seq;
}

/**
 * Reads routing fields from the headers our normalizer writes; a message without them (another producer, an
 * older one) is parsed instead. Our own normalizer wrote these events: the JSON Schema check is skipped.
 */
function storedEvent(message: LogMessage): StoredEvent | undefined {
  const json = message.string();
  const seq = Number(message.header(HEADERS.seq));
  const type = message.header(HEADERS.eventType);
  const tsHeader = message.header(HEADERS.ts);
  const ts = Number(tsHeader);
  if (Number.isSafeInteger(seq) && seq > 0 && isEventType(type) && tsHeader !== undefined && Number.isFinite(ts)) {
    const kind = message.header(HEADERS.blockKind);
    return { seq, type, ts, blockKind: isBlockKind(kind) ? kind : undefined, json };
  }
  const decoded = decodeEventMessage(message.subject, json, { validate: false });
  if (!decoded.ok) return undefined;
  const event = decoded.value.event;
  return { seq: event.seq, type: event.type, ts: event.ts, blockKind: 'block' in event ? event.block.kind : undefined, json };
}

function isEventType(value: string | undefined): value is ContractEventType {
  return value !== undefined && (EVENT_TYPES as readonly string[]).includes(value);
}

function isBlockKind(value: string | undefined): value is BlockKind {
  return value !== undefined && (BLOCK_KINDS as readonly string[]).includes(value);
}
