import type { StreamErrorInfo } from '@llm-stream/contract';
import type { ErrorClass } from './classify-http-status.js';

/**
 * One rule for every protocol: the model produced a tool call the provider could not accept (malformed, not
 * allowed, too many). The turn has no usable result, the request itself was fine, and sampling again usually
 * succeeds: failed, `upstream_error`, retryable, the provider's own code kept as `provider_code`.
 * Gemini `MALFORMED_FUNCTION_CALL`, `UNEXPECTED_TOOL_CALL`, `TOO_MANY_TOOL_CALLS`; Groq `tool_use_failed`.
 */
export const INVALID_TOOL_CALL: ErrorClass = { category: 'upstream_error', retryable: true };

/** The failure of {@link INVALID_TOOL_CALL} for a provider code that says only that much. */
export function invalidToolCallFailure(providerCode: string, what: string): StreamErrorInfo {
  return { ...INVALID_TOOL_CALL, provider_code: providerCode, message: `the model produced ${what} (${providerCode})` };
}
