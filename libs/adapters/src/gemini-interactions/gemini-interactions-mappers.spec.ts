import { convertInteractionsUsage } from './convert-interactions-usage.js';
import { interactionsHttpFailure, mapInteractionsError } from './map-interactions-error.js';
import { mapInteractionsStatus } from './map-interactions-status.js';

describe('mapInteractionsStatus', () => {
  it.each([
    ['completed', false, { kind: 'completed', stop_reason: 'end_turn' }],
    ['completed', true, { kind: 'completed', stop_reason: 'tool_use' }],
    ['requires_action', false, { kind: 'completed', stop_reason: 'tool_use' }],
    ['incomplete', false, { kind: 'completed', stop_reason: 'max_tokens' }],
    ['budget_exceeded', true, { kind: 'completed', stop_reason: 'max_tokens' }],
    ['cancelled', false, { kind: 'cancelled' }],
    ['in_progress', false, { kind: 'running' }],
    ['queued', false, { kind: 'running' }],
    ['awaiting_review', false, { kind: 'completed', stop_reason: 'other' }],
  ] as const)('%s (function called: %s) -> %j', (status, called, outcome) => {
    expect(mapInteractionsStatus(status, called)).toStrictEqual(outcome);
  });

  it('failed -> upstream_error, code "failed", not retryable', () => {
    expect(mapInteractionsStatus('failed', false)).toStrictEqual({
      kind: 'failed',
      error: { category: 'upstream_error', retryable: false, provider_code: 'failed', message: 'the interaction failed' },
    });
  });
});

describe('mapInteractionsError', () => {
  it.each([
    [{ code: 'rate_limit_exceeded', message: 'slow down' }, 'rate_limited', true, 'rate_limit_exceeded'],
    [{ code: 'quota_exceeded' }, 'rate_limited', true, 'quota_exceeded'],
    [{ code: 'overloaded' }, 'upstream_overloaded', true, 'overloaded'],
    [{ code: 503, status: 'UNAVAILABLE' }, 'upstream_overloaded', true, 'UNAVAILABLE'],
    [{ code: 500 }, 'upstream_error', true, '500'],
    [{ code: 'internal' }, 'upstream_error', true, 'internal'],
    [{ code: 'invalid_request' }, 'invalid_request', false, 'invalid_request'],
    [{ code: 'model_not_found' }, 'invalid_request', false, 'model_not_found'],
    [{ code: 'authentication' }, 'authentication', false, 'authentication'],
    [{ code: 403 }, 'authentication', false, '403'],
    [{ code: 'quantum_flux' }, 'upstream_error', false, 'quantum_flux'],
    [{}, 'upstream_error', false, null],
  ])('%j -> %s (retryable %s, code %s)', (error, category, retryable, code) => {
    expect(mapInteractionsError(error)).toMatchObject({ category, retryable, provider_code: code });
  });

  it('keeps the message, or says that the provider reported an error', () => {
    expect(mapInteractionsError({ code: 'internal', message: 'boom' }).message).toBe('boom');
    expect(mapInteractionsError({ code: 'internal' }).message).toBe('the provider reported an error');
  });
});

describe('interactionsHttpFailure', () => {
  it('categorizes by status and takes the body error code', () => {
    const body = JSON.stringify({ error: { code: 'model_not_found', message: 'models/nope is not found' } });
    expect(interactionsHttpFailure({ kind: 'upstream.response', raw_seq: 3, ts: 0, attempt: 1, status: 404, content_type: 'application/json', body })).toStrictEqual({
      type: 'fail',
      status: 'failed',
      error: { category: 'invalid_request', retryable: false, provider_code: 'model_not_found', message: 'models/nope is not found', http_status: 404 },
    });
  });

  it('falls back to the status when the body is not JSON', () => {
    expect(interactionsHttpFailure({ kind: 'upstream.response', raw_seq: 3, ts: 0, attempt: 1, status: 429, content_type: 'text/html', body: '<html>' })).toMatchObject({
      error: { category: 'rate_limited', retryable: true, provider_code: '429' },
    });
  });
});

describe('convertInteractionsUsage', () => {
  it('adds thought tokens to the output and reports them and cached tokens apart', () => {
    expect(
      convertInteractionsUsage({ total_input_tokens: 100, total_output_tokens: 20, total_thought_tokens: 30, total_cached_tokens: 64, total_tokens: 150 }),
    ).toStrictEqual({ input_tokens: 100, output_tokens: 50, reasoning_tokens: 30, cached_input_tokens: 64 });
  });

  it('reads absent counts as 0 and omits zero extras', () => {
    expect(convertInteractionsUsage({ total_output_tokens: 5, total_thought_tokens: 0 })).toStrictEqual({ input_tokens: 0, output_tokens: 5 });
  });

  it('is undefined without any count, and ignores counts that are not non-negative integers', () => {
    expect(convertInteractionsUsage({ total_tokens: 9 })).toBeUndefined();
    expect(convertInteractionsUsage({ total_input_tokens: -1, total_output_tokens: 1.5 })).toBeUndefined();
  });
});
