import type { Span, Tracer } from '@opentelemetry/api';
import { JetStreamApiCodes, JetStreamApiError, type JetStreamClient, type JetStreamManager, type JsMsg } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { DEFAULT_MAX_HELD_RECORDS, NormalizerSession, createProviderAdapter, type UnknownEventCounter } from '@llm-stream/adapters';
import {
  AckedPublisher,
  EventMessageEncoder,
  LiveLogReader,
  OrderedReader,
  RetryLoop,
  headerLookup,
  toNatsHeaders,
  toLogMessage,
  type FinishResult,
  type LogMessage,
  type LogPosition,
} from '@llm-stream/pipeline';
import {
  HEADERS,
  STREAM_NAMES,
  decodeTraceRecord,
  encodeTraceRecord,
  eventsSubject,
  rawMsgId,
  rawSubject,
  type ContractEvent,
  type WorkItem,
} from '@llm-stream/contract';
import { contextFromHeaders, headersForSpan } from '@llm-stream/observability';
import { storedSeqs } from './stored-seqs.js';
import type { GatewayLeases } from './gateway-leases.js';

/** The stream a report is about: its work item and the id of its trace. */
export interface ObservedStream {
  readonly item: WorkItem;
  readonly traceId: string;
}

/** What the worker reports to the service around it (metrics and logs live there). */
export interface StreamObserver {
  /** `alreadyStored`: events of the stream a previous owner stored (0 for a new stream). */
  started(stream: ObservedStream, alreadyStored: number): void;
  event(stream: ObservedStream, event: ContractEvent): void;
  badRecord(stream: ObservedStream, reason: string): void;
  gatewayLost(stream: ObservedStream): void;
  finished(stream: ObservedStream, outcome: 'ended' | 'handed_over' | 'abandoned'): void;
  /** Every event is acked by JetStream (`result`: how many had to be sent again). */
  stored(stream: ObservedStream, result: FinishResult): void;
}

export interface StreamWorkerDeps {
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  readonly leases: GatewayLeases;
  readonly tracer: Tracer;
  readonly unknownEvents: UnknownEventCounter;
  readonly observer: StreamObserver;
  /** How often the owner tells JetStream it still works on the item (a third of the ack wait). */
  readonly workingIntervalMs: number;
  /** Whether the work-progress thread tells JetStream this item's progress (else the keep-alive does). */
  readonly progressTold: () => boolean;
  readonly clock: () => number;
}

/**
 * Owns one stream while it holds its work item: reads the stream's raw trace from its first record (so a
 * takeover replays it), runs the deterministic session, publishes every event above what the subject already
 * holds, proves them stored, then acks the item. If the gateway's lease expires first, it appends
 * `gateway.lost` to the raw trace, which ends the stream for every replica the same way.
 *
 * Records come live by core subscription, each once, as they arrive (LiveLogReader: the ones stored before it
 * subscribed, a gap and a reconnect are read from JetStream); the session puts them in raw_seq order. A
 * `gateway.lost` (raw_seq 0, outside the gateway's numbering) takes effect where it is stored, so once one exists
 * the rest of the trace is read from the store, in stored order, up to it: every replica ends the stream at the
 * same record.
 */
export class StreamWorker {
  /** The stream's raw trace, live, each record once (it survives a NATS restart). */
  private readonly reader: LiveLogReader;
  /**
   * A gateway.lost is stored (the stream ends where the stored order puts it), or a gap stays open: the rest of
   * the trace is read from the store, in stored order.
   */
  private storedOrder = false;
  private handingOver = false;
  private lostAppended = false;
  private storedReader: OrderedReader | undefined;
  /** When the session last took a raw record (this replica's clock): evidence that the gateway is alive. */
  private lastRecordAt = Number.NEGATIVE_INFINITY;
  private readonly retrying: RetryLoop;
  private workMessage: JsMsg;
  private readonly span: Span;
  private readonly observed: ObservedStream;

  constructor(
    private readonly item: WorkItem,
    workMessage: JsMsg,
    private readonly deps: StreamWorkerDeps,
  ) {
    this.workMessage = workMessage;
    this.retrying = new RetryLoop(deps.nc);
    this.span = deps.tracer.startSpan(
      'llm.normalize',
      {
        attributes: { 'llm.stream_id': item.stream_id, 'llm.provider': item.provider, 'llm.model': item.model, 'llm.tenant': item.tenant },
      },
      contextFromHeaders(headerLookup(workMessage.headers)),
    );
    this.observed = { item, traceId: this.span.spanContext().traceId };
    this.reader = new LiveLogReader(deps.nc, deps.js, deps.jsm, STREAM_NAMES.raw, rawSubject(item.tenant, item.stream_id), {
      positionOf: rawPosition,
      // The gateway wrote stream.open (and maybe more) before the work item: read what is stored first.
      catchUp: true,
      onUnkeyed: () => {
        this.readStoredOrder();
      },
      // A gap the store does not fill while as many records wait after it as the session may hold: the stored
      // order decides, as it does for a replica that replays the trace (the session gives the gap up there).
      maxWaiting: DEFAULT_MAX_HELD_RECORDS,
      onOverflow: () => {
        this.readStoredOrder();
      },
    });
  }

  get streamId(): string {
    return this.item.stream_id;
  }

  /** Of the stream's trace, for log lines. */
  get traceId(): string {
    return this.observed.traceId;
  }

  /**
   * JetStream delivered the item again to this owner (its `working()` calls were lost, e.g. while NATS
   * restarted): the new delivery is the one to keep in progress and to ack.
   */
  redelivered(message: JsMsg): void {
    this.workMessage = message;
    message.working();
  }

  /** Stop without finishing: the work item goes back to JetStream for another replica (graceful shutdown). */
  handOver(): void {
    this.handingOver = true;
    this.reader.close();
    this.storedReader?.close();
  }

  async run(): Promise<void> {
    const { nc, js, jsm, observer } = this.deps;
    const subject = eventsSubject(this.item.tenant, this.item.stream_id);
    // Tried until NATS answers: a restart of the server costs time, never the stream.
    const alreadyStored = await this.retrying.run(`${subject}: stored seqs`, () => storedSeqs(js, jsm, subject));
    observer.started(this.observed, alreadyStored.size);
    const publisher = new AckedPublisher(nc, js, STREAM_NAMES.events, subject, { positionHeader: HEADERS.seq });
    const session = new NormalizerSession({ createAdapter: createProviderAdapter, unknownEvents: this.deps.unknownEvents });
    const encoder = new EventMessageEncoder(this.item.tenant, this.item.stream_id, headersForSpan(this.span));
    const interval = this.deps.workingIntervalMs;
    let dueAt = this.deps.clock() + interval;
    const keepAlive = setInterval(() => {
      if (!this.deps.progressTold()) this.workMessage.working();
      const now = this.deps.clock();
      const late = now - dueAt;
      dueAt = now + interval;
      // This process was stalled (a saturated event loop, a GC, a SIGSTOP): what arrived meanwhile (records,
      // leases) may still wait unread in the socket, and timers run before I/O. No verdict from this round.
      if (late > interval / 2) return;
      // After the I/O of this loop turn (setImmediate runs after the poll phase): judge on what has arrived.
      setImmediate(() => {
        this.watchLease(session);
      });
    }, interval);
    /** Runs one record through the session and publishes its events; their acks are awaited at the end. */
    const take = (message: LogMessage): void => {
      this.lastRecordAt = this.deps.clock();
      const decoded = decodeTraceRecord(message.header, message.string());
      if (!decoded.ok) {
        observer.badRecord(this.observed, decoded.error.message);
        return;
      }
      for (const event of session.accept(decoded.value)) {
        // Events a previous owner already stored are recomputed identically, and skipped.
        if (alreadyStored.has(event.seq)) continue;
        observer.event(this.observed, event);
        publisher.publish(encoder.encode(event));
      }
    };
    const finished = (): boolean => session.terminal || this.handingOver;
    try {
      for await (const message of this.reader) {
        take(message);
        if (finished()) break;
      }
      if (this.storedOrder && !finished()) {
        // In stored order from the first record: the ones already processed are duplicates to the session, the
        // ones stored before gateway.lost are taken, and gateway.lost ends the stream where it is stored. What
        // the session held after a gap is forgotten: what it derives now depends on the stored order alone.
        session.forgetHeldRecords();
        const stored = new OrderedReader(js, STREAM_NAMES.raw, rawSubject(this.item.tenant, this.item.stream_id), { connection: nc });
        this.storedReader = stored;
        try {
          for await (const message of stored) {
            take(toLogMessage(message));
            if (finished()) break;
          }
        } finally {
          stored.close();
        }
      }
    } finally {
      clearInterval(keepAlive);
      this.reader.close();
    }
    if (!session.terminal) {
      publisher.close();
      this.endSpan();
      if (this.handingOver) {
        this.workMessage.nak();
        observer.finished(this.observed, 'handed_over');
      } else {
        // The raw trace never opened (it expired, or the gateway died first): nobody can finish it.
        // No reason string: nats-server 2.9 ignores a term() that carries one (the item would come back forever).
        this.workMessage.term();
        observer.finished(this.observed, 'abandoned');
      }
      return;
    }
    observer.stored(this.observed, await publisher.finish());
    // The ack that releases the item, confirmed; a redelivery meanwhile is acked instead (see redelivered()).
    await this.retrying.run(`${this.item.stream_id}: work item ack`, () => this.workMessage.ackAck());
    this.endSpan();
    observer.finished(this.observed, 'ended');
  }

  private readStoredOrder(): void {
    this.storedOrder = true;
    this.reader.close();
  }

  private watchLease(session: NormalizerSession): void {
    if (this.lostAppended || session.terminal) return;
    const now = this.deps.clock();
    if (!this.leaseExpired()) return;
    this.lostAppended = true;
    this.appendGatewayLost(now).catch(() => {
      // NATS did not answer: judged again at the next round.
      this.lostAppended = false;
    });
  }

  /** The gateway's lease expired and its trace has been silent for the lease timeout (gateway-leases.ts). */
  private leaseExpired(): boolean {
    // A record counts from when it came off the socket: one still queued behind a busy session is evidence too.
    const evidenceAt = Math.max(this.lastRecordAt, this.reader.lastArrivalAt);
    return this.deps.leases.isExpired(this.item.gateway_id, this.deps.clock(), evidenceAt);
  }

  /**
   * Appends gateway.lost right behind the newest record the trace holds, fenced by that record's stream sequence
   * (`Nats-Expected-Last-Subject-Sequence`): if the gateway stored anything since, JetStream refuses it, the
   * gateway is alive after all and the stream goes on. The gateway fences its own first record after a lease
   * gap the same way, so the two can never both believe they wrote the stream's end (docs/pipeline.md, "Fences").
   * A trace that holds nothing at all was never opened (it expired, or the gateway died first) and is given up.
   */
  private async appendGatewayLost(now: number): Promise<void> {
    const subject = rawSubject(this.item.tenant, this.item.stream_id);
    const newest = await lastStored(this.deps.jsm, subject);
    if (newest === undefined) {
      this.reader.close();
      return;
    }
    // Judged again on what has arrived meanwhile: the server sent this connection every record stored before the
    // read ahead of its answer, so a gateway that came back before the read has renewed its lease or written.
    if (!this.leaseExpired()) {
      this.lostAppended = false;
      return;
    }
    // raw_seq 0, which no gateway ever writes (its records count from 1): a late record of a gateway that was
    // only partitioned can never collide with it. The session ends the stream where gateway.lost is stored,
    // which is the same place for every replica; records stored after it are ignored.
    const record = { kind: 'gateway.lost' as const, raw_seq: 0, ts: now, gateway_id: this.item.gateway_id };
    const encoded = encodeTraceRecord(record, this.item);
    try {
      const ack = await this.deps.js.publish(subject, encoded.data, {
        msgID: rawMsgId(this.item.stream_id, record.raw_seq),
        headers: toNatsHeaders(encoded.headers),
        expect: { lastSubjectSequence: newest },
      });
      // A duplicate: another replica (a previous owner) stored the same gateway.lost; the stream ends all the same.
      if (!ack.duplicate) this.deps.observer.gatewayLost(this.observed);
    } catch (error) {
      if (!isWrongLastSequence(error)) throw error;
      // The gateway wrote since: the evidence is judged again from its new records.
      this.lostAppended = false;
    }
  }

  private endSpan(): void {
    this.span.end();
  }
}

/** The stream sequence of the newest message `subject` holds, or undefined when it holds none. */
async function lastStored(jsm: JetStreamManager, subject: string): Promise<number | undefined> {
  return (await jsm.streams.getMessage(STREAM_NAMES.raw, { last_by_subj: subject }))?.seq;
}

function isWrongLastSequence(error: unknown): boolean {
  return error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamWrongLastSequence;
}

/** A raw record's raw_seq; a normalizer's gateway.lost (raw_seq 0) is outside the gateway's sequence. */
function rawPosition(message: LogMessage): LogPosition | undefined {
  const rawSeq = Number(message.header(HEADERS.rawSeq));
  if (!Number.isSafeInteger(rawSeq) || rawSeq < 0) return undefined;
  return rawSeq === 0 ? 'unkeyed' : rawSeq;
}
