import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { BLOCK_KINDS, EVENT_TYPES, HEADERS, STREAM_NAMES, decodeEventMessage, eventsSubject, type BlockKind, type ContractEvent, type ContractEventType } from '@llm-stream/contract';
import { SeqOrder } from '@llm-stream/adapters';
import { DEFAULT_MAX_WAITING, LiveLogGapError, LiveLogReader, type LogMessage } from '@llm-stream/pipeline';
import { BeyondEndError } from '../errors/beyond-end-error.js';

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

/** Whether the event ends its stream (`stream.done`, `stream.error`). */
export function endsStream(event: Pick<StoredEvent, 'type'>): boolean {
  return event.type === 'stream.done' || event.type === 'stream.error';
}

/** A contract event as a {@link StoredEvent}: `json` is its text as stored (the normalizer writes `JSON.stringify`). */
export function storedEventOf(event: ContractEvent, json: string = JSON.stringify(event)): StoredEvent {
  return { seq: event.seq, type: event.type, ts: event.ts, blockKind: 'block' in event ? event.block.kind : undefined, json };
}

/**
 * A stream's contract events as the log holds them, in seq order, starting after `afterSeq`, until the terminal
 * event: what a resume, a gateway that does not own the stream, or an owner whose session no longer follows the
 * log serves. What was stored before the feed subscribed is read from JetStream first; then live events come by
 * core subscription (no JetStream consumer per stream), and the stored log is read again only after a gap or a
 * reconnect (see LiveLogReader), so every reader gets exactly the same events. The reader hands them out as they
 * arrive; the feed puts them in seq order. A stream that ends below `afterSeq` fails the iteration with
 * {@link BeyondEndError}.
 */
export class EventFeed implements AsyncIterable<StoredEvent> {
  private readonly reader: LiveLogReader;
  private readonly subject: string;
  private trace: string | undefined;

  constructor(
    connection: { readonly nc: NatsConnection; readonly js: JetStreamClient; readonly jsm: JetStreamManager },
    tenant: string,
    streamId: string,
    private readonly afterSeq: number,
  ) {
    this.subject = eventsSubject(tenant, streamId);
    this.reader = new LiveLogReader(connection.nc, connection.js, connection.jsm, STREAM_NAMES.events, this.subject, {
      positionOf: (message) => seqOf(message),
      catchUp: true,
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
    // As many as the reader hands out beyond a gap: it gives the gap up before this buffer could.
    const order = new SeqOrder<StoredEvent>(DEFAULT_MAX_WAITING);
    try {
      for await (const message of this.reader) {
        this.trace ??= /^00-([0-9a-f]{32})-/.exec(message.header(HEADERS.traceparent) ?? '')?.[1];
        const event = storedEvent(message);
        if (event === undefined) continue;
        for (const next of inSeqOrder(order, event, this.subject)) {
          if (next.seq > this.afterSeq) yield next;
          if (!endsStream(next)) continue;
          // At the id: the reader already holds the terminal event. Below it: no event will ever follow the id,
          // and the reader is told so (never a clean end with nothing).
          if (next.seq < this.afterSeq) throw new BeyondEndError(this.afterSeq, next.seq);
          return;
        }
      }
    } finally {
      this.reader.close();
    }
  }
}

/** The events `event` makes contiguous, in seq order (none while a gap before it is open). */
function inSeqOrder(order: SeqOrder<StoredEvent>, event: StoredEvent, subject: string): readonly StoredEvent[] {
  if (order.releaseIfNext(event.seq)) return [event];
  const offered = order.offer(event.seq, event);
  switch (offered.kind) {
    case 'ready':
      return offered.items;
    case 'duplicate':
    case 'held':
      return [];
    case 'overflow':
      throw new LiveLogGapError(subject, offered.missing, DEFAULT_MAX_WAITING);
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
  return storedEventOf(decoded.value.event, json);
}

function isEventType(value: string | undefined): value is ContractEventType {
  return value !== undefined && (EVENT_TYPES as readonly string[]).includes(value);
}

function isBlockKind(value: string | undefined): value is BlockKind {
  return value !== undefined && (BLOCK_KINDS as readonly string[]).includes(value);
}
