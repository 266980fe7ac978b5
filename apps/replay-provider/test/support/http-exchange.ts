import { request, type IncomingHttpHeaders } from 'node:http';

/** One HTTP exchange as the client saw it: every `data` event kept apart, and how the body ended. */
export interface Exchange {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** One entry per 'data' event: node:http emits one per HTTP chunk, so these are the server's writes. */
  readonly chunks: Buffer[];
  readonly body: Buffer;
  /** True only when the body ended cleanly (the terminating zero-length chunk arrived). */
  readonly complete: boolean;
  /** The transport error, when the connection broke before a clean end. */
  readonly error: Error | null;
}

export interface ExchangeOptions {
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Raw body to send instead of JSON-serializing `body`. */
  readonly rawBody?: string;
  /** Called after each chunk; call `abort()` to hang up like a cancelling client. */
  readonly onChunk?: (received: Buffer, abort: () => void) => void;
}

/** Sends a request on its own connection (no keep-alive) and resolves once the connection is done with it. */
export function exchange(baseUrl: string, path: string, body: unknown, options: ExchangeOptions = {}): Promise<Exchange> {
  const payload = options.rawBody ?? (body === undefined ? '' : JSON.stringify(body));
  return new Promise((resolve, reject) => {
    let responded = false;
    const req = request(
      new URL(path, baseUrl),
      {
        method: options.method ?? 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...options.headers },
      },
      (res) => {
        responded = true;
        const chunks: Buffer[] = [];
        let error: Error | null = null;
        const abort = (): void => {
          req.destroy();
        };
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          options.onChunk?.(Buffer.concat(chunks), abort);
        });
        res.on('error', (cause) => (error = cause));
        res.on('close', () => {
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            chunks,
            body: Buffer.concat(chunks),
            complete: res.complete,
            error,
          });
        });
      },
    );
    req.on('error', (cause) => {
      // After the response started, errors are reported through the response; before it, the request fails.
      if (!responded) reject(cause);
    });
    req.end(payload);
  });
}
