import { HttpStreamError } from './http-stream-error.js';

export interface GatewayHttpOptions {
  /** The gateway's base URL, e.g. `http://127.0.0.1:8080`. */
  readonly baseUrl: string | URL;
  /** A gateway API key with the `streams` scope (sent as `Authorization: Bearer <key>`). */
  readonly apiKey: string;
  /** The `fetch` to use (default: the global one). */
  readonly fetch?: typeof fetch;
}

/** The gateway's three stream routes as fetch calls; network failures become `connection_failed`. */
export class GatewayHttp {
  private readonly fetch: typeof fetch;
  private readonly baseUrl: URL;

  constructor(private readonly options: GatewayHttpOptions) {
    this.fetch = options.fetch ?? globalThis.fetch;
    this.baseUrl = new URL(options.baseUrl);
  }

  /** POST /v1/streams/{route}: the provider's own request body. */
  create(route: string, body: unknown, model: string | undefined, signal: AbortSignal | undefined): Promise<Response> {
    const url = this.url(`v1/streams/${encodeURIComponent(route)}`);
    if (model !== undefined) url.searchParams.set('model', model);
    return this.send(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }, signal);
  }

  /** GET /v1/streams/{id}/events after `afterSeq` (`Last-Event-ID`). */
  events(streamId: string, afterSeq: number, signal: AbortSignal | undefined): Promise<Response> {
    const url = this.url(`v1/streams/${encodeURIComponent(streamId)}/events`);
    return this.send(url, { method: 'GET', headers: { 'last-event-id': String(afterSeq), accept: 'text/event-stream' } }, signal);
  }

  /** DELETE /v1/streams/{id}. */
  cancel(streamId: string, signal: AbortSignal | undefined): Promise<Response> {
    return this.send(this.url(`v1/streams/${encodeURIComponent(streamId)}`), { method: 'DELETE', headers: {} }, signal);
  }

  private url(path: string): URL {
    // Relative to the base URL's path, so a gateway behind a path prefix works too.
    const base = this.baseUrl.href.endsWith('/') ? this.baseUrl : new URL(`${this.baseUrl.href}/`);
    return new URL(path, base);
  }

  private async send(url: URL, init: GatewayRequest, signal: AbortSignal | undefined): Promise<Response> {
    try {
      return await this.fetch(url, {
        ...init,
        headers: { ...init.headers, authorization: `Bearer ${this.options.apiKey}` },
        ...(signal === undefined ? {} : { signal }),
      });
    } catch (error) {
      if (signal?.aborted === true) throw new HttpStreamError('aborted', 'the stream was aborted', { cause: signal.reason });
      throw new HttpStreamError('connection_failed', `${init.method} ${url.pathname} failed: ${describe(error)}`, { cause: error });
    }
  }
}

interface GatewayRequest {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}
