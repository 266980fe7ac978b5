import type { UpstreamResponseRecord } from '@llm-stream/contract';
import { geminiHttpFailure, mapGeminiError, readGeminiErrorBody } from './map-gemini-error.js';

describe('mapGeminiError', () => {
  it.each([
    ['UNAVAILABLE', 503, 'upstream_overloaded', true],
    ['RESOURCE_EXHAUSTED', 429, 'rate_limited', true],
    ['INTERNAL', 500, 'upstream_error', true],
    ['DEADLINE_EXCEEDED', 504, 'upstream_error', true],
    ['INVALID_ARGUMENT', 400, 'invalid_request', false],
    ['FAILED_PRECONDITION', 400, 'invalid_request', false],
    ['NOT_FOUND', 404, 'invalid_request', false],
    ['PERMISSION_DENIED', 403, 'authentication', false],
    ['UNAUTHENTICATED', 401, 'authentication', false],
  ])('maps status %s (%i) to %s, retryable %s, with the status string as provider code', (status, code, category, retryable) => {
    expect(mapGeminiError({ code, message: 'm', status })).toEqual({ category, retryable, provider_code: status, message: 'm' });
  });

  it('classifies by the numeric code when there is no status string, and keeps the code as provider code', () => {
    expect(mapGeminiError({ code: 429, message: 'slow down' })).toEqual({
      category: 'rate_limited',
      retryable: true,
      provider_code: '429',
      message: 'slow down',
    });
  });

  it('lets the status win over a numeric code that disagrees', () => {
    expect(mapGeminiError({ code: 500, status: 'UNAVAILABLE' })).toMatchObject({ category: 'upstream_overloaded', provider_code: 'UNAVAILABLE' });
  });

  it('maps codes nobody documented to a non-retryable upstream error', () => {
    expect(mapGeminiError({ code: 500, status: 'UNKNOWN' })).toMatchObject({ category: 'upstream_error', retryable: false, provider_code: 'UNKNOWN' });
    expect(mapGeminiError({ code: 418 })).toMatchObject({ category: 'upstream_error', retryable: false, provider_code: '418' });
  });

  it('copes with an error object that says nothing', () => {
    expect(mapGeminiError({})).toEqual({
      category: 'upstream_error',
      retryable: false,
      provider_code: null,
      message: 'the provider reported an error',
    });
  });
});

describe('readGeminiErrorBody', () => {
  it('reads the status string and message of a google.rpc error body', () => {
    expect(readGeminiErrorBody({ error: { code: 400, message: 'bad', status: 'INVALID_ARGUMENT' } })).toEqual({ code: 'INVALID_ARGUMENT', message: 'bad' });
  });

  it('reads nothing from a body without an error object', () => {
    expect(readGeminiErrorBody({ error: 'nope' })).toEqual({});
  });
});

describe('geminiHttpFailure', () => {
  const record = (status: number, body?: string): UpstreamResponseRecord => ({
    kind: 'upstream.response',
    raw_seq: 3,
    ts: 0,
    attempt: 1,
    status,
    ...(body !== undefined && { body }),
  });

  it('categorizes by the HTTP status and names the status string of an object body', () => {
    const body = '{\n  "error": {\n    "code": 429,\n    "message": "Quota exceeded",\n    "status": "RESOURCE_EXHAUSTED"\n  }\n}\n';
    expect(geminiHttpFailure(record(429, body))).toEqual({
      type: 'fail',
      status: 'failed',
      error: { category: 'rate_limited', retryable: true, provider_code: 'RESOURCE_EXHAUSTED', message: 'Quota exceeded', http_status: 429 },
    });
  });

  it('reads the [{"error": ...}] body of the JSON-array stream format', () => {
    const body = '[{\n  "error": {\n    "code": 400,\n    "message": "Function call is missing a thought_signature",\n    "status": "INVALID_ARGUMENT"\n  }\n}\n]';
    expect(geminiHttpFailure(record(400, body)).error).toEqual({
      category: 'invalid_request',
      retryable: false,
      provider_code: 'INVALID_ARGUMENT',
      message: 'Function call is missing a thought_signature',
      http_status: 400,
    });
  });

  it('falls back to the HTTP status when the body is not JSON or missing', () => {
    expect(geminiHttpFailure(record(503, '<html>Service Unavailable</html>')).error).toMatchObject({
      category: 'upstream_overloaded',
      retryable: true,
      provider_code: '503',
    });
    expect(geminiHttpFailure(record(401)).error).toMatchObject({ category: 'authentication', retryable: false, provider_code: '401' });
    expect(geminiHttpFailure(record(500, '[1, 2')).error).toMatchObject({ category: 'upstream_error', provider_code: '500' });
  });
});
