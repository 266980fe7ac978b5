import type { Usage } from '@llm-stream/contract';
import type { JsonObject } from '../shared/json-payload.js';
import { googleTokenUsage } from '../shared/google-token-usage.js';

/**
 * `usageMetadata` (https://ai.google.dev/api/generate-content#UsageMetadata) as contract usage, or
 * undefined when it holds no token count at all (Vertex's `{"trafficType": "ON_DEMAND"}` before the last
 * object). The object is cumulative and repeated, so the caller keeps the last one that has counts.
 * Zero counts are omitted on the wire (proto3 JSON), so an absent count is 0.
 * - input_tokens = promptTokenCount (cached tokens are part of it);
 * - output_tokens = candidatesTokenCount + thoughtsTokenCount;
 * - reasoning_tokens = thoughtsTokenCount, cached_input_tokens = cachedContentTokenCount, when non-zero.
 */
export function convertGeminiUsage(usage: JsonObject): Usage | undefined {
  return googleTokenUsage(usage, { input: 'promptTokenCount', output: 'candidatesTokenCount', thoughts: 'thoughtsTokenCount', cached: 'cachedContentTokenCount' });
}
