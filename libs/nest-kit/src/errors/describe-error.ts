import { HttpException, HttpStatus } from '@nestjs/common';
import { HttpApiError, type ApiErrorBody } from '@llm-stream/service-kit';
import { ServiceNotReady, type Unreadiness } from '../health/readiness.js';

/** Codes the filter gives errors the services did not raise themselves (the framework's and the body parser's). */
export type FrameworkErrorCode = 'unauthorized' | 'not_found' | 'invalid_request' | 'invalid_json' | 'body_too_large' | 'unavailable' | 'internal';

/** What an error is answered with. */
export type ErrorResponse =
  | { readonly kind: 'api'; readonly status: number; readonly body: ApiErrorBody; readonly retryAfterSeconds: number | undefined }
  | { readonly kind: 'not_ready'; readonly status: 503; readonly body: Unreadiness }
  /** Not ours and not the framework's: a 500 without details; the error is logged by its code only. */
  | { readonly kind: 'unexpected'; readonly status: 500; readonly body: ApiErrorBody<'internal'> };

const INVALID_JSON = 'the request body is not valid JSON';

/**
 * Maps anything a request handler, guard, pipe or the body parser threw to its response: a service's
 * {@link HttpApiError} as it is; a readiness failure with its checks; the framework's exceptions (unknown
 * route 404, a pipe's 400) and the body parser's (invalid JSON 400, too large 413) to the API error shape
 * with a code; anything else to a 500 that says nothing about it.
 */
export function describeError(exception: unknown): ErrorResponse {
  if (exception instanceof HttpApiError) {
    const error: HttpApiError = exception as HttpApiError;
    return { kind: 'api', status: error.status, body: error.body, retryAfterSeconds: error.retryAfterSeconds };
  }
  if (exception instanceof ServiceNotReady) return { kind: 'not_ready', status: HttpStatus.SERVICE_UNAVAILABLE, body: exception.body };
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const code = codeFor(status, exception.message);
    // The JSON parser's message quotes the body: never echo it.
    return api(status, code, code === 'invalid_json' ? INVALID_JSON : exception.message);
  }
  const bodyParser = typeof exception === 'object' && exception !== null ? (exception as { type?: unknown }).type : undefined;
  if (bodyParser === 'entity.parse.failed') return api(HttpStatus.BAD_REQUEST, 'invalid_json', INVALID_JSON);
  if (bodyParser === 'entity.too.large') return api(HttpStatus.PAYLOAD_TOO_LARGE, 'body_too_large', 'the request body is larger than MAX_BODY_BYTES');
  return { kind: 'unexpected', status: HttpStatus.INTERNAL_SERVER_ERROR, body: { error: { code: 'internal', message: 'internal error' } } };
}

function api(status: number, code: FrameworkErrorCode, message: string): ErrorResponse {
  return { kind: 'api', status, body: { error: { code, message } }, retryAfterSeconds: undefined };
}

function codeFor(status: number, message: string): FrameworkErrorCode {
  if (status === 401) return 'unauthorized';
  if (status === 404) return 'not_found';
  if (status === 413) return 'body_too_large';
  if (status === 400 && /JSON/i.test(message)) return 'invalid_json';
  if (status === 503) return 'unavailable';
  return status >= 500 ? 'internal' : 'invalid_request';
}
