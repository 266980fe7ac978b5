import type { StreamErrorInfo } from '@llm-stream/contract';
import type { ErrorClass } from '../shared/classify-http-status.js';
import { objectField, stringField, type JsonObject } from '../shared/json-payload.js';
import type { ProviderErrorDetail } from '../shared/http-error-failure.js';

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

/** `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}` -> its type and message. */
export function readAnthropicErrorBody(body: JsonObject): ProviderErrorDetail {
  const error = objectField(body, 'error');
  if (!error) return {};
  const code = stringField(error, 'type');
  const message = stringField(error, 'message');
  return { ...(code !== undefined && { code }), ...(message !== undefined && { message }) };
}

/** The error object of an in-stream `event: error`. */
export function mapAnthropicStreamError(payload: JsonObject): StreamErrorInfo {
  const { code, message } = readAnthropicErrorBody(payload);
  const known = code === undefined ? undefined : ERROR_CLASSES[code];
  return {
    category: known?.category ?? 'upstream_error',
    retryable: known?.retryable ?? false,
    provider_code: code ?? null,
    message: message ?? 'the provider reported an error',
  };
}
