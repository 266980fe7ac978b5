import { STOP_REASONS } from '@llm-stream/contract';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';

describe('mapAnthropicStopReason', () => {
  it.each(['end_turn', 'tool_use', 'max_tokens', 'stop_sequence', 'refusal'] as const)('maps %s to itself', (reason) => {
    expect(mapAnthropicStopReason(reason)).toBe(reason);
  });

  it.each([
    ['pause_turn', 'a paused server-tool turn'],
    ['model_context_window_exceeded', 'the context window filled up'],
    ['compaction', 'a reason added after this adapter was written'],
    ['END_TURN', 'a value in the wrong case'],
    ['', 'an empty string'],
  ])('maps %s (%s) to other', (reason) => {
    expect(mapAnthropicStopReason(reason)).toBe('other');
  });

  it('maps a missing stop reason (message_stop without message_delta) to other', () => {
    expect(mapAnthropicStopReason(null)).toBe('other');
  });

  it('never returns content_filter: Anthropic reports a classifier stop as refusal', () => {
    const produced = new Set(
      ['end_turn', 'tool_use', 'max_tokens', 'stop_sequence', 'refusal', 'pause_turn', null].map(mapAnthropicStopReason),
    );
    expect([...produced].every((reason) => STOP_REASONS.includes(reason))).toBe(true);
    expect(produced.has('content_filter')).toBe(false);
  });
});
