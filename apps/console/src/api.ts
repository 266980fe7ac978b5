import type { ContractEvent, AssembledBlock, AssembledResult } from '@llm-stream/contract';

/** The audit API's answers the console reads (apps/audit-log/src/query/audit-query.service.ts). */
export interface StreamRecord {
  readonly stream_id: string;
  readonly provider: string | null;
  readonly model: string | null;
  readonly route: string | null;
  readonly status: 'running' | 'completed' | 'failed' | 'interrupted';
  readonly error_category: string | null;
  readonly error_provider_code: string | null;
  readonly error_message: string | null;
  readonly stop_reason: string | null;
  readonly provider_stop_reason: string | null;
  readonly trace_id: string | null;
  readonly started_at: number;
  readonly ended_at: number | null;
  readonly event_count: number;
  readonly raw_count: number;
  readonly unknown_event_count: number;
}

export interface StreamDetail {
  readonly stream: StreamRecord;
  readonly result: AssembledResult;
  readonly draft: boolean;
  readonly tool_calls: readonly AssembledBlock[];
  readonly events: readonly ContractEvent[];
  readonly event_times: readonly { readonly seq: number; readonly ts: number; readonly js_time: number | null }[];
}

export interface RawTraceEntry {
  readonly raw_seq: number;
  readonly attempt: number | null;
  readonly kind: string;
  readonly ts: number;
  readonly redacted: boolean;
  readonly text?: string;
  readonly record?: Readonly<Record<string, unknown>>;
  readonly withheld?: { readonly raw_seq: number; readonly bytes: number };
  readonly events: readonly ContractEvent[];
}

export interface RawTrace {
  readonly stream_id: string;
  readonly records: readonly RawTraceEntry[];
  readonly replay: { readonly events: number; readonly matches_stored: boolean; readonly first_difference_seq: number | null };
}

export interface VerifyReport {
  readonly ok: boolean;
  readonly invariants: { readonly ok: boolean; readonly partial: boolean; readonly violations: readonly { readonly code?: string; readonly message?: string }[] };
  readonly chain: { readonly ok: boolean; readonly events: number; readonly verified: number; readonly first_broken: { readonly seq: number; readonly reason: string } | null };
}

export interface StatsTimeline {
  readonly from: number;
  readonly to: number;
  readonly bucket_ms: number;
  readonly buckets: readonly { readonly start: number; readonly streams: number; readonly by_status: Readonly<Record<string, number>>; readonly by_error_category: Readonly<Record<string, number>> }[];
}

export interface UnknownEvents {
  readonly groups: readonly { readonly provider: string; readonly type: string; readonly streams: number; readonly stream_ids: readonly string[] }[];
}

/** `GET /v1/streams/{id}/replay` (audit:full): the stored raw trace re-normalized with this build's adapters. */
export interface StreamReplay {
  readonly replayed: unknown;
  readonly changes: readonly { readonly field: string; readonly block?: number; readonly stored: unknown; readonly replayed: unknown }[];
  readonly unreplayable: string | null;
  readonly redacted: boolean;
}

export interface StreamList {
  readonly streams: readonly StreamRecord[];
  readonly next_cursor: string | null;
}

/** An answer other than 2xx, with the API's `error.code` and message (or what went wrong before an answer). */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiFailure';
  }
}

/** The audit API of this origin, read with the signed-in key. */
export class AuditApi {
  constructor(private readonly key: string) {}

  streams(query: URLSearchParams): Promise<StreamList> {
    return this.get(`/v1/streams?${query.toString()}`);
  }

  detail(streamId: string): Promise<StreamDetail> {
    return this.get(`/v1/streams/${encodeURIComponent(streamId)}`);
  }

  raw(streamId: string): Promise<RawTrace> {
    return this.get(`/v1/streams/${encodeURIComponent(streamId)}/raw`);
  }

  verify(streamId: string): Promise<VerifyReport> {
    return this.get(`/v1/streams/${encodeURIComponent(streamId)}/verify`);
  }

  replay(streamId: string): Promise<StreamReplay> {
    return this.get(`/v1/streams/${encodeURIComponent(streamId)}/replay`);
  }

  timeline(from: number, to: number, buckets: number): Promise<StatsTimeline> {
    return this.get(`/v1/stats/timeline?from=${String(from)}&to=${String(to)}&buckets=${String(buckets)}`);
  }

  unknownEvents(): Promise<UnknownEvents> {
    return this.get('/v1/stats/unknown-events');
  }

  private async get<T>(path: string): Promise<T> {
    let response: Response;
    try {
      response = await fetch(path, { headers: { authorization: `Bearer ${this.key}` } });
    } catch (error) {
      throw new ApiFailure(0, 'network', `the audit log did not answer (${error instanceof Error ? error.message : 'network error'})`);
    }
    const body = (await response.json().catch(() => null)) as unknown;
    if (!response.ok) {
      const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
      throw new ApiFailure(
        response.status,
        typeof error?.code === 'string' ? error.code : 'http_error',
        typeof error?.message === 'string' ? error.message : `HTTP ${String(response.status)}`,
      );
    }
    return body as T;
  }
}
