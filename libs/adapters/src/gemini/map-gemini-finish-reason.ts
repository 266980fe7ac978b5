import type { StopReason, StreamErrorInfo } from '@llm-stream/contract';
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
 * - `MALFORMED_FUNCTION_CALL` is the one failure: the model's call could not be parsed, so the turn has no
 *   usable result, and sampling again usually succeeds (failed, `upstream_error`, retryable);
 * - everything else (`OTHER`, `LANGUAGE`, the `IMAGE_*` reasons, `UNEXPECTED_TOOL_CALL`,
 *   `TOO_MANY_TOOL_CALLS`, `MISSING_THOUGHT_SIGNATURE`, values added later) is a confirmed end of kind
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
      return {
        kind: 'failed',
        error: {
          category: 'upstream_error',
          retryable: true,
          provider_code: reason,
          message: 'the model produced a function call that could not be parsed (MALFORMED_FUNCTION_CALL)',
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
