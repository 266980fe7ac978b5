import type { FaultRecord } from './fault-kinds.js';

/**
 * Everything a chaos run observed, as plain data: the input of the checker ({@link check}). It holds what the
 * upstream served, what every HTTP client saw, what the backend subscriber saw, what JetStream stored and what
 * the audit log holds, plus the faults with their times. Nothing in it comes from the services' own
 * session, assembler or client classes; a test can write one by hand with any defect.
 */
export interface RecordedRun {
  readonly seed: number;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly faults: readonly FaultRecord[];
  readonly clients: readonly ClientRecord[];
  /** Replay provider lines, one per answered upstream request. */
  readonly served: readonly ServedBody[];
  /** Per stream id: what the backend subscriber (typed client on `llm.events.<tenant>.>`) delivered. */
  readonly backend: Readonly<Record<string, readonly SeenEvent[]>>;
  /** Per stream id: the events LLM_EVENTS holds, read raw at the end (stored order, duplicates kept). */
  readonly stored: Readonly<Record<string, readonly StoredEvent[]>>;
  /** Per stream id: what the audit log answers at the end; absent when it knows nothing of the stream. */
  readonly audit: Readonly<Record<string, AuditView>>;
}

/** What a transcript's `.expect.json` says the outcome must be (the fields the checker compares). */
export interface Expectation {
  readonly terminal: 'completed' | 'failed' | 'interrupted';
  readonly error_category?: string | null;
  readonly stop_reason_normalized?: string | null;
  readonly blocks?: readonly { readonly kind: string; readonly text?: string }[];
}

/** What a client asked for: a conformance transcript (with its expectation) or a long synthetic answer. */
export type Workload =
  | { readonly kind: 'transcript'; readonly provider: string; readonly caseName: string; readonly expect: Expectation }
  | { readonly kind: 'synthetic'; readonly provider: string; readonly frames: number };

/** One HTTP request a client made: the POST that starts a stream or a GET that resumes it. */
export interface ClientRequest {
  readonly kind: 'post' | 'resume';
  readonly gateway: string;
  readonly at: number;
  /** HTTP status; null when no response headers arrived. */
  readonly status: number | null;
  /** Why the request ended without a terminal event (transport error, refusal body), null otherwise. */
  readonly error: string | null;
  readonly events: number;
}

/** One contract event as a client or the backend saw it, with the time it arrived (epoch ms). */
export interface SeenEvent {
  readonly seq: number;
  readonly type: string;
  /**
   * The event's content as received (`eventContentHash` of check/event-content.ts, of the SSE record's `data`, or of the event the
   * typed client delivered): compared with the stored event of the same seq, without keeping every body.
   */
  readonly hash: string;
  readonly at: number;
}

/** One client stream: what it requested and every event it saw, across resumes. */
export interface ClientRecord {
  /** The replay scenario id: the join key between the client and the upstream's served bodies. */
  readonly key: string;
  readonly tenant: string;
  readonly workload: Workload;
  /** Part of an overload burst (refusals are then counted, not failures, when the status says so). */
  readonly burst: boolean;
  /** This client stopped reading for a while (the slow-reader fault). */
  readonly slowReader: boolean;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly streamId: string | null;
  readonly requests: readonly ClientRequest[];
  readonly events: readonly SeenEvent[];
}

/** A body the upstream served (the replay provider's served log), its complete SSE records in order. */
export interface ServedBody {
  readonly scenario: string | null;
  readonly requestId: string;
  readonly status: number | null;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly outcome: string;
  readonly body: string;
}

/** One event as stored in LLM_EVENTS: the parsed JSON the normalizer wrote. */
export interface StoredEvent {
  readonly seq: number;
  readonly type: string;
  readonly [field: string]: unknown;
}

/** One raw trace record as the audit log returns it (`/raw`). */
export interface AuditRawRecord {
  readonly raw_seq: number;
  readonly attempt: number | null;
  readonly kind: string;
  /** A frame's exact text. */
  readonly text?: string;
  /** `attempt.end`: why the body ended (`eof`, `aborted`, `transport_error`, ...). */
  readonly reason?: string;
}

export interface AuditView {
  readonly status: string;
  readonly gatewayId: string | null;
  readonly eventSeqs: readonly number[];
  readonly verifyOk: boolean;
  readonly verifyDetail: string;
  readonly raw: readonly AuditRawRecord[];
}
