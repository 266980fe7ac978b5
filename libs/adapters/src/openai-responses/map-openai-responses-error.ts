import type { StreamErrorInfo } from '@llm-stream/contract';
import type { ErrorClass } from '../shared/classify-http-status.js';
import type { ProviderErrorDetail } from '../shared/http-error-failure.js';
import { objectField, stringField, type JsonObject } from '../shared/json-payload.js';

const INVALID_REQUEST: ErrorClass = { category: 'invalid_request', retryable: false };

/**
 * In-stream error codes as categories: `response.error.code` of response.failed
 * (https://platform.openai.com/docs/api-reference/responses/object#responses/object-error) and the `code`
 * (or, when it is null, the `type`) of the `error` event. The image codes are all documented as problems
 * with the input the caller sent, so they are invalid requests like `invalid_prompt`. Anything else is an
 * upstream error nobody promised is retryable. A Map, so that codes such as `constructor` find nothing.
 */
const ERROR_CLASSES: ReadonlyMap<string, ErrorClass> = new Map<string, ErrorClass>([
  ['server_error', { category: 'upstream_error', retryable: true }],
  ['rate_limit_exceeded', { category: 'rate_limited', retryable: true }],
  ['invalid_prompt', INVALID_REQUEST],
  ['invalid_request_error', INVALID_REQUEST],
  ['invalid_image', INVALID_REQUEST],
  ['invalid_image_format', INVALID_REQUEST],
  ['invalid_base64_image', INVALID_REQUEST],
  ['invalid_image_url', INVALID_REQUEST],
  ['image_too_large', INVALID_REQUEST],
  ['image_too_small', INVALID_REQUEST],
  ['image_parse_error', INVALID_REQUEST],
  ['image_content_policy_violation', INVALID_REQUEST],
  ['invalid_image_mode', INVALID_REQUEST],
  ['image_file_too_large', INVALID_REQUEST],
  ['unsupported_image_media_type', INVALID_REQUEST],
  ['empty_image_file', INVALID_REQUEST],
  ['failed_to_download_image', INVALID_REQUEST],
  ['image_file_not_found', INVALID_REQUEST],
]);

interface ErrorFields {
  readonly code: string | undefined;
  readonly type: string | undefined;
  readonly message: string | undefined;
}

/** `{"error": {"message", "type", "param", "code"}}`, OpenAI's HTTP error body -> its most specific code. */
export function readOpenAiErrorBody(body: JsonObject): ProviderErrorDetail {
  const error = objectField(body, 'error');
  if (!error) return {};
  const { code, type, message } = errorFields(error);
  const specific = code ?? type;
  return { ...(specific !== undefined && { code: specific }), ...(message !== undefined && { message }) };
}

/**
 * The `error` event, in both shapes: nested as real streams send it
 * (`{"type":"error","error":{"type":"server_error","code":null,"message":…,"param":null}}`) and flat as the
 * API reference documents it (`{"type":"error","code":…,"message":…,"param":…}`).
 * https://platform.openai.com/docs/api-reference/responses-streaming/error
 */
export function mapOpenAiResponsesErrorEvent(payload: JsonObject): StreamErrorInfo {
  const nested = objectField(payload, 'error');
  return toErrorInfo(errorFields(nested ?? payload), nested ? undefined : 'error');
}

/** `response.error` of response.failed (`{code, message}`), which may be missing or null. */
export function mapOpenAiResponsesFailed(response: JsonObject | undefined): StreamErrorInfo {
  const error = response ? objectField(response, 'error') : undefined;
  if (!error) {
    return { category: 'upstream_error', retryable: false, provider_code: null, message: 'the provider reported the response as failed' };
  }
  return toErrorInfo(errorFields(error), undefined);
}

function errorFields(error: JsonObject): ErrorFields {
  return { code: stringField(error, 'code'), type: stringField(error, 'type'), message: stringField(error, 'message') };
}

/** `ignoredType` is the flat event's own `type` ("error"), which is not an error type. */
function toErrorInfo(fields: ErrorFields, ignoredType: string | undefined): StreamErrorInfo {
  const type = fields.type === ignoredType ? undefined : fields.type;
  // The code names the error precisely; an unknown code can still belong to a known type
  // (`context_length_exceeded` is an `invalid_request_error`).
  const known = (fields.code === undefined ? undefined : ERROR_CLASSES.get(fields.code)) ?? (type === undefined ? undefined : ERROR_CLASSES.get(type));
  return {
    category: known?.category ?? 'upstream_error',
    retryable: known?.retryable ?? false,
    provider_code: fields.code ?? type ?? null,
    message: fields.message ?? 'the provider reported an error',
  };
}
