import type { ContractEvent, TraceRecord, Usage } from '@llm-stream/contract';

/**
 * The audit query API's answers, as far as the CLI reads them (the audit log's README documents them in
 * full; the CLI cannot import an app's types).
 */
export interface AuditStream {
  readonly stream_id: string;
  readonly provider: string | null;
  readonly model: string | null;
  readonly status: 'running' | 'completed' | 'failed' | 'interrupted';
  readonly started_at: number;
  readonly usage: Usage | null;
}

/** `GET /v1/streams/{id}` */
export interface AuditStreamDetail {
  readonly stream: AuditStream;
  readonly events: readonly ContractEvent[];
}

/** One record of `GET /v1/streams/{id}/raw`, the fields the CLI reads. */
export interface AuditRawEntry {
  /** `frame` and `frame.partial` carry `text`; the other kinds carry `record`. */
  readonly kind: string;
  readonly text?: string;
  readonly record?: TraceRecord;
  readonly raw_seq: number;
  /** Null for the records outside an attempt (stream.open, client.cancel, gateway.lost...). */
  readonly attempt: number | null;
  readonly ts: number;
  /** The audit log replaced credential-shaped values in it before storing. */
  readonly redacted: boolean;
  /** Present when the key may not see this frame's content (audit:read): `text` is a placeholder. */
  readonly withheld?: object;
}

/** `GET /v1/streams/{id}/raw` */
export interface AuditRawTrace {
  readonly stream_id: string;
  readonly records: readonly AuditRawEntry[];
}

/** One stream of `GET /v1/replay/traces`: its stored events and raw trace. */
export interface AuditStoredTrace {
  readonly stream_id: string;
  readonly provider: string | null;
  readonly model: string | null;
  readonly status: AuditStream['status'];
  /** A frame was stored with credential-shaped values replaced. */
  readonly redacted: boolean;
  readonly events: readonly ContractEvent[];
  /** In stored order; null for a record the audit log cannot read back. */
  readonly records: readonly (TraceRecord | null)[];
}

/** `GET /v1/replay/traces?...` */
export interface AuditStoredTracePage {
  readonly streams: readonly AuditStoredTrace[];
  readonly next_cursor: string | null;
}
