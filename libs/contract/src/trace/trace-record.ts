import type { ProviderName } from '../events/provider.js';
import type { JsonValue } from '../events/provider-metadata.js';

/**
 * One entry of a stream's raw trace: everything the gateway saw, in receive order. The trace is the input
 * of the normalizer: replaying the same records through the same adapter yields the same events, which is
 * how a normalizer replica takes over a stream whose owner died.
 *
 * `raw_seq` numbers the records of one stream from 1, across attempts; `ts` is the receive time in ms.
 */
export type TraceRecord =
  | StreamOpenRecord
  | ClientRequestRecord
  | AttemptStartRecord
  | UpstreamResponseRecord
  | FrameRecord
  | AttemptEndRecord
  | ClientCancelRecord
  | GatewayLostRecord
  | GatewayShutdownRecord
  | HeartbeatRecord;

export type TraceRecordKind = TraceRecord['kind'];

export const TRACE_RECORD_KINDS = [
  'stream.open',
  'client.request',
  'attempt.start',
  'upstream.response',
  'frame',
  'attempt.end',
  'client.cancel',
  'gateway.lost',
  'gateway.shutdown',
  'heartbeat',
] as const satisfies readonly TraceRecordKind[];

interface RecordBase {
  readonly raw_seq: number;
  readonly ts: number;
}

/** The gateway accepted a request: who asked, for which provider and model, and the retry budget. */
export interface StreamOpenRecord extends RecordBase {
  readonly kind: 'stream.open';
  readonly stream_id: string;
  readonly tenant: string;
  readonly provider: ProviderName;
  readonly model: string;
  /** The gateway route the stream went through (absent in traces recorded before routes existed). */
  readonly route?: string;
  /** The gateway instance that owns the upstream connection (its liveness lease is watched). */
  readonly gateway_id: string;
  /** Attempts allowed before the first visible delta (1 = never retry). */
  readonly max_attempts: number;
  /**
   * The adapters build of the gateway that opened the stream (ADAPTERS_BUILD): the build whose events its
   * own client was served while the normalizers ran the same one. Absent in traces recorded before 1.3.0.
   */
  readonly adapters?: number;
}

/**
 * The client's request body (the prompt), recorded only for API keys with prompt capture on: by default the
 * raw trace holds what the provider sent, never what the client asked. It does not affect normalization.
 */
export interface ClientRequestRecord extends RecordBase {
  readonly kind: 'client.request';
  readonly body: JsonValue;
}

/** A new upstream request begins. Attempts are numbered from 1. */
export interface AttemptStartRecord extends RecordBase {
  readonly kind: 'attempt.start';
  readonly attempt: number;
}

/** The upstream answered with a status line. Error statuses carry the (capped) response body. */
export interface UpstreamResponseRecord extends RecordBase {
  readonly kind: 'upstream.response';
  readonly attempt: number;
  readonly status: number;
  readonly content_type?: string;
  readonly retry_after_ms?: number;
  readonly request_id?: string;
  readonly body?: string;
}

/**
 * One SSE record exactly as received (its lines and the blank line that ended it), or, with `partial`,
 * the bytes left without a terminating blank line when the body ended. Text that is not SSE at all (an
 * unframed JSON error body) arrives here too, so the adapter can inspect it.
 */
export interface FrameRecord extends RecordBase {
  readonly kind: 'frame';
  readonly attempt: number;
  readonly text: string;
  readonly partial?: true;
}

/**
 * Why an upstream attempt stopped delivering bytes. `aborted`: the gateway closed the connection itself
 * because the stream had already settled: a retryable failure to retry (at once), or a terminal signal after
 * which the body did not end within a grace of a second (a body that ends in it, as providers' bodies do, ends
 * `eof` and its connection is reused; what came after the terminal signal is recorded and ignored).
 */
export const ATTEMPT_END_REASONS = [
  'eof',
  'connect_error',
  'transport_error',
  'idle_timeout',
  'progress_timeout',
  'frame_too_large',
  'cancelled',
  'aborted',
] as const;
export type AttemptEndReason = (typeof ATTEMPT_END_REASONS)[number];

/** The upstream body of an attempt ended (cleanly or not). */
export interface AttemptEndRecord extends RecordBase {
  readonly kind: 'attempt.end';
  readonly attempt: number;
  readonly reason: AttemptEndReason;
  /** Diagnostic detail (an error code, a byte count), never content. */
  readonly detail?: string;
}

/** The client cancelled (DELETE, or it disconnected and did not come back within the grace period). */
export interface ClientCancelRecord extends RecordBase {
  readonly kind: 'client.cancel';
  readonly reason: 'client_request' | 'client_disconnected';
}

/** Written by a normalizer when the owning gateway's liveness lease expired before the stream ended. */
export interface GatewayLostRecord extends RecordBase {
  readonly kind: 'gateway.lost';
  readonly gateway_id: string;
}

/**
 * The owning gateway ended the stream itself before the upstream did: its SIGTERM drain ran out
 * (`drain_timeout`, also when `reason` is absent), JetStream confirmed none of the stream's records for so
 * long that more than the publisher's bound waited in memory (`trace_backlog`, see docs/pipeline.md), or
 * JetStream did not confirm the stream's opening in time, so the client was refused (503 `unavailable`) and
 * the provider never called (`not_opened`): `stream.open` or the work item may be stored all the same.
 */
export interface GatewayShutdownRecord extends RecordBase {
  readonly kind: 'gateway.shutdown';
  readonly gateway_id: string;
  readonly reason?: GatewayShutdownReason;
}

export const GATEWAY_SHUTDOWN_REASONS = ['drain_timeout', 'trace_backlog', 'not_opened'] as const;
export type GatewayShutdownReason = (typeof GATEWAY_SHUTDOWN_REASONS)[number];

/** The gateway's keep-alive while the upstream is silent; becomes `stream.heartbeat`. */
export interface HeartbeatRecord extends RecordBase {
  readonly kind: 'heartbeat';
}
