import type { Usage } from '@llm-stream/contract';
import type { JsonObject } from '../shared/json-payload.js';

const COUNT_FIELDS = ['total_input_tokens', 'total_output_tokens', 'total_thought_tokens', 'total_cached_tokens'] as const;

/**
 * `Interaction.usage` (https://ai.google.dev/api/interactions-api#Usage) as contract usage, or undefined
 * when it holds no token count. The totals cover the whole interaction, so the last report wins.
 * - input_tokens = total_input_tokens (cached tokens are part of it);
 * - output_tokens = total_output_tokens + total_thought_tokens: like streamGenerateContent, thinking is
 *   counted apart from the output, while the contract's output count includes reasoning for every provider;
 * - reasoning_tokens = total_thought_tokens, cached_input_tokens = total_cached_tokens, when non-zero.
 * `total_tool_use_tokens` (server-side tool prompts) and `total_tokens` have no contract field.
 * Counts that are not non-negative integers are ignored rather than passed on.
 */
export function convertInteractionsUsage(usage: JsonObject): Usage | undefined {
  const counts = COUNT_FIELDS.map((field) => tokenCount(usage[field]));
  const [input, output, thoughts, cached] = counts;
  if (counts.every((count) => count === undefined)) return undefined;
  return {
    input_tokens: input ?? 0,
    output_tokens: (output ?? 0) + (thoughts ?? 0),
    ...(thoughts !== undefined && thoughts > 0 && { reasoning_tokens: thoughts }),
    ...(cached !== undefined && cached > 0 && { cached_input_tokens: cached }),
  };
}

function tokenCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}
