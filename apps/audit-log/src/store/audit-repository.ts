import type { ContractEvent, StatsBucket, StreamRecord, StreamStatus, UnknownEventGroup } from '@llm-stream/contract';
import type { ChainHead } from '../chain/hash-chain.js';

/** A contract event taken from LLM_EVENTS, ready to store. */
export interface IncomingEvent {
  /** From the subject `llm.events.<tenant>.<stream_id>`. */
  readonly tenant: string;
  readonly event: ContractEvent;
  /** The message payload exactly as received (the event's JSON). */
  readonly body: string;
  /** JetStream's time of the message (ms since the epoch): when LLM_EVENTS stored it; null outside JetStream. */
  readonly jsTime: number | null;
  /**
   * The trace id of the message's `traceparent`, if it carries one. Read lazily (a getter): only the first
   * event of a stream needs it, and parsing every message's headers is a large part of the ingestion cost.
   */
  readonly traceId: string | null;
}

/** A raw trace record taken from LLM_RAW, already redacted (see privacy/redact.ts). */
export interface IncomingRawRecord {
  readonly type: 'record';
  readonly tenant: string;
  readonly streamId: string;
  /** 0 for records outside an attempt (stream.open, heartbeat, client.cancel...). */
  readonly attempt: number;
  readonly rawSeq: number;
  /** The `Llm-Record` header: a record kind, or `frame.partial`. */
  readonly kind: string;
  readonly ts: number;
  /** The message's LLM_RAW sequence: the order the normalizer read the records in. */
  readonly jsSeq: number;
  /** A frame's exact text, or the record's JSON. */
  readonly body: string;
  readonly redacted: boolean;
  readonly traceId: string | null;
  /** What `stream.open` says about the stream. */
  readonly opened?: { readonly provider: string; readonly model: string; readonly route?: string; readonly gatewayId: string };
}

/** The client's request, for a tenant with prompt capture on (the store never sees it otherwise). */
export interface IncomingPrompt {
  readonly type: 'prompt';
  readonly tenant: string;
  readonly streamId: string;
  readonly ts: number;
  /** The redacted request body (JSON). */
  readonly prompt: string;
  readonly traceId: string | null;
}

export type IncomingRaw = IncomingRawRecord | IncomingPrompt;

export interface EventIngestResult {
  /** Events newly stored. */
  readonly stored: number;
  /** Events that were already stored (redeliveries, republished messages). */
  readonly duplicates: number;
  /** Events refused because their stream belongs to another tenant. */
  readonly foreign: number;
  /** Streams whose terminal event was stored by this batch, with the index of that event in the batch. */
  readonly ended: readonly { readonly streamId: string; readonly status: StreamStatus; readonly batchIndex: number }[];
}

export interface RawIngestResult {
  readonly stored: number;
  readonly duplicates: number;
  readonly foreign: number;
}

/** A stream with what only the service needs: its chain head and its captured prompt. */
export interface StoredStream {
  readonly record: StreamRecord;
  readonly chain: ChainHead;
  readonly prompt: string | null;
}

export interface StoredEvent {
  readonly seq: number;
  readonly type: string;
  readonly ts: number;
  /** JetStream's time of the event's message; null for events stored before migration 3. */
  readonly js_time: number | null;
  readonly body: string;
  readonly content_hash: string;
  readonly prev_hash: string | null;
  readonly chain_hash: string | null;
}

export interface StoredRawRecord {
  readonly attempt: number;
  readonly raw_seq: number;
  readonly kind: string;
  readonly ts: number;
  readonly js_seq: number;
  readonly body: string;
  readonly redacted: boolean;
}

/** Filters of the listing; every field narrows it. Times are ms since the epoch; `to` is exclusive. */
export interface StreamFilter {
  readonly status?: StreamStatus;
  readonly errorCategory?: string;
  readonly provider?: string;
  readonly model?: string;
  readonly route?: string;
  readonly traceId?: string;
  readonly from?: number;
  readonly to?: number;
}

/** Newest first; `after` is the last stream of the previous page. */
export interface PageRequest {
  readonly limit: number;
  readonly after?: { readonly startedAt: number; readonly streamId: string };
}

export interface StreamPage {
  readonly streams: readonly StreamRecord[];
  /** Present when more streams match. */
  readonly next?: { readonly startedAt: number; readonly streamId: string };
}

export interface TimeRange {
  readonly from?: number;
  readonly to?: number;
}

export interface AuditStats {
  readonly streams: number;
  readonly by_status: Readonly<Record<string, number>>;
  readonly by_error_category: Readonly<Record<string, number>>;
  readonly by_provider: Readonly<Record<string, number>>;
  readonly unknown_events: {
    readonly total: number;
    readonly by_provider: Readonly<Record<string, number>>;
    /** By provider event (or part) type: one per stream and type (the normalizer warns once per type). */
    readonly by_type: Readonly<Record<string, number>>;
  };
}

/** The stream ids an unknown-event group lists at most (the newest). */
export const UNKNOWN_EVENT_STREAM_IDS = 20;

/**
 * The audit log's store: one interface, two backends (PostgreSQL, SQLite), both run by the same test suite.
 * Ingestion is idempotent: events on (stream_id, seq), raw records on (stream_id, attempt, raw_seq).
 */
export interface AuditRepository {
  readonly backend: 'postgres' | 'sqlite';
  /** Applies the migrations not applied yet; returns their versions. */
  migrate(): Promise<readonly number[]>;
  /** Stores a batch of events in one transaction, linking each stream's hash chain. */
  ingestEvents(batch: readonly IncomingEvent[], now: number): Promise<EventIngestResult>;
  /** Stores a batch of raw records (and captured prompts) in one transaction. */
  ingestRaw(batch: readonly IncomingRaw[], now: number): Promise<RawIngestResult>;
  /** The tenant's stream; another tenant's stream is the same as none. */
  findStream(tenant: string, streamId: string): Promise<StoredStream | undefined>;
  /** The stream's events in seq order. */
  events(streamId: string): Promise<StoredEvent[]>;
  /** The stream's raw records in the order LLM_RAW holds them; with `afterJsSeq`, only those stored after it. */
  rawRecords(streamId: string, afterJsSeq?: number): Promise<StoredRawRecord[]>;
  listStreams(tenant: string, filter: StreamFilter, page: PageRequest): Promise<StreamPage>;
  stats(tenant: string, range: TimeRange): Promise<AuditStats>;
  /** Counts by status and error category in buckets of `bucketMs` from `from` (every bucket, empty ones too). */
  statsTimeline(tenant: string, range: { readonly from: number; readonly to: number }, bucketMs: number): Promise<StatsBucket[]>;
  /** Unknown provider events by provider and type, with the streams that had them, most streams first. */
  unknownEvents(tenant: string, range: TimeRange): Promise<UnknownEventGroup[]>;
  /** Deletes up to `limit` streams (with their events and raw records) that started before `cutoff`. */
  deleteStreamsStartedBefore(cutoff: number, limit: number): Promise<number>;
  /** Resolves when the database answers. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
