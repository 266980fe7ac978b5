import type { RawTrace, StoredTrace, StoredTracePage, StreamDetail } from '@llm-stream/contract';
import { AuditApiError } from './audit-api-error.js';

/** Filters of `GET /v1/streams` (and the replay routes) the CLI passes on (the API checks them). */
export type StreamListQuery = Readonly<Partial<Record<'from' | 'to' | 'provider' | 'status', string>>>;

/** Stored traces per page (a page of 200 streams of some 25 records each is a few megabytes). */
const TRACE_PAGE_SIZE = 200;

/** The audit query API over HTTP, with one API key (sent as a bearer token). */
export class AuditClient {
  private readonly base: string;

  constructor(
    baseUrl: string,
    private readonly key: string,
  ) {
    this.base = baseUrl.replace(/\/+$/, '');
  }

  detail(streamId: string): Promise<StreamDetail> {
    return this.get<StreamDetail>(`/v1/streams/${encodeURIComponent(streamId)}`, `stream ${streamId}`);
  }

  raw(streamId: string): Promise<RawTrace> {
    return this.get<RawTrace>(`/v1/streams/${encodeURIComponent(streamId)}/raw`, `stream ${streamId}`);
  }

  /**
   * Every stored trace (events and raw records) of the streams the filters select, a page per request, newest
   * first: a replay reads a day of traffic in a few hundred requests instead of two per stream.
   */
  async *storedTraces(query: StreamListQuery): AsyncGenerator<StoredTrace> {
    let cursor: string | null = null;
    do {
      const params = new URLSearchParams({ ...query, limit: String(TRACE_PAGE_SIZE), ...(cursor !== null && { cursor }) });
      const page: StoredTracePage = await this.get<StoredTracePage>(`/v1/replay/traces?${params.toString()}`, 'the stored traces');
      yield* page.streams;
      cursor = page.next_cursor;
    } while (cursor !== null);
  }

  private async get<T>(path: string, what: string): Promise<T> {
    const url = `${this.base}${path}`;
    let response: Response;
    try {
      response = await fetch(url, { headers: { authorization: `Bearer ${this.key}`, accept: 'application/json' } });
    } catch (error) {
      const reason = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
      throw new AuditApiError('unavailable', `the audit API at ${this.base} does not answer (${reason})`, { cause: error });
    }
    if (response.ok) return (await response.json()) as T;
    throw new AuditApiError(...refusal(response.status, await apiMessage(response), what, this.base));
  }
}

function refusal(status: number, message: string, what: string, base: string): [AuditApiError['code'], string] {
  const said = message === '' ? '' : `: ${message}`;
  if (status === 401) return ['unauthorized', `the audit API refuses the key (401${said}): is --key one of its GATEWAY_API_KEYS?`];
  if (status === 403) return ['forbidden', `the key lacks the scope for ${what} (403${said}): export and replay need an audit:full key`];
  if (status === 404) return ['not_found', `the audit API at ${base} has no ${what} for this key's tenant (404)`];
  if (status >= 500) return ['unavailable', `the audit API failed on ${what} (${String(status)}${said}); try again`];
  return ['rejected', `the audit API rejects the request for ${what} (${String(status)}${said})`];
}

/** The `message` of the API's error body (`{error: {code, message}}` or `{message}`), if any. */
async function apiMessage(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { error?: { message?: unknown }; message?: unknown };
    const message = body.error?.message ?? body.message;
    return typeof message === 'string' ? message : '';
  } catch {
    return '';
  }
}
