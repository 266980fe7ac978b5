import type { Usage } from '@llm-stream/contract';
import { objectField, type JsonObject } from '../shared/json-payload.js';

/**
 * A chunk's `usage` object as contract usage
 * (https://platform.openai.com/docs/api-reference/chat/object#chat/object-usage): `completion_tokens`
 * already include `completion_tokens_details.reasoning_tokens`; `prompt_tokens` include the cache reads
 * (`prompt_tokens_details.cached_tokens`) and the cache writes (`prompt_tokens_details.cache_write_tokens`,
 * OpenAI and OpenRouter), both details being a breakdown of it. DeepSeek reports cache hits as
 * `prompt_cache_hit_tokens` (https://api-docs.deepseek.com/api/create-chat-completion), used when
 * `prompt_tokens_details` reports none. The optional counts are present only when non-zero: a reported 0
 * leaves the field absent. Undefined when the output count is missing: no usage is better than a made-up one.
 * OpenAI sends usage once, in a later chunk with `choices: []`; DeepSeek and the Copilot proxy put it on the
 * finish chunk; the adapter keeps the last one it saw.
 */
export function convertOpenAiChatUsage(usage: JsonObject): Usage | undefined {
  const output = tokenCount(usage, 'completion_tokens');
  if (output === undefined) return undefined;
  const reasoning = tokenCount(objectField(usage, 'completion_tokens_details') ?? {}, 'reasoning_tokens');
  const promptDetails = objectField(usage, 'prompt_tokens_details') ?? {};
  const detailedCached = tokenCount(promptDetails, 'cached_tokens');
  const cacheWrite = tokenCount(promptDetails, 'cache_write_tokens');
  const cached = detailedCached !== undefined && detailedCached > 0 ? detailedCached : tokenCount(usage, 'prompt_cache_hit_tokens');
  return {
    input_tokens: tokenCount(usage, 'prompt_tokens') ?? 0,
    output_tokens: output,
    ...(reasoning !== undefined && reasoning > 0 && { reasoning_tokens: reasoning }),
    ...(cached !== undefined && cached > 0 && { cached_input_tokens: cached }),
    ...(cacheWrite !== undefined && cacheWrite > 0 && { cache_creation_input_tokens: cacheWrite }),
  };
}

/** A token count is a non-negative integer; any other value is treated as not reported. */
function tokenCount(object: JsonObject, key: string): number | undefined {
  const value = object[key];
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}
