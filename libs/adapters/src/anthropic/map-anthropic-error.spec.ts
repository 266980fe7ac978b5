import type { UpstreamResponseRecord } from '@llm-stream/contract';
import { mapAnthropicHttpError, mapAnthropicStreamError, readAnthropicErrorBody } from './map-anthropic-error.js';

const streamError = (error: unknown): Record<string, unknown> => ({ type: 'error', error, request_id: 'req_011CTestTestTestTestTest' });

const spendCapBody = {
  type: 'error',
  error: {
    type: 'rate_limit_error',
    message: 'You have reached your specified API usage limits. You will regain access on 2025-11-01 at 00:00 UTC.',
    details: { error_code: 'enforced_spend_limit_reached' },
  },
  request_id: 'req_011CTestTestTestTestTest',
};

const response = (status: number, body: unknown): UpstreamResponseRecord => ({
  kind: 'upstream.response',
  raw_seq: 3,
  ts: 3,
  attempt: 1,
  status,
  body: JSON.stringify(body),
});

describe('mapAnthropicStreamError', () => {
  it.each([
    ['overloaded_error', 'upstream_overloaded', true],
    ['rate_limit_error', 'rate_limited', true],
    ['api_error', 'upstream_error', true],
    ['timeout_error', 'upstream_error', true],
    ['invalid_request_error', 'invalid_request', false],
    ['request_too_large', 'invalid_request', false],
    ['not_found_error', 'invalid_request', false],
    ['authentication_error', 'authentication', false],
    ['permission_error', 'authentication', false],
    ['billing_error', 'authentication', false],
  ] as const)('%s -> %s, retryable %s', (type, category, retryable) => {
    expect(mapAnthropicStreamError(streamError({ details: null, type, message: 'Something happened' }))).toStrictEqual({
      category,
      retryable,
      provider_code: type,
      message: 'Something happened',
    });
  });

  it.each(['quantum_error', 'constructor', 'toString', '__proto__'])(
    'maps the unknown type %s to upstream_error, not retryable',
    (type) => {
      expect(mapAnthropicStreamError(streamError({ type, message: 'm' }))).toStrictEqual({
        category: 'upstream_error',
        retryable: false,
        provider_code: type,
        message: 'm',
      });
    },
  );

  it.each([
    ['no error object', {}],
    ['an error that is a string', streamError('Overloaded')],
    ['an error without type or message', streamError({ details: null })],
    ['a type and message of the wrong JSON types', streamError({ type: 529, message: ['Overloaded'] })],
  ])('reports %s as an unknown upstream error with a generic message', (_what, payload) => {
    expect(mapAnthropicStreamError(payload)).toStrictEqual({
      category: 'upstream_error',
      retryable: false,
      provider_code: null,
      message: 'the provider reported an error',
    });
  });

  it('keeps the category of the type but takes the more specific details.error_code as provider_code', () => {
    expect(
      mapAnthropicStreamError(
        streamError({ type: 'overloaded_error', message: 'Overloaded', details: { error_code: 'capacity_exceeded' } }),
      ),
    ).toStrictEqual({
      category: 'upstream_overloaded',
      retryable: true,
      provider_code: 'capacity_exceeded',
      message: 'Overloaded',
    });
  });

  it('does not retry a monthly spend cap reported as rate_limit_error', () => {
    expect(mapAnthropicStreamError(spendCapBody)).toStrictEqual({
      category: 'rate_limited',
      retryable: false,
      provider_code: 'enforced_spend_limit_reached',
      message: spendCapBody.error.message,
    });
  });
});

describe('readAnthropicErrorBody', () => {
  it('reads the type and message of the documented error shape', () => {
    expect(readAnthropicErrorBody({ type: 'error', error: { type: 'not_found_error', message: 'model: x' } })).toStrictEqual({
      code: 'not_found_error',
      message: 'model: x',
    });
  });

  it('prefers details.error_code, ignores details of other shapes, and omits what is absent', () => {
    expect(readAnthropicErrorBody(spendCapBody)).toStrictEqual({
      code: 'enforced_spend_limit_reached',
      message: spendCapBody.error.message,
    });
    expect(readAnthropicErrorBody({ error: { type: 'api_error', details: { error_code: 7 } } })).toStrictEqual({ code: 'api_error' });
    expect(readAnthropicErrorBody({ error: { message: 'only a message', details: 'x' } })).toStrictEqual({ message: 'only a message' });
    expect(readAnthropicErrorBody({ error: null })).toStrictEqual({});
  });
});

describe('mapAnthropicHttpError', () => {
  it('categorizes by status and takes the error type as provider_code', () => {
    expect(
      mapAnthropicHttpError(response(429, { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } })),
    ).toStrictEqual({
      type: 'fail',
      status: 'failed',
      error: { category: 'rate_limited', retryable: true, provider_code: 'rate_limit_error', message: 'slow down', http_status: 429 },
    });
  });

  it('does not retry a 429 for the usage tier monthly spend cap, which only details.error_code tells apart', () => {
    // https://docs.anthropic.com/en/api/errors: the spend-cap 429 has no retry-after and keeps failing
    // until the month ends; retrying it only repeats the failure.
    expect(mapAnthropicHttpError(response(429, spendCapBody))).toStrictEqual({
      type: 'fail',
      status: 'failed',
      error: {
        category: 'rate_limited',
        retryable: false,
        provider_code: 'enforced_spend_limit_reached',
        message: spendCapBody.error.message,
        http_status: 429,
      },
    });
  });
});
