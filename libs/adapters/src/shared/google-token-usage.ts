import type { Usage } from '@llm-stream/contract';
import type { JsonObject } from './json-payload.js';

/** Where a Google API reports its four token counts (generateContent's `usageMetadata`, an interaction's `usage`). */
export interface GoogleCountFields {
  /** The prompt, cached tokens included. */
  readonly input: string;
  /** The answer, thinking excluded. */
  readonly output: string;
  readonly thoughts: string;
  readonly cached: string;
}

/**
 * Google's token counts as contract usage, or undefined when the object holds none of them. Google counts
 * thinking apart from the answer, while the contract's output count includes reasoning for every provider:
 * output_tokens = output + thoughts; reasoning_tokens and cached_input_tokens when non-zero. An absent count
 * is 0; a count that is not a non-negative integer is ignored rather than passed on. Google reports no cache
 * writes (an explicit cache is created apart, with `cachedContents.create`; implicit caching reports only the
 * reads), so cache_creation_input_tokens is never set.
 */
export function googleTokenUsage(usage: JsonObject, fields: GoogleCountFields): Usage | undefined {
  const input = tokenCount(usage[fields.input]);
  const output = tokenCount(usage[fields.output]);
  const thoughts = tokenCount(usage[fields.thoughts]);
  const cached = tokenCount(usage[fields.cached]);
  if (input === undefined && output === undefined && thoughts === undefined && cached === undefined) return undefined;
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
