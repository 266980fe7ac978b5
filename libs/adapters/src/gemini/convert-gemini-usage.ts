import type { Usage } from '@llm-stream/contract';
import type { JsonObject } from '../shared/json-payload.js';

const COUNT_FIELDS = ['promptTokenCount', 'candidatesTokenCount', 'thoughtsTokenCount', 'cachedContentTokenCount'] as const;

/**
 * `usageMetadata` (https://ai.google.dev/api/generate-content#UsageMetadata) as contract usage, or
 * undefined when it holds no token count at all (Vertex's `{"trafficType": "ON_DEMAND"}` before the last
 * object). The object is cumulative and repeated, so the caller keeps the last one that has counts.
 * Zero counts are omitted on the wire (proto3 JSON), so an absent count is 0.
 * - input_tokens = promptTokenCount (cached tokens are part of it);
 * - output_tokens = candidatesTokenCount + thoughtsTokenCount: Gemini counts thinking apart from the
 *   candidates, while the contract's output count includes reasoning for every provider;
 * - reasoning_tokens = thoughtsTokenCount, cached_input_tokens = cachedContentTokenCount, when non-zero.
 * Counts that are not non-negative integers are ignored rather than passed on.
 */
export function convertGeminiUsage(usage: JsonObject): Usage | undefined {
  const counts = COUNT_FIELDS.map((field) => tokenCount(usage[field]));
  const [prompt, candidates, thoughts, cached] = counts;
  if (counts.every((count) => count === undefined)) return undefined;
  return {
    input_tokens: prompt ?? 0,
    output_tokens: (candidates ?? 0) + (thoughts ?? 0),
    ...(thoughts !== undefined && thoughts > 0 && { reasoning_tokens: thoughts }),
    ...(cached !== undefined && cached > 0 && { cached_input_tokens: cached }),
  };
}

function tokenCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}
