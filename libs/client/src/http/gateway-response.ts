import { GatewayError } from './gateway-error.js';
import { isGatewayErrorCode } from './gateway-error-code.js';
import { HttpStreamError } from './http-stream-error.js';

/** A 200 with a `text/event-stream` body: the gateway's answer to a create or a resume. */
export function isEventStream(response: Response): response is Response & { body: ReadableStream<Uint8Array> } {
  return response.status === 200 && response.body !== null && (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
}

/**
 * The error a non-stream answer stands for: a {@link GatewayError} when the body is the gateway's error
 * shape with one of its codes, else `unexpected_response` (with the status and the start of the body).
 */
export async function gatewayFailure(response: Response): Promise<GatewayError | HttpStreamError> {
  const text = await response.text().catch(() => '');
  const body = parseJson(text);
  const error = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined;
  if (typeof error === 'object' && error !== null) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (isGatewayErrorCode(code)) {
      return new GatewayError(code, response.status, typeof message === 'string' ? message : code, retryAfterSeconds(response));
    }
  }
  return new HttpStreamError('unexpected_response', `HTTP ${response.status} (${response.headers.get('content-type') ?? 'no content type'}): ${text.slice(0, 200)}`);
}

/** Worth another resume attempt: the gateway (or a proxy in front of it) is down or busy for now. */
export function isTransient(error: GatewayError | HttpStreamError, status: number): boolean {
  if (error instanceof GatewayError) return error.code === 'unavailable' || error.code === 'overloaded' || error.code === 'internal';
  return status === 502 || status === 503 || status === 504;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `Retry-After` in seconds (the gateway sends delta-seconds only). */
function retryAfterSeconds(response: Response): number | undefined {
  const value = response.headers.get('retry-after');
  return value !== null && /^\d{1,6}$/.test(value) ? Number(value) : undefined;
}
