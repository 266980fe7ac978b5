import type { FailInput, StreamErrorInfo, UpstreamResponseRecord } from '@llm-stream/contract';
import type { ErrorClass } from '../shared/classify-http-status.js';
import { httpErrorFailure, type ProviderErrorDetail } from '../shared/http-error-failure.js';
import { objectField, stringField, type JsonObject } from '../shared/json-payload.js';

/**
 * Anthropic error types (https://docs.anthropic.com/en/api/errors) as categories. An `event: error` arrives
 * on an HTTP 200 stream, so its type is all there is to go on; `overloaded_error` is what a non-streaming
 * call reports as HTTP 529. Unknown types are upstream errors nobody promised are retryable.
 */
const ERROR_CLASSES: Readonly<Record<string, ErrorClass>> = {
  overloaded_error: { category: 'upstream_overloaded', retryable: true },
  rate_limit_error: { category: 'rate_limited', retryable: true },
  api_error: { category: 'upstream_error', retryable: true },
  timeout_error: { category: 'upstream_error', retryable: true },
  invalid_request_error: { category: 'invalid_request', retryable: false },
  request_too_large: { category: 'invalid_request', retryable: false },
  not_found_error: { category: 'invalid_request', retryable: false },
  authentication_error: { category: 'authentication', retryable: false },
  permission_error: { category: 'authentication', retryable: false },
  billing_error: { category: 'authentication', retryable: false },
};

/**
 * `error.details.error_code` values that make an otherwise retryable error final. The 429 of a usage tier's
 * monthly spend cap says `rate_limit_error` like a rate limit, but has no retry-after and keeps failing
 * until the next month (https://docs.anthropic.com/en/api/errors, 429).
 */
const FINAL_DETAIL_CODES: ReadonlySet<string> = new Set(['enforced_spend_limit_reached']);

/**
 * `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded","details":null}}` -> its most
 * specific code (`details.error_code` where present, else the error type) and message.
 */
export function readAnthropicErrorBody(body: JsonObject): ProviderErrorDetail {
  const error = objectField(body, 'error');
  if (!error) return {};
  const details = objectField(error, 'details');
  const code = (details && stringField(details, 'error_code')) ?? stringField(error, 'type');
  const message = stringField(error, 'message');
  return { ...(code !== undefined && { code }), ...(message !== undefined && { message }) };
}

/** The error object of an in-stream `event: error`. */
export function mapAnthropicStreamError(payload: JsonObject): StreamErrorInfo {
  const error = objectField(payload, 'error');
  const type = error && stringField(error, 'type');
  const { code, message } = readAnthropicErrorBody(payload);
  const known = type !== undefined && Object.hasOwn(ERROR_CLASSES, type) ? ERROR_CLASSES[type] : undefined;
  return {
    category: known?.category ?? 'upstream_error',
    retryable: isFinal(code) ? false : (known?.retryable ?? false),
    provider_code: code ?? null,
    message: message ?? 'the provider reported an error',
  };
}

/** An HTTP error status before any frame: the status table, with the spend cap made final. */
export function mapAnthropicHttpError(record: UpstreamResponseRecord): FailInput {
  const failure = httpErrorFailure(record, readAnthropicErrorBody);
  if (!isFinal(failure.error.provider_code ?? undefined)) return failure;
  return { ...failure, error: { ...failure.error, retryable: false } };
}

function isFinal(code: string | undefined): boolean {
  return code !== undefined && FINAL_DETAIL_CODES.has(code);
}
