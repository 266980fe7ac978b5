import type { FailInput, UpstreamResponseRecord } from '@llm-stream/contract';
import { classifyHttpStatus } from './classify-http-status.js';
import { parseJsonObject, type JsonObject } from './json-payload.js';

/** What a provider's error body says, as far as it can be read. */
export interface ProviderErrorDetail {
  readonly code?: string;
  readonly message?: string;
}

/**
 * An HTTP error status before any frame: failed, categorized by status (see classifyHttpStatus), with the
 * provider's most specific code from the body when it has one, else the status itself.
 */
export function httpErrorFailure(
  record: UpstreamResponseRecord,
  readBody: (body: JsonObject) => ProviderErrorDetail,
): FailInput {
  const { category, retryable } = classifyHttpStatus(record.status);
  const parsed = record.body === undefined ? undefined : parseJsonObject(record.body);
  const detail: ProviderErrorDetail = parsed?.ok ? readBody(parsed.value) : {};
  return {
    type: 'fail',
    status: 'failed',
    error: {
      category,
      retryable,
      provider_code: detail.code ?? String(record.status),
      message: detail.message ?? `upstream answered HTTP ${String(record.status)}`,
      http_status: record.status,
    },
  };
}
