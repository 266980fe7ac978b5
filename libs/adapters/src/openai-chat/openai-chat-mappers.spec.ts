import { convertOpenAiChatUsage } from './convert-openai-chat-usage.js';
import { mapOpenAiChatStreamError, readOpenAiErrorBody } from './map-openai-chat-error.js';
import { mapOpenAiChatFinishReason } from './map-openai-chat-finish-reason.js';

describe('mapOpenAiChatFinishReason', () => {
  it.each([
    ['stop', { text: false, refusal: false, tool: false }, 'end_turn'],
    ['stop', { text: false, refusal: true, tool: false }, 'refusal'],
    ['stop', { text: false, refusal: false, tool: true }, 'tool_use'],
    ['tool_calls', { text: false, refusal: false, tool: true }, 'tool_use'],
    ['length', { text: false, refusal: false, tool: false }, 'max_tokens'],
    ['length', { text: false, refusal: true, tool: false }, 'max_tokens'],
    ['length', { text: false, refusal: false, tool: true }, 'max_tokens'],
    ['content_filter', { text: false, refusal: false, tool: false }, 'content_filter'],
    ['function_call', { text: false, refusal: false, tool: true }, 'tool_use'],
    ['eos', { text: false, refusal: false, tool: false }, 'other'],
  ] as const)('%s (%j) -> %s', (reason, seen, expected) => {
    expect(mapOpenAiChatFinishReason(reason, seen)).toBe(expected);
  });
});

describe('mapOpenAiChatStreamError', () => {
  it.each([
    ['type without code', { message: 'm', type: 'server_error' }, 'upstream_error', true, 'server_error'],
    ['code null', { message: 'm', type: 'server_error', param: null, code: null }, 'upstream_error', true, 'server_error'],
    ['code before type', { message: 'm', type: 'tokens', code: 'rate_limit_exceeded' }, 'rate_limited', true, 'rate_limit_exceeded'],
    ['an unknown code with a known type', { type: 'invalid_request_error', code: 'invalid_prompt' }, 'invalid_request', false, 'invalid_prompt'],
    ['a numeric status code (OpenRouter)', { code: 429, message: 'm', metadata: { error_type: 'rate_limit_exceeded' } }, 'rate_limited', true, '429'],
    ['a numeric 502', { code: 502, message: 'm' }, 'upstream_error', true, '502'],
    ['a status code as a string', { code: '503', message: 'm' }, 'upstream_overloaded', true, '503'],
    ['overload', { type: 'server_is_overloaded' }, 'upstream_overloaded', true, 'server_is_overloaded'],
    ['quota (a 429 no retry fixes)', { type: 'insufficient_quota', code: 'insufficient_quota' }, 'authentication', false, 'insufficient_quota'],
    ['an unknown code', { code: 'brand_new_failure' }, 'upstream_error', false, 'brand_new_failure'],
    ['an empty object', {}, 'upstream_error', false, null],
    ['a number', 42, 'upstream_error', false, null],
  ])('%s', (_what, error, category, retryable, providerCode) => {
    expect(mapOpenAiChatStreamError(error)).toMatchObject({ category, retryable, provider_code: providerCode });
  });

  it('keeps the message, or says the provider reported an error', () => {
    expect(mapOpenAiChatStreamError({ message: 'Overloaded' }).message).toBe('Overloaded');
    expect(mapOpenAiChatStreamError({ code: 'x', message: '' }).message).toBe('the provider reported an error in the stream');
    expect(mapOpenAiChatStreamError('plain text').message).toBe('plain text');
  });
});

describe('readOpenAiErrorBody', () => {
  it.each([
    ['OpenAI', { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }, { code: 'invalid_api_key', message: 'Incorrect API key provided' }],
    ['type when code is null', { error: { message: 'm', type: 'server_error', param: null, code: null } }, { code: 'server_error', message: 'm' }],
    ['OpenRouter numeric code', { error: { code: 402, message: 'Insufficient credits' } }, { code: '402', message: 'Insufficient credits' }],
    ['vLLM flat', { object: 'error', message: 'bad', type: 'BadRequestError', param: null, code: 400 }, { code: '400', message: 'bad' }],
    ['a string error', { error: 'unauthorized' }, { message: 'unauthorized' }],
    ['nothing readable', { detail: 'x' }, {}],
  ])('%s', (_what, body, expected) => {
    expect(readOpenAiErrorBody(body)).toEqual(expected);
  });
});

describe('convertOpenAiChatUsage', () => {
  it('reads OpenAI usage with details, leaving out zero counts', () => {
    expect(
      convertOpenAiChatUsage({
        prompt_tokens: 120,
        completion_tokens: 80,
        total_tokens: 200,
        prompt_tokens_details: { cached_tokens: 64, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0 },
      }),
    ).toEqual({ input_tokens: 120, output_tokens: 80, cached_input_tokens: 64 });
  });

  it('reads the cache writes of the prompt details, leaving out a zero count', () => {
    const usage = { prompt_tokens: 3000, completion_tokens: 40, prompt_tokens_details: { cached_tokens: 1024, cache_write_tokens: 1900 } };
    expect(convertOpenAiChatUsage(usage)).toEqual({ input_tokens: 3000, output_tokens: 40, cached_input_tokens: 1024, cache_creation_input_tokens: 1900 });
    expect(convertOpenAiChatUsage({ ...usage, prompt_tokens_details: { cached_tokens: 1024, cache_write_tokens: 0 } })).toEqual({
      input_tokens: 3000,
      output_tokens: 40,
      cached_input_tokens: 1024,
    });
  });

  it("uses DeepSeek's cache-hit count when the details report none", () => {
    expect(convertOpenAiChatUsage({ prompt_tokens: 50, completion_tokens: 9, prompt_tokens_details: { cached_tokens: 0 }, prompt_cache_hit_tokens: 32 })).toEqual({
      input_tokens: 50,
      output_tokens: 9,
      cached_input_tokens: 32,
    });
  });

  it('keeps reasoning tokens inside the output count', () => {
    expect(convertOpenAiChatUsage({ prompt_tokens: 5, completion_tokens: 300, completion_tokens_details: { reasoning_tokens: 256 } })).toEqual({
      input_tokens: 5,
      output_tokens: 300,
      reasoning_tokens: 256,
    });
  });

  it('reports nothing without a usable output count', () => {
    expect(convertOpenAiChatUsage({ prompt_tokens: 5 })).toBeUndefined();
    expect(convertOpenAiChatUsage({ prompt_tokens: 5, completion_tokens: -2 })).toBeUndefined();
    expect(convertOpenAiChatUsage({ prompt_tokens: '5', completion_tokens: 1 })).toEqual({ input_tokens: 0, output_tokens: 1 });
  });
});
