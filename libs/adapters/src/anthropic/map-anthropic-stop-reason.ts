import type { StopReason } from '@llm-stream/contract';

/**
 * Anthropic's `stop_reason` values map to themselves where the contract has them; `pause_turn`,
 * `model_context_window_exceeded` and anything newer become `other` (the raw value is kept beside it).
 * https://docs.anthropic.com/en/api/messages#response-stop-reason
 */
export function mapAnthropicStopReason(reason: string | null): StopReason {
  switch (reason) {
    case 'end_turn':
    case 'tool_use':
    case 'max_tokens':
    case 'stop_sequence':
    case 'refusal':
      return reason;
    default:
      return 'other';
  }
}
