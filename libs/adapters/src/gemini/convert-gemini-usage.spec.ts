import { convertGeminiUsage } from './convert-gemini-usage.js';

describe('convertGeminiUsage', () => {
  it('adds thinking to the output count and reports reasoning and cached tokens when non-zero', () => {
    expect(
      convertGeminiUsage({
        promptTokenCount: 120,
        candidatesTokenCount: 30,
        thoughtsTokenCount: 200,
        cachedContentTokenCount: 64,
        totalTokenCount: 350,
      }),
    ).toEqual({ input_tokens: 120, output_tokens: 230, reasoning_tokens: 200, cached_input_tokens: 64 });
  });

  it('reads absent counts as zero (proto3 JSON omits zeros) and leaves zero extras out', () => {
    expect(convertGeminiUsage({ promptTokenCount: 23, totalTokenCount: 23 })).toEqual({ input_tokens: 23, output_tokens: 0 });
    expect(convertGeminiUsage({ promptTokenCount: 5, candidatesTokenCount: 2, thoughtsTokenCount: 0, cachedContentTokenCount: 0 })).toEqual({
      input_tokens: 5,
      output_tokens: 2,
    });
  });

  it('has no usage for an object without counts (Vertex sends only trafficType until the last object)', () => {
    expect(convertGeminiUsage({ trafficType: 'ON_DEMAND' })).toBeUndefined();
    expect(convertGeminiUsage({})).toBeUndefined();
  });

  it('ignores counts that are not non-negative integers', () => {
    expect(convertGeminiUsage({ promptTokenCount: -4, candidatesTokenCount: 2.5, thoughtsTokenCount: '7', totalTokenCount: 9 })).toBeUndefined();
    expect(convertGeminiUsage({ promptTokenCount: 10, candidatesTokenCount: -1 })).toEqual({ input_tokens: 10, output_tokens: 0 });
  });
});
