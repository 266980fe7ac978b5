import fc from 'fast-check';
import type { UpstreamResponseRecord } from '@llm-stream/contract';
import { convertOpenAiResponsesUsage } from './convert-openai-responses-usage.js';
import { mapOpenAiResponsesErrorEvent, mapOpenAiResponsesFailed } from './map-openai-responses-error.js';
import { mapOpenAiResponsesCompleted, mapOpenAiResponsesIncomplete } from './map-openai-responses-stop-reason.js';
import { OpenAiResponsesAdapter } from './openai-responses-adapter.js';
import { digestOf, EMPTY_DIGEST, extendDigest, sameDigest } from './text-digest.js';

function httpError(status: number, body?: unknown): unknown {
  const record: UpstreamResponseRecord = {
    kind: 'upstream.response',
    raw_seq: 3,
    ts: 0,
    attempt: 1,
    status,
    ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  };
  return new OpenAiResponsesAdapter().response(record);
}

describe('OpenAI Responses errors', () => {
  it.each([
    [429, { error: { message: 'Rate limit reached', type: 'requests', param: null, code: 'rate_limit_exceeded' } }, 'rate_limited', true, 'rate_limit_exceeded'],
    [401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }, 'authentication', false, 'invalid_api_key'],
    [400, { error: { message: 'Unsupported parameter', type: 'invalid_request_error', param: 'temperature', code: null } }, 'invalid_request', false, 'invalid_request_error'],
    [503, { error: { message: 'Service unavailable', type: 'server_error', param: null, code: null } }, 'upstream_overloaded', true, 'server_error'],
    [500, '<html>oops</html>', 'upstream_error', true, '500'],
    [502, undefined, 'upstream_error', true, '502'],
  ])('HTTP %i before any frame -> failed %s', (status, body, category, retryable, code) => {
    expect(httpError(status, body)).toEqual([
      { type: 'fail', status: 'failed', error: expect.objectContaining({ category, retryable, provider_code: code, http_status: status }) },
    ]);
  });

  it('accepts HTTP 200 without failing', () => {
    expect(httpError(200)).toEqual([]);
  });

  it('reads the nested error event (code null: the type is the most specific code)', () => {
    const nested = { type: 'error', error: { type: 'server_error', code: null, message: 'An error occurred', param: null }, sequence_number: 3 };
    expect(mapOpenAiResponsesErrorEvent(nested)).toEqual({ category: 'upstream_error', retryable: true, provider_code: 'server_error', message: 'An error occurred' });
  });

  it('reads the flat error event the API reference documents', () => {
    const flat = { type: 'error', code: 'rate_limit_exceeded', message: 'Slow down', param: null, sequence_number: 3 };
    expect(mapOpenAiResponsesErrorEvent(flat)).toEqual({ category: 'rate_limited', retryable: true, provider_code: 'rate_limit_exceeded', message: 'Slow down' });
  });

  it('categorizes an unknown code by its known type, and keeps the code as provider_code', () => {
    const nested = { type: 'error', error: { type: 'invalid_request_error', code: 'context_length_exceeded', message: 'Too long' } };
    expect(mapOpenAiResponsesErrorEvent(nested)).toMatchObject({ category: 'invalid_request', retryable: false, provider_code: 'context_length_exceeded' });
  });

  it.each(['vector_store_timeout', 'constructor', 'toString', 'brand_new_code'])('treats %s as an upstream error nobody promised is retryable', (code) => {
    expect(mapOpenAiResponsesFailed({ error: { code, message: 'm' } })).toEqual({ category: 'upstream_error', retryable: false, provider_code: code, message: 'm' });
  });

  it('maps documented input codes of response.failed to invalid_request', () => {
    for (const code of ['invalid_prompt', 'invalid_image_url', 'image_too_large']) {
      expect(mapOpenAiResponsesFailed({ error: { code, message: 'm' } })).toMatchObject({ category: 'invalid_request', retryable: false });
    }
  });

  it('says nothing it does not know: an error event with no fields at all', () => {
    expect(mapOpenAiResponsesErrorEvent({ type: 'error' })).toEqual({
      category: 'upstream_error',
      retryable: false,
      provider_code: null,
      message: 'the provider reported an error',
    });
  });
});

describe('OpenAI Responses stop reasons and usage', () => {
  it('infers the stop reason of a completed response from its output', () => {
    expect(mapOpenAiResponsesCompleted({ functionCall: false, refusal: false }).stop_reason).toBe('end_turn');
    expect(mapOpenAiResponsesCompleted({ functionCall: false, refusal: true }).stop_reason).toBe('refusal');
    expect(mapOpenAiResponsesCompleted({ functionCall: true, refusal: true }).stop_reason).toBe('tool_use');
    expect(mapOpenAiResponsesIncomplete('max_output_tokens')).toEqual({ stop_reason: 'max_tokens', provider_stop_reason: 'max_output_tokens' });
    expect(mapOpenAiResponsesIncomplete('content_filter')).toEqual({ stop_reason: 'content_filter', provider_stop_reason: 'content_filter' });
  });

  it('reports reasoning, cached and cache-write tokens only when non-zero', () => {
    const usage = {
      input_tokens: 10,
      input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      output_tokens: 4,
      output_tokens_details: { reasoning_tokens: 0 },
    };
    expect(convertOpenAiResponsesUsage(usage)).toEqual({ input_tokens: 10, output_tokens: 4 });
    const detailed = { ...usage, input_tokens_details: { cached_tokens: 8, cache_write_tokens: 2 }, output_tokens_details: { reasoning_tokens: 3 } };
    expect(convertOpenAiResponsesUsage(detailed)).toEqual({
      input_tokens: 10,
      output_tokens: 4,
      reasoning_tokens: 3,
      cached_input_tokens: 8,
      cache_creation_input_tokens: 2,
    });
  });

  it('reports the cache writes as their total, without their split per retention', () => {
    const usage = {
      input_tokens: 2100,
      input_tokens_details: { cached_tokens: 0, cache_write_tokens: 2048, cache_write_tokens_details: { ttl_30m_tokens: 0, ttl_12h_tokens: 2048 } },
      output_tokens: 12,
      output_tokens_details: { reasoning_tokens: 0 },
    };
    expect(convertOpenAiResponsesUsage(usage)).toEqual({ input_tokens: 2100, output_tokens: 12, cache_creation_input_tokens: 2048 });
  });

  it('has no usage without an output count', () => {
    expect(convertOpenAiResponsesUsage(undefined)).toBeUndefined();
    expect(convertOpenAiResponsesUsage({ input_tokens: 3, output_tokens: '4' })).toBeUndefined();
  });
});

describe('text digest', () => {
  it('folds fragments to the digest of their concatenation, however the text is split', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme' }), { maxLength: 12 }), (fragments) => {
        const folded = fragments.reduce(extendDigest, EMPTY_DIGEST);
        expect(sameDigest(folded, digestOf(fragments.join('')))).toBe(true);
      }),
    );
  });

  it('tells apart texts of equal length that differ in one code unit', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 64 }), fc.nat(), fc.integer({ min: 1, max: 0xfffe }), (text, at, shift) => {
        const index = at % text.length;
        const changed = text.slice(0, index) + String.fromCharCode((text.charCodeAt(index) + shift) % 0xffff) + text.slice(index + 1);
        fc.pre(changed !== text);
        expect(sameDigest(digestOf(text), digestOf(changed))).toBe(false);
      }),
    );
  });
});
