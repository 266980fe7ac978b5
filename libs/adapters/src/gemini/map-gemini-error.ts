import type { FailInput, StreamErrorInfo, UpstreamResponseRecord } from '@llm-stream/contract';
import type { ErrorClass } from '../shared/classify-http-status.js';
import { httpErrorFailure, type ProviderErrorDetail } from '../shared/http-error-failure.js';
import { isObject, numberField, objectField, stringField, type JsonObject } from '../shared/json-payload.js';

/**
 * The google.rpc status codes the Gemini API documents (https://ai.google.dev/gemini-api/docs/troubleshooting),
 * with the HTTP status each one travels with, as categories. An error object after HTTP 200 (framed in a
 * `data:` record or not) has no HTTP status of its own, so this is all there is to go on. Other codes
 * (`UNKNOWN`, `ABORTED`, `CANCELLED`...) are upstream errors nobody promised are retryable.
 */
const STATUS_CLASSES: Readonly<Record<string, ErrorClass>> = {
  UNAVAILABLE: { category: 'upstream_overloaded', retryable: true },
  RESOURCE_EXHAUSTED: { category: 'rate_limited', retryable: true },
  INTERNAL: { category: 'upstream_error', retryable: true },
  DEADLINE_EXCEEDED: { category: 'upstream_error', retryable: true },
  INVALID_ARGUMENT: { category: 'invalid_request', retryable: false },
  FAILED_PRECONDITION: { category: 'invalid_request', retryable: false },
  NOT_FOUND: { category: 'invalid_request', retryable: false },
  PERMISSION_DENIED: { category: 'authentication', retryable: false },
  UNAUTHENTICATED: { category: 'authentication', retryable: false },
};

/** The same table by numeric `code`, for an error object that carries no `status` string. */
const CODE_STATUSES: Readonly<Record<number, string>> = {
  503: 'UNAVAILABLE',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  504: 'DEADLINE_EXCEEDED',
  400: 'INVALID_ARGUMENT',
  404: 'NOT_FOUND',
  403: 'PERMISSION_DENIED',
  401: 'UNAUTHENTICATED',
};

/**
 * `{"error": {"code": 429, "message": "...", "status": "RESOURCE_EXHAUSTED"}}` -> its most specific code
 * (the status string, else the numeric code) and message. For HTTP error bodies before any frame.
 */
export function readGeminiErrorBody(body: JsonObject): ProviderErrorDetail {
  const error = objectField(body, 'error');
  if (!error) return {};
  const code = providerCode(error);
  const message = stringField(error, 'message');
  return { ...(code !== null && { code }), ...(message !== undefined && { message }) };
}

/** The `error` object of a body that arrived after HTTP 200, as the stream's error. */
export function mapGeminiError(error: JsonObject): StreamErrorInfo {
  const status = stringField(error, 'status');
  const code = numberField(error, 'code');
  const known = (status === undefined ? undefined : STATUS_CLASSES[status]) ??
    (status === undefined && code !== undefined ? classOfCode(code) : undefined);
  return {
    category: known?.category ?? 'upstream_error',
    retryable: known?.retryable ?? false,
    provider_code: providerCode(error),
    message: stringField(error, 'message') ?? 'the provider reported an error',
  };
}

function classOfCode(code: number): ErrorClass | undefined {
  const status = CODE_STATUSES[code];
  return status === undefined ? undefined : STATUS_CLASSES[status];
}

function providerCode(error: JsonObject): string | null {
  const status = stringField(error, 'status');
  if (status !== undefined) return status;
  const code = numberField(error, 'code');
  return code === undefined ? null : String(code);
}

/**
 * An HTTP error status before any frame: categorized by the status (see classifyHttpStatus), with the
 * status string of the body as provider code. Besides the SSE format's `{"error": {...}}` body, the
 * JSON-array format of streamGenerateContent answers `[{"error": {...}}]`; both are read.
 */
export function geminiHttpFailure(record: UpstreamResponseRecord): FailInput {
  const failure = httpErrorFailure(record, readGeminiErrorBody);
  const first = record.body === undefined ? undefined : firstArrayElement(record.body);
  if (first === undefined) return failure;
  const { code, message } = readGeminiErrorBody(first);
  return {
    ...failure,
    error: { ...failure.error, ...(code !== undefined && { provider_code: code }), ...(message !== undefined && { message }) },
  };
}

function firstArrayElement(body: string): JsonObject | undefined {
  if (!body.trimStart().startsWith('[')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  const first: unknown = Array.isArray(value) ? value[0] : undefined;
  return isObject(first) ? first : undefined;
}
