import type { ErrorCategory } from '@llm-stream/contract';

export interface ErrorClass {
  readonly category: ErrorCategory;
  readonly retryable: boolean;
}

/**
 * The HTTP status of a failed upstream request, before any frame, as a category. One table for every
 * provider (each maps its own body on top of it):
 * 429 rate_limited and 503/529 upstream_overloaded (retryable); 400/404/409/413/422 and other 4xx
 * invalid_request, 401/403 authentication (not retryable); 408 and other 5xx upstream_error (retryable).
 */
export function classifyHttpStatus(status: number): ErrorClass {
  if (status === 429) return { category: 'rate_limited', retryable: true };
  if (status === 503 || status === 529) return { category: 'upstream_overloaded', retryable: true };
  if (status === 401 || status === 403) return { category: 'authentication', retryable: false };
  if (status === 408 || status >= 500) return { category: 'upstream_error', retryable: true };
  return { category: 'invalid_request', retryable: false };
}
