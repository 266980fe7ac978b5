import { mapGeminiBlockReason, mapGeminiFinishReason } from './map-gemini-finish-reason.js';

describe('mapGeminiFinishReason', () => {
  it('maps STOP to tool_use when the candidate called a function, else to end_turn (Gemini has no tool-use reason)', () => {
    expect(mapGeminiFinishReason('STOP', true)).toEqual({ kind: 'completed', stop_reason: 'tool_use' });
    expect(mapGeminiFinishReason('STOP', false)).toEqual({ kind: 'completed', stop_reason: 'end_turn' });
  });

  it('maps MAX_TOKENS to max_tokens, also after a function call', () => {
    expect(mapGeminiFinishReason('MAX_TOKENS', true)).toEqual({ kind: 'completed', stop_reason: 'max_tokens' });
  });

  it.each(['SAFETY', 'PROHIBITED_CONTENT', 'BLOCKLIST', 'SPII', 'RECITATION'])('maps %s to content_filter', (reason) => {
    expect(mapGeminiFinishReason(reason, false)).toEqual({ kind: 'completed', stop_reason: 'content_filter' });
  });

  it.each(['MALFORMED_FUNCTION_CALL', 'UNEXPECTED_TOOL_CALL', 'TOO_MANY_TOOL_CALLS'])(
    'fails %s (a tool call the model got wrong) as a retryable upstream error with the raw value as provider code',
    (reason) => {
      expect(mapGeminiFinishReason(reason, true)).toEqual({
        kind: 'failed',
        error: expect.objectContaining({ category: 'upstream_error', retryable: true, provider_code: reason }),
      });
    },
  );

  it('fails MISSING_THOUGHT_SIGNATURE as an invalid request no retry fixes', () => {
    expect(mapGeminiFinishReason('MISSING_THOUGHT_SIGNATURE', false)).toEqual({
      kind: 'failed',
      error: expect.objectContaining({ category: 'invalid_request', retryable: false, provider_code: 'MISSING_THOUGHT_SIGNATURE' }),
    });
  });

  it.each([
    'OTHER',
    'LANGUAGE',
    'IMAGE_SAFETY',
    'IMAGE_PROHIBITED_CONTENT',
    'NO_IMAGE',
    'FINISH_REASON_UNSPECIFIED',
    'A_REASON_ADDED_NEXT_YEAR',
    '',
  ])('maps %j to other (a confirmed end whose raw value the caller keeps)', (reason) => {
    expect(mapGeminiFinishReason(reason, true)).toEqual({ kind: 'completed', stop_reason: 'other' });
  });
});

describe('mapGeminiBlockReason', () => {
  it.each(['SAFETY', 'OTHER', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'IMAGE_SAFETY', 'BLOCKED_REASON_UNSPECIFIED'])(
    'maps the blocked prompt reason %s to content_filter',
    (reason) => {
      expect(mapGeminiBlockReason(reason)).toBe('content_filter');
    },
  );
});
