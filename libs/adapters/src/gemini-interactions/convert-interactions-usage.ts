import type { Usage } from '@llm-stream/contract';
import type { JsonObject } from '../shared/json-payload.js';
import { googleTokenUsage } from '../shared/google-token-usage.js';

/**
 * `Interaction.usage` (https://ai.google.dev/api/interactions-api#Usage) as contract usage, or undefined
 * when it holds no token count. The totals cover the whole interaction, so the last report wins.
 * - input_tokens = total_input_tokens (cached tokens are part of it);
 * - output_tokens = total_output_tokens + total_thought_tokens, as for streamGenerateContent;
 * - reasoning_tokens = total_thought_tokens, cached_input_tokens = total_cached_tokens, when non-zero.
 * `total_tool_use_tokens` (server-side tool prompts) and `total_tokens` have no contract field.
 */
export function convertInteractionsUsage(usage: JsonObject): Usage | undefined {
  return googleTokenUsage(usage, { input: 'total_input_tokens', output: 'total_output_tokens', thoughts: 'total_thought_tokens', cached: 'total_cached_tokens' });
}
