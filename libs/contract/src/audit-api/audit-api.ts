import type { AssembledBlock, AssembledResult } from '../assembler/assembled-result.js';
import type { ContractEvent } from '../events/contract-event.js';
import type { Usage } from '../events/usage.js';
import type { InvariantViolation } from '../invariants/check-invariants.js';
import type { TraceRecord } from '../trace/trace-record.js';

// The audit query API's answers (apps/audit-log): one definition for the service that writes them and for every
// reader (the CLI, the console, a backend), so a field cannot change in one place and be read stale in another.

/** A stream's state in the audit log: `running` until its terminal event is stored. */
export const STREAM_STATUSES = ['running', 'completed', 'failed', 'interrupted'] as const;
export type StreamStatus = (typeof STREAM_STATUSES)[number];

/** One stream as the query API shows it (the `audit_streams` row without its bookkeeping columns). */
export interface StreamRecord {
  readonly stream_id: string;
  readonly tenant: string;
  readonly provider: string | null;
  /** The model the client asked for. */
  readonly model: string | null;
  /** The gateway route the stream went through (null for streams recorded before routes). */
  readonly route: string | null;
  readonly gateway_id: string | null;
  readonly status: StreamStatus;
  readonly error_category: string | null;
  readonly error_provider_code: string | null;
  /** The contract's safe error message (never content). */
  readonly error_message: string | null;
  readonly stop_reason: string | null;
  readonly provider_stop_reason: string | null;
  readonly usage: Usage | null;
  readonly response_id: string | null;
  /** The model id the provider reported. */
  readonly provider_model: string | null;
  /** The stream's OpenTelemetry trace id (32 hex digits), from the messages' `traceparent`. */
  readonly trace_id: string | null;
  /** Receive time of stream.open / stream.start, ms since the epoch. */
  readonly started_at: number;
  /** Receive time of the terminal event. */
  readonly ended_at: number | null;
  readonly terminal_seq: number | null;
  /** Contract events stored. */
  readonly event_count: number;
  /** Raw trace records stored. */
  readonly raw_count: number;
  /** stream.warning events stored, and among them those about unknown provider events or parts. */
  readonly warning_count: number;
  readonly unknown_event_count: number;
  /** Whether the client's request was captured (only for tenants with prompt capture on). */
  readonly prompt_captured: boolean;
}

export const CHAIN_BREAK_REASONS = [
  'missing_event',
  'unreadable_body',
  'content_hash_mismatch',
  'prev_hash_mismatch',
  'chain_hash_mismatch',
  'unlinked_event',
  'head_mismatch',
] as const;
export type ChainBreakReason = (typeof CHAIN_BREAK_REASONS)[number];

/** The first link that does not hold: the event at `seq` is missing, altered, or not linked to its predecessor. */
export interface ChainBreak {
  readonly seq: number;
  readonly reason: ChainBreakReason;
  readonly message: string;
}

/** `GET /v1/streams/{id}` */
export interface StreamDetail {
  readonly stream: StreamRecord;
  /** The events folded as `llm-stream assemble` folds them: blocks, tool calls with parsed arguments. */
  readonly result: AssembledResult;
  /** The stream did not complete: its blocks are a draft (the text received so far), never a result to act on. */
  readonly draft: boolean;
  /** The tool_call blocks of `result`, in index order: only `complete` ones carry parsed `arguments`. */
  readonly tool_calls: readonly AssembledBlock[];
  readonly events: readonly ContractEvent[];
  /**
   * When each event was stored: JetStream's time of its LLM_EVENTS message (ms since the epoch; null for events
   * stored before the audit log kept it), by seq, beside the event's own `ts` (when the normalizer produced it).
   */
  readonly event_times: readonly EventTime[];
  /** The client's request, only for tenants with prompt capture on. */
  readonly prompt?: unknown;
  /**
   * Set when the read asked for `after_seq`: `events` and `event_times` hold only the events after that seq (a live
   * view's next poll); `stream`, `result`, `draft` and `tool_calls` are still the whole stream's.
   */
  readonly events_after_seq?: number;
}

export interface EventTime {
  readonly seq: number;
  readonly ts: number;
  readonly js_time: number | null;
}

/** `GET /v1/stats/timeline` */
export interface StatsTimeline {
  readonly from: number;
  readonly to: number;
  readonly bucket_ms: number;
  readonly buckets: readonly StatsBucket[];
}

/** `GET /v1/stats/unknown-events` */
export interface UnknownEvents {
  readonly from: number | null;
  readonly to: number | null;
  readonly groups: readonly UnknownEventGroup[];
}

/** One record of `GET /v1/streams/{id}/raw`: a frame's exact text or another record's fields, and the events it produced. */
export interface RawTraceEntry {
  readonly raw_seq: number;
  readonly attempt: number | null;
  readonly kind: string;
  readonly ts: number;
  readonly redacted: boolean;
  readonly text?: string;
  readonly record?: TraceRecord;
  /** Set when the key may not see this frame's content (audit:read without the reasoning policy): `text` is a placeholder. */
  readonly withheld?: { readonly raw_seq: number; readonly bytes: number };
  readonly events: readonly ContractEvent[];
}

export interface RawTrace {
  readonly stream_id: string;
  readonly records: readonly RawTraceEntry[];
  /** The replay of the stored trace against the stored events: on a whole read only, never on a page. */
  readonly replay?: RawTraceReplaySummary;
  /** Set on a page (`after_js_seq`, `limit`): where it starts and ends in LLM_RAW order, and whether more is stored. */
  readonly page?: RawTracePage;
}

export interface RawTraceReplaySummary {
  readonly events: number;
  readonly matches_stored: boolean;
  readonly first_difference_seq: number | null;
}

/**
 * A page of a raw trace in LLM_RAW order: the records stored after JetStream sequence `after_js_seq`, up to the
 * page's limit. The next page is `after_js_seq=last_js_seq`; `more` says whether records past it were already
 * stored when this page was read (a running stream keeps adding to its trace).
 */
export interface RawTracePage {
  readonly after_js_seq: number;
  readonly last_js_seq: number;
  readonly more: boolean;
}

export interface VerifyReport {
  readonly stream_id: string;
  readonly ok: boolean;
  readonly invariants: { readonly ok: boolean; readonly partial: boolean; readonly violations: readonly InvariantViolation[] };
  readonly chain: {
    readonly ok: boolean;
    readonly events: number;
    readonly verified: number;
    readonly head: { readonly seq: number; readonly hash: string };
    readonly first_broken: ChainBreak | null;
  };
}

export interface StreamList {
  readonly streams: readonly StreamRecord[];
  readonly next_cursor: string | null;
}

/** One bucket of `GET /v1/stats/timeline`: the streams started in [start, start + bucket_ms). */
export interface StatsBucket {
  readonly start: number;
  readonly streams: number;
  readonly by_status: Readonly<Record<string, number>>;
  readonly by_error_category: Readonly<Record<string, number>>;
}

/** The streams that had unknown provider events of one type, from one provider. */
export interface UnknownEventGroup {
  readonly provider: string;
  /** The provider event (or part) type the normalizer warned about. */
  readonly type: string;
  readonly streams: number;
  /** The newest of them (at most 20). */
  readonly stream_ids: readonly string[];
}

/**
 * One stream of `GET /v1/replay/traces`: what a replay check on the caller's side needs, its stored events and
 * its stored raw trace, in one answer for a page of streams instead of two requests per stream.
 */
export interface StoredTrace {
  readonly stream_id: string;
  readonly provider: string | null;
  readonly model: string | null;
  readonly status: StreamStatus;
  readonly redacted: boolean;
  readonly events: readonly ContractEvent[];
  /** In stored order; null for a record that cannot be read back. */
  readonly records: readonly (TraceRecord | null)[];
}

/**
 * `GET /v1/replay/traces?...`: a page of the tenant's stored traces (the list route's filters and order), for
 * `llm-stream replay`, which replays them with its own build's adapters (a new version before it is deployed).
 */
export interface StoredTracePage {
  readonly streams: readonly StoredTrace[];
  readonly next_cursor: string | null;
}
