import type { Usage } from '@llm-stream/contract';
import { numberField, objectField, type JsonObject } from '../shared/json-payload.js';

/**
 * Usage exists only on the terminal response object (fact 20 of the kit README). `output_tokens` already
 * includes `output_tokens_details.reasoning_tokens`; `input_tokens` includes the cache reads
 * (`input_tokens_details.cached_tokens`) and the cache writes (`input_tokens_details.cache_write_tokens`),
 * both details being a breakdown of it. Details are reported only when non-zero, as the contract says: a
 * reported 0 leaves the field absent. The writes' split per retention (`cache_write_tokens_details`, 30 minutes
 * and 12 hours) has no contract field (the contract's `cache_creation` holds Anthropic's lifetimes) and stays in
 * the raw trace.
 * https://platform.openai.com/docs/api-reference/responses/object#responses/object-usage
 */
export function convertOpenAiResponsesUsage(usage: JsonObject | undefined): Usage | undefined {
  if (!usage) return undefined;
  const output = numberField(usage, 'output_tokens');
  if (output === undefined) return undefined;
  const inputDetails = objectField(usage, 'input_tokens_details');
  const outputDetails = objectField(usage, 'output_tokens_details');
  const cached = inputDetails ? numberField(inputDetails, 'cached_tokens') : undefined;
  const cacheWrite = inputDetails ? numberField(inputDetails, 'cache_write_tokens') : undefined;
  const reasoning = outputDetails ? numberField(outputDetails, 'reasoning_tokens') : undefined;
  return {
    input_tokens: numberField(usage, 'input_tokens') ?? 0,
    output_tokens: output,
    ...(reasoning !== undefined && reasoning > 0 && { reasoning_tokens: reasoning }),
    ...(cached !== undefined && cached > 0 && { cached_input_tokens: cached }),
    ...(cacheWrite !== undefined && cacheWrite > 0 && { cache_creation_input_tokens: cacheWrite }),
  };
}
