import type { StreamReplay } from '@llm-stream/adapters';
import type { RawTrace, StatsTimeline, StreamDetail, StreamList, UnknownEvents, VerifyReport } from '@llm-stream/contract';

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

  /** The whole detail, or (`afterSeq`) the record and result with only the events after that seq. */
  detail(streamId: string, afterSeq?: number): Promise<StreamDetail> {
    return this.get(`/v1/streams/${encodeURIComponent(streamId)}${afterSeq === undefined ? '' : `?after_seq=${String(afterSeq)}`}`);
  }

  /** A page of the raw trace: the records stored after LLM_RAW sequence `afterJsSeq` (0: from the start). */
  rawPage(streamId: string, afterJsSeq: number): Promise<RawTrace> {
    return this.get(`/v1/streams/${encodeURIComponent(streamId)}/raw?after_js_seq=${String(afterJsSeq)}`);
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
