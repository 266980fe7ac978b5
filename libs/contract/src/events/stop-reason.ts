/**
 * Why a completed stream ended, normalized across providers. Any provider reason outside this list maps to
 * `other`, and the raw value is kept in `provider_stop_reason`.
 */
export const STOP_REASONS = [
  'end_turn',
  'tool_use',
  'max_tokens',
  'stop_sequence',
  'content_filter',
  'refusal',
  'other',
] as const;
export type StopReason = (typeof STOP_REASONS)[number];
