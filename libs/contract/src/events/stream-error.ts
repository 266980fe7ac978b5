/**
 * Error categories of `stream.error`. A category says what went wrong and who can fix it; the provider's own
 * code is kept beside it in `provider_code`.
 */
export const ERROR_CATEGORIES = [
  'rate_limited',
  'upstream_overloaded',
  'upstream_error',
  'invalid_request',
  'authentication',
  'protocol_error',
  'transport_interrupted',
  'timeout',
  'client_cancelled',
] as const;
export type ErrorCategory = (typeof ERROR_CATEGORIES)[number];

/** The two non-successful terminal states. */
export const FAILURE_STATUSES = ['failed', 'interrupted'] as const;
export type FailureStatus = (typeof FAILURE_STATUSES)[number];

/**
 * The error object of `stream.error`.
 * - `retryable`: whether the same request may succeed if sent again; `null` where nobody can know
 *   (a transport interruption, a cancellation);
 * - `provider_code`: the provider's most specific code (`code` where present, else its error type or the
 *   HTTP status), `null` when the provider said nothing;
 * - `message`: safe to show; never contains prompt or completion content.
 */
export interface StreamErrorInfo {
  readonly category: ErrorCategory;
  readonly retryable: boolean | null;
  readonly provider_code: string | null;
  readonly message: string;
  readonly http_status?: number;
}
