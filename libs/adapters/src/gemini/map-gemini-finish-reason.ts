import type { StopReason, StreamErrorInfo } from '@llm-stream/contract';
import { invalidToolCallFailure } from '../shared/invalid-tool-call.js';
import type { GeminiFinishReason } from './gemini-chunk.js';

/** How a candidate's `finishReason` ends the stream: a confirmed end, or a provider failure. */
export type GeminiCandidateEnd =
  | { readonly kind: 'completed'; readonly stop_reason: StopReason }
  | { readonly kind: 'failed'; readonly error: StreamErrorInfo };

/**
 * `Candidate.finishReason` (https://ai.google.dev/api/generate-content#FinishReason) as a contract end.
 * - `STOP` is also what a turn that called functions ends with (Gemini has no tool-use reason), so it is
 *   `tool_use` when the candidate produced a functionCall, else `end_turn`;
 * - `MAX_TOKENS` -> `max_tokens`; the five content filters (`SAFETY`, `PROHIBITED_CONTENT`, `BLOCKLIST`,
 *   `SPII`, `RECITATION`) -> `content_filter`;
 * - a tool call the model got wrong (`MALFORMED_FUNCTION_CALL`: it could not be parsed;
 *   `UNEXPECTED_TOOL_CALL`: no tools were enabled; `TOO_MANY_TOOL_CALLS`) fails by the rule every protocol
 *   shares (invalid-tool-call.ts: `upstream_error`, retryable);
 * - `MISSING_THOUGHT_SIGNATURE`: the request sent back a function call without its thought signature, a
 *   request no retry fixes (failed, `invalid_request`, not retryable);
 * - everything else (`OTHER`, `LANGUAGE`, the `IMAGE_*` reasons, values added later) is a confirmed end of kind
 *   `other`, the raw value kept in `provider_stop_reason` for the caller to act on.
 */
export function mapGeminiFinishReason(reason: string, calledFunctions: boolean): GeminiCandidateEnd {
  switch (reason as GeminiFinishReason) {
    case 'STOP':
      return completed(calledFunctions ? 'tool_use' : 'end_turn');
    case 'MAX_TOKENS':
      return completed('max_tokens');
    case 'SAFETY':
    case 'PROHIBITED_CONTENT':
    case 'BLOCKLIST':
    case 'SPII':
    case 'RECITATION':
      return completed('content_filter');
    case 'MALFORMED_FUNCTION_CALL':
      return { kind: 'failed', error: invalidToolCallFailure(reason, 'a function call that could not be parsed') };
    case 'UNEXPECTED_TOOL_CALL':
      return { kind: 'failed', error: invalidToolCallFailure(reason, 'a tool call while no tools were enabled') };
    case 'TOO_MANY_TOOL_CALLS':
      return { kind: 'failed', error: invalidToolCallFailure(reason, 'more consecutive tool calls than allowed') };
    case 'MISSING_THOUGHT_SIGNATURE':
      return {
        kind: 'failed',
        error: {
          category: 'invalid_request',
          retryable: false,
          provider_code: reason,
          message: 'the request sent back a function call without its thought signature (MISSING_THOUGHT_SIGNATURE)',
        },
      };
    default:
      return completed('other');
  }
}

/**
 * `promptFeedback.blockReason` (https://ai.google.dev/api/generate-content#BlockReason): the prompt was
 * refused before any candidate existed. Whatever the reason (`SAFETY`, `OTHER`, `BLOCKLIST`,
 * `PROHIBITED_CONTENT`, `IMAGE_SAFETY`...), it is a provider-confirmed end by a filter.
 */
export function mapGeminiBlockReason(_reason: string): StopReason {
  return 'content_filter';
}

function completed(stopReason: StopReason): GeminiCandidateEnd {
  return { kind: 'completed', stop_reason: stopReason };
}
