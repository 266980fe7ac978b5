import type { StopReason, StreamErrorInfo } from '@llm-stream/contract';

/** What a final `Interaction.status` means for the stream. */
export type StatusOutcome =
  | { readonly kind: 'completed'; readonly stop_reason: StopReason }
  | { readonly kind: 'failed'; readonly error: StreamErrorInfo }
  | { readonly kind: 'cancelled' }
  /** Not an end: `in_progress`, `queued`. */
  | { readonly kind: 'running' };

/**
 * The status an interaction ended with (https://ai.google.dev/api/interactions-api#Interaction, the
 * `Status` enum of https://docs.cloud.google.com/gemini-enterprise-agent-platform/reference/rest/v1/Status):
 * - `completed` -> end_turn, or tool_use when the model called a client function (a finished answer);
 * - `requires_action` -> tool_use: the turn is paused for the client's function results (a continuation,
 *   told apart from a finished answer by the raw `provider_stop_reason`);
 * - `incomplete` ("completed, but contains incomplete results (e.g. hitting maxTokens)") and
 *   `budget_exceeded` (halted by the token budget) -> max_tokens;
 * - `failed` -> failed, upstream_error, not retryable (the interaction's own error, when it has one, is
 *   mapped by the caller instead);
 * - `cancelled` -> interrupted, client_cancelled (as OpenAI Responses' `response.cancelled`);
 * - `in_progress`, `queued` -> not an end;
 * - anything else -> completed, `other`, the raw value kept.
 */
export function mapInteractionsStatus(status: string, calledFunctions: boolean): StatusOutcome {
  switch (status) {
    case 'completed':
      return { kind: 'completed', stop_reason: calledFunctions ? 'tool_use' : 'end_turn' };
    case 'requires_action':
      return { kind: 'completed', stop_reason: 'tool_use' };
    case 'incomplete':
    case 'budget_exceeded':
      return { kind: 'completed', stop_reason: 'max_tokens' };
    case 'failed':
      return {
        kind: 'failed',
        error: { category: 'upstream_error', retryable: false, provider_code: 'failed', message: 'the interaction failed' },
      };
    case 'cancelled':
      return { kind: 'cancelled' };
    case 'in_progress':
    case 'queued':
      return { kind: 'running' };
    default:
      return { kind: 'completed', stop_reason: 'other' };
  }
}
