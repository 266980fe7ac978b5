import type { FailInput, StreamErrorInfo, UpstreamResponseRecord } from '@llm-stream/contract';
import type { ErrorClass } from '../shared/classify-http-status.js';
import { httpErrorFailure, type ProviderErrorDetail } from '../shared/http-error-failure.js';
import { numberField, objectField, stringField, type JsonObject } from '../shared/json-payload.js';

/**
 * The Interactions API's error codes (https://ai.google.dev/gemini-api/docs/api-errors), and the google.rpc
 * status strings an error object may carry instead, as categories. Unknown codes are upstream errors nobody
 * promised are retryable.
 */
const CODE_CLASSES: Readonly<Record<string, ErrorClass>> = {
  rate_limit_exceeded: { category: 'rate_limited', retryable: true },
  quota_exceeded: { category: 'rate_limited', retryable: true },
  RESOURCE_EXHAUSTED: { category: 'rate_limited', retryable: true },
  overloaded: { category: 'upstream_overloaded', retryable: true },
  unavailable: { category: 'upstream_overloaded', retryable: true },
  UNAVAILABLE: { category: 'upstream_overloaded', retryable: true },
  internal: { category: 'upstream_error', retryable: true },
  internal_error: { category: 'upstream_error', retryable: true },
  INTERNAL: { category: 'upstream_error', retryable: true },
  deadline_exceeded: { category: 'upstream_error', retryable: true },
  DEADLINE_EXCEEDED: { category: 'upstream_error', retryable: true },
  invalid_request: { category: 'invalid_request', retryable: false },
  parameter_unknown: { category: 'invalid_request', retryable: false },
  failed_precondition: { category: 'invalid_request', retryable: false },
  out_of_range: { category: 'invalid_request', retryable: false },
  not_found: { category: 'invalid_request', retryable: false },
  model_not_found: { category: 'invalid_request', retryable: false },
  INVALID_ARGUMENT: { category: 'invalid_request', retryable: false },
  NOT_FOUND: { category: 'invalid_request', retryable: false },
  authentication: { category: 'authentication', retryable: false },
  permission_denied: { category: 'authentication', retryable: false },
  UNAUTHENTICATED: { category: 'authentication', retryable: false },
  PERMISSION_DENIED: { category: 'authentication', retryable: false },
};

/** Numeric codes (an error object shaped like google.rpc.Status) by the code string they stand for. */
const NUMERIC_CODES: Readonly<Record<number, string>> = {
  429: 'rate_limit_exceeded',
  503: 'unavailable',
  500: 'internal',
  504: 'deadline_exceeded',
  400: 'invalid_request',
  404: 'not_found',
  401: 'authentication',
  403: 'permission_denied',
};

/** The most specific code of an error object: a string `code`, else `status`, else the numeric `code`. */
function providerCode(error: JsonObject): string | null {
  const code = stringField(error, 'code') ?? stringField(error, 'status');
  if (code !== undefined) return code;
  const numeric = numberField(error, 'code');
  return numeric === undefined ? null : String(numeric);
}

function classOf(error: JsonObject): ErrorClass | undefined {
  const code = stringField(error, 'code');
  const status = stringField(error, 'status');
  const numeric = numberField(error, 'code');
  const byNumber = numeric === undefined ? undefined : NUMERIC_CODES[numeric];
  return (
    (code === undefined ? undefined : CODE_CLASSES[code]) ??
    (status === undefined ? undefined : CODE_CLASSES[status]) ??
    (byNumber === undefined ? undefined : CODE_CLASSES[byNumber])
  );
}

/** The `error` object of an `error` event (or of a failed interaction) as the stream's error. */
export function mapInteractionsError(error: JsonObject): StreamErrorInfo {
  const known = classOf(error);
  return {
    category: known?.category ?? 'upstream_error',
    retryable: known?.retryable ?? false,
    provider_code: providerCode(error),
    message: stringField(error, 'message') ?? 'the provider reported an error',
  };
}

function readErrorBody(body: JsonObject): ProviderErrorDetail {
  const error = objectField(body, 'error');
  if (!error) return {};
  const code = providerCode(error);
  const message = stringField(error, 'message');
  return { ...(code !== null && { code }), ...(message !== undefined && { message }) };
}

/** An HTTP error status before any frame: categorized by status, the body's code as provider code. */
export function interactionsHttpFailure(record: UpstreamResponseRecord): FailInput {
  return httpErrorFailure(record, readErrorBody);
}
