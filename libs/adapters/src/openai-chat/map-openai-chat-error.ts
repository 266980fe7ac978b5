import type { StreamErrorInfo } from '@llm-stream/contract';
import { classifyHttpStatus, type ErrorClass } from '../shared/classify-http-status.js';
import type { ProviderErrorDetail } from '../shared/http-error-failure.js';
import { INVALID_TOOL_CALL } from '../shared/invalid-tool-call.js';
import { isObject, stringField, type JsonObject } from '../shared/json-payload.js';

/**
 * OpenAI error codes and types (https://platform.openai.com/docs/guides/error-codes) as categories. An error
 * inside an HTTP 200 stream has no status, so its `code` (else its `type`) is all there is to go on.
 * `insufficient_quota` is a 429 that no retry fixes (billing), like Anthropic's `billing_error`.
 * Compatible servers put an HTTP status in `code` instead (OpenRouter: `"code": 502`, vLLM: `"code": 400`,
 * https://openrouter.ai/docs/api-reference/errors); those go through the shared status table.
 * Codes nobody documented are upstream errors nobody promised are retryable.
 */
const ERROR_CLASSES: Readonly<Record<string, ErrorClass>> = {
  rate_limit_exceeded: { category: 'rate_limited', retryable: true },
  rate_limit_error: { category: 'rate_limited', retryable: true },
  server_error: { category: 'upstream_error', retryable: true },
  internal_error: { category: 'upstream_error', retryable: true },
  api_error: { category: 'upstream_error', retryable: true },
  timeout: { category: 'upstream_error', retryable: true },
  server_is_overloaded: { category: 'upstream_overloaded', retryable: true },
  engine_overloaded: { category: 'upstream_overloaded', retryable: true },
  service_unavailable_error: { category: 'upstream_overloaded', retryable: true },
  slow_down: { category: 'upstream_overloaded', retryable: true },
  invalid_request_error: { category: 'invalid_request', retryable: false },
  context_length_exceeded: { category: 'invalid_request', retryable: false },
  model_not_found: { category: 'invalid_request', retryable: false },
  invalid_api_key: { category: 'authentication', retryable: false },
  authentication_error: { category: 'authentication', retryable: false },
  permission_error: { category: 'authentication', retryable: false },
  insufficient_quota: { category: 'authentication', retryable: false },
  unsupported_country_region_territory: { category: 'authentication', retryable: false },
  // Groq: the model's tool call could not be parsed (its type says invalid_request_error; the request was fine).
  tool_use_failed: INVALID_TOOL_CALL,
};

const UNKNOWN_ERROR: ErrorClass = { category: 'upstream_error', retryable: false };

/** The fields of an OpenAI-style error object that decide its category and code. */
interface OpenAiErrorFields {
  readonly code?: string;
  /** `code` when it is an HTTP status (a number, or a string of three digits). */
  readonly status?: number;
  readonly type?: string;
  readonly message?: string;
}

/**
 * An error value as sent: `{"message","type","param","code"}` where `code` may be a string, `null` or a
 * number, or just a string (`{"error": "..."}`, Ollama). Anything else reads as an error with no detail.
 */
function readErrorFields(error: unknown): OpenAiErrorFields {
  if (typeof error === 'string') return error === '' ? {} : { message: error };
  if (!isObject(error)) return {};
  const rawCode = error['code'];
  const code = typeof rawCode === 'number' && Number.isFinite(rawCode) ? String(rawCode) : typeof rawCode === 'string' && rawCode !== '' ? rawCode : undefined;
  const status = code !== undefined && /^[1-5]\d\d$/.test(code) ? Number(code) : undefined;
  const type = stringField(error, 'type');
  const message = stringField(error, 'message');
  return {
    ...(code !== undefined && { code }),
    ...(status !== undefined && { status }),
    ...(type !== undefined && type !== '' && { type }),
    ...(message !== undefined && message !== '' && { message }),
  };
}

function classify(fields: OpenAiErrorFields): ErrorClass {
  const byCode = fields.code === undefined ? undefined : ERROR_CLASSES[fields.code];
  if (byCode) return byCode;
  if (fields.status !== undefined && fields.status >= 400) return classifyHttpStatus(fields.status);
  const byType = fields.type === undefined ? undefined : ERROR_CLASSES[fields.type];
  return byType ?? UNKNOWN_ERROR;
}

/**
 * The error object of a `data: {"error": {...}}` record (or OpenRouter's chunk-level `error`, or a flat vLLM
 * error payload). `provider_code` is the most specific code: `code`, else `type`, else `null`.
 */
export function mapOpenAiChatStreamError(error: unknown): StreamErrorInfo {
  const fields = readErrorFields(error);
  const { category, retryable } = classify(fields);
  return {
    category,
    retryable,
    provider_code: fields.code ?? fields.type ?? null,
    message: fields.message ?? 'the provider reported an error in the stream',
  };
}

/**
 * The body of an HTTP error response: `{"error": {"message","type","param","code"}}` (OpenAI, Azure,
 * OpenRouter), a flat error object (vLLM) or `{"error": "..."}`. The status decides the category (see
 * httpErrorFailure); the body gives `code ?? type` (the status stands in when neither is there).
 */
export function readOpenAiErrorBody(body: JsonObject): ProviderErrorDetail {
  const error = body['error'];
  const fields = readErrorFields(error === undefined || error === null ? body : error);
  const code = fields.code ?? fields.type;
  return { ...(code !== undefined && { code }), ...(fields.message !== undefined && { message: fields.message }) };
}
