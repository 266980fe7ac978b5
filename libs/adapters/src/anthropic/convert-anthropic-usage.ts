import type { Usage } from '@llm-stream/contract';
import { numberField, type JsonObject } from '../shared/json-payload.js';

/**
 * Usage accumulates over the stream: message_start has the input side (and a placeholder output count of 1),
 * each message_delta repeats cumulative counts. The last value of each field wins.
 * https://docs.anthropic.com/en/docs/build-with-claude/streaming#event-types
 */
export interface AnthropicUsageState {
  input?: number;
  output?: number;
  cacheRead?: number;
}

export function mergeAnthropicUsage(state: AnthropicUsageState, usage: JsonObject | undefined, final: boolean): void {
  if (!usage) return;
  const input = tokenCount(usage, 'input_tokens');
  const cacheRead = tokenCount(usage, 'cache_read_input_tokens');
  const output = tokenCount(usage, 'output_tokens');
  if (input !== undefined) state.input = input;
  if (cacheRead !== undefined) state.cacheRead = cacheRead;
  // message_start's output_tokens is a placeholder; only message_delta counts are real.
  if (final && output !== undefined) state.output = output;
}

/** Usage for stream.done, or undefined when the provider never reported the output count. */
export function toContractUsage(state: AnthropicUsageState): Usage | undefined {
  if (state.output === undefined) return undefined;
  return {
    input_tokens: state.input ?? 0,
    output_tokens: state.output,
    ...(state.cacheRead !== undefined && state.cacheRead > 0 && { cached_input_tokens: state.cacheRead }),
  };
}

/** A token count: a non-negative safe integer (anything else would break the contract's Usage schema). */
function tokenCount(usage: JsonObject, key: string): number | undefined {
  const value = numberField(usage, key);
  return value !== undefined && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}
