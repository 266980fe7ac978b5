import { mergeAnthropicUsage, toContractUsage, type AnthropicUsageState } from './convert-anthropic-usage.js';

/** message_start's usage (final = false), then each message_delta's (final = true), as the adapter merges them. */
function usageOf(start: Record<string, unknown> | undefined, ...deltas: Record<string, unknown>[]): ReturnType<typeof toContractUsage> {
  const state: AnthropicUsageState = {};
  mergeAnthropicUsage(state, start, false);
  for (const usage of deltas) mergeAnthropicUsage(state, usage, true);
  return toContractUsage(state);
}

describe('Anthropic usage merging', () => {
  it('never reports message_start output_tokens, a placeholder', () => {
    expect(usageOf({ input_tokens: 25, output_tokens: 1 })).toBeUndefined();
  });

  it('takes input from message_start and output from message_delta (the older delta shape)', () => {
    expect(usageOf({ input_tokens: 25, output_tokens: 1 }, { output_tokens: 15 })).toStrictEqual({ input_tokens: 25, output_tokens: 15 });
  });

  it('lets the last message_delta win: its counts are cumulative, not increments', () => {
    expect(usageOf({ input_tokens: 25, output_tokens: 1 }, { output_tokens: 15 }, { input_tokens: 26, output_tokens: 40 })).toStrictEqual({
      input_tokens: 26,
      output_tokens: 40,
    });
  });

  it('keeps earlier values a later usage object omits or sends with the wrong JSON type', () => {
    expect(
      usageOf(
        { input_tokens: 25, cache_read_input_tokens: 100, output_tokens: 1 },
        { output_tokens: 15 },
        { input_tokens: null, cache_read_input_tokens: '7', output_tokens: 'x' },
      ),
    ).toStrictEqual({ input_tokens: 25, output_tokens: 15, cached_input_tokens: 100 });
  });

  it('takes only non-negative integers as token counts (the contract schema requires them)', () => {
    // A count like 5e-324, -3 or 2.5 would make stream.done fail the event schema; it is not a count.
    expect(
      usageOf(
        { input_tokens: 25, output_tokens: 1 },
        { output_tokens: 15 },
        { input_tokens: -3, output_tokens: 5e-324 },
        { output_tokens: 2.5 },
      ),
    ).toStrictEqual({
      input_tokens: 25,
      output_tokens: 15,
    });
    expect(usageOf({ input_tokens: 2 ** 53, cache_read_input_tokens: 0.5, output_tokens: 1 }, { output_tokens: 4 })).toStrictEqual({
      input_tokens: 0,
      output_tokens: 4,
    });
  });

  it('reports cache reads as cached_input_tokens only when non-zero, and keeps input_tokens as reported', () => {
    // Anthropic's input_tokens excludes cache reads and writes; the contract keeps it as reported.
    expect(
      usageOf({ input_tokens: 12, cache_read_input_tokens: 4096, cache_creation_input_tokens: 0, output_tokens: 1 }, { output_tokens: 21 }),
    ).toStrictEqual({
      input_tokens: 12,
      output_tokens: 21,
      cached_input_tokens: 4096,
    });
    expect(
      usageOf({ input_tokens: 12, cache_read_input_tokens: 0, output_tokens: 1 }, { output_tokens: 21, cache_read_input_tokens: 0 }),
    ).toStrictEqual({
      input_tokens: 12,
      output_tokens: 21,
    });
  });

  it('takes the cache read count of the last message_delta over message_start', () => {
    expect(
      usageOf({ input_tokens: 3, cache_read_input_tokens: 0, output_tokens: 1 }, { output_tokens: 5, cache_read_input_tokens: 512 }),
    ).toStrictEqual({
      input_tokens: 3,
      output_tokens: 5,
      cached_input_tokens: 512,
    });
  });

  it('reports cache writes and their split per lifetime as reported, merged field by field', () => {
    // message_start reports the split, the newer message_delta repeats the total without it: both are kept.
    expect(
      usageOf(
        { input_tokens: 9, cache_creation_input_tokens: 2048, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 2048 }, output_tokens: 1 },
        { input_tokens: 9, cache_creation_input_tokens: 2048, output_tokens: 4 },
      ),
    ).toStrictEqual({
      input_tokens: 9,
      output_tokens: 4,
      cache_creation_input_tokens: 2048,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 2048 },
    });
  });

  it('reports no cache writes when every count is zero', () => {
    expect(
      usageOf(
        { input_tokens: 9, cache_creation_input_tokens: 0, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 }, output_tokens: 1 },
        { output_tokens: 4 },
      ),
    ).toStrictEqual({ input_tokens: 9, output_tokens: 4 });
  });

  it('ignores server tool counts, which the contract has no field for', () => {
    expect(usageOf({ input_tokens: 9, output_tokens: 1 }, { input_tokens: 9, output_tokens: 4, server_tool_use: { web_search_requests: 1 } })).toStrictEqual({
      input_tokens: 9,
      output_tokens: 4,
    });
  });

  it('reports input_tokens 0 when only an output count ever arrived, and nothing without usage objects', () => {
    expect(usageOf(undefined, { output_tokens: 3 })).toStrictEqual({ input_tokens: 0, output_tokens: 3 });
    expect(usageOf(undefined)).toBeUndefined();
  });

  it('reports a real zero output count', () => {
    expect(usageOf({ input_tokens: 29, output_tokens: 1 }, { output_tokens: 0 })).toStrictEqual({ input_tokens: 29, output_tokens: 0 });
  });
});
