import type { CacheCreationUsage, Usage } from '@llm-stream/contract';
import { numberField, objectField, type JsonObject } from '../shared/json-payload.js';

/**
 * Usage accumulates over the stream: message_start has the input side (and a placeholder output count of 1),
 * each message_delta repeats cumulative counts (newer deltas repeat the input and cache counts too, older ones
 * only `output_tokens`). The last value of each field wins; a field a later report omits keeps its value.
 * https://docs.anthropic.com/en/docs/build-with-claude/streaming#event-types
 * https://docs.anthropic.com/en/api/messages#response-usage (cache_creation_input_tokens, cache_creation)
 */
export interface AnthropicUsageState {
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheCreation?: number;
  /** `usage.cache_creation`: the cache writes per time-to-live. */
  cacheCreation5m?: number;
  cacheCreation1h?: number;
}

export function mergeAnthropicUsage(state: AnthropicUsageState, usage: JsonObject | undefined, final: boolean): void {
  if (!usage) return;
  const input = tokenCount(usage, 'input_tokens');
  const cacheRead = tokenCount(usage, 'cache_read_input_tokens');
  const cacheCreation = tokenCount(usage, 'cache_creation_input_tokens');
  const split = objectField(usage, 'cache_creation');
  const cacheCreation5m = split ? tokenCount(split, 'ephemeral_5m_input_tokens') : undefined;
  const cacheCreation1h = split ? tokenCount(split, 'ephemeral_1h_input_tokens') : undefined;
  const output = tokenCount(usage, 'output_tokens');
  if (input !== undefined) state.input = input;
  if (cacheRead !== undefined) state.cacheRead = cacheRead;
  if (cacheCreation !== undefined) state.cacheCreation = cacheCreation;
  if (cacheCreation5m !== undefined) state.cacheCreation5m = cacheCreation5m;
  if (cacheCreation1h !== undefined) state.cacheCreation1h = cacheCreation1h;
  // message_start's output_tokens is a placeholder; only message_delta counts are real.
  if (final && output !== undefined) state.output = output;
}

/**
 * Usage for stream.done, or undefined when the provider never reported the output count. Anthropic's
 * `input_tokens` excludes cache reads and writes (`cache_creation_input_tokens`); the contract keeps all three
 * as reported. The cache counts are present only when non-zero: a reported 0 leaves the field absent.
 */
export function toContractUsage(state: AnthropicUsageState): Usage | undefined {
  if (state.output === undefined) return undefined;
  const split = cacheCreationSplit(state);
  return {
    input_tokens: state.input ?? 0,
    output_tokens: state.output,
    ...(state.cacheRead !== undefined && state.cacheRead > 0 && { cached_input_tokens: state.cacheRead }),
    ...(state.cacheCreation !== undefined && state.cacheCreation > 0 && { cache_creation_input_tokens: state.cacheCreation }),
    ...(split !== undefined && { cache_creation: split }),
  };
}

/** The per-lifetime split as reported (zeros kept), when one of its counts is non-zero. */
function cacheCreationSplit(state: AnthropicUsageState): CacheCreationUsage | undefined {
  const { cacheCreation5m, cacheCreation1h } = state;
  if (!(cacheCreation5m ?? 0) && !(cacheCreation1h ?? 0)) return undefined;
  return {
    ...(cacheCreation5m !== undefined && { ephemeral_5m_input_tokens: cacheCreation5m }),
    ...(cacheCreation1h !== undefined && { ephemeral_1h_input_tokens: cacheCreation1h }),
  };
}

/** A token count: a non-negative safe integer (anything else would break the contract's Usage schema). */
function tokenCount(usage: JsonObject, key: string): number | undefined {
  const value = numberField(usage, key);
  return value !== undefined && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}
