import type {
  RawContentBlockDelta,
  RawContentBlockStartEvent,
  RawMessageStreamEvent,
  StopReason,
} from '@anthropic-ai/sdk/resources/messages';
import type {
  BetaRawContentBlockDelta,
  BetaRawContentBlockStartEvent,
  BetaRawMessageStreamEvent,
  BetaStopReason,
} from '@anthropic-ai/sdk/resources/beta/messages';

/** The `@anthropic-ai/sdk` stream unions whose every value has a row in the survey's Anthropic table. */
export type AnthropicStreamEventType = RawMessageStreamEvent['type'];
export type AnthropicStartBlockType = RawContentBlockStartEvent['content_block']['type'];
export type AnthropicDeltaType = RawContentBlockDelta['type'];
export type AnthropicStopReason = StopReason;
export type AnthropicBetaStreamEventType = BetaRawMessageStreamEvent['type'];
export type AnthropicBetaStartBlockType = BetaRawContentBlockStartEvent['content_block']['type'];
export type AnthropicBetaDeltaType = BetaRawContentBlockDelta['type'];
export type AnthropicBetaStopReason = BetaStopReason;

export const SURVEYED_ANTHROPIC_STREAM_EVENT_TYPES = [
  'message_start',
  'message_delta',
  'message_stop',
  'content_block_start',
  'content_block_delta',
  'content_block_stop',
] as const satisfies readonly AnthropicStreamEventType[];

export const SURVEYED_ANTHROPIC_START_BLOCK_TYPES = [
  'text',
  'thinking',
  'redacted_thinking',
  'tool_use',
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
  'tool_search_tool_result',
  'container_upload',
] as const satisfies readonly AnthropicStartBlockType[];

export const SURVEYED_ANTHROPIC_DELTA_TYPES = [
  'text_delta',
  'input_json_delta',
  'citations_delta',
  'thinking_delta',
  'signature_delta',
] as const satisfies readonly AnthropicDeltaType[];

export const SURVEYED_ANTHROPIC_STOP_REASONS = [
  'end_turn',
  'max_tokens',
  'stop_sequence',
  'tool_use',
  'pause_turn',
  'refusal',
  'model_context_window_exceeded',
] as const satisfies readonly AnthropicStopReason[];

export const SURVEYED_ANTHROPIC_BETA_STREAM_EVENT_TYPES = [
  ...SURVEYED_ANTHROPIC_STREAM_EVENT_TYPES,
] as const satisfies readonly AnthropicBetaStreamEventType[];

export const SURVEYED_ANTHROPIC_BETA_START_BLOCK_TYPES = [
  ...SURVEYED_ANTHROPIC_START_BLOCK_TYPES,
  'advisor_tool_result',
  'mcp_tool_use',
  'mcp_tool_result',
  'mcp_tool_listing',
  'compaction',
  'fallback',
] as const satisfies readonly AnthropicBetaStartBlockType[];

export const SURVEYED_ANTHROPIC_BETA_DELTA_TYPES = [
  ...SURVEYED_ANTHROPIC_DELTA_TYPES,
  'compaction_delta',
] as const satisfies readonly AnthropicBetaDeltaType[];

export const SURVEYED_ANTHROPIC_BETA_STOP_REASONS = [
  ...SURVEYED_ANTHROPIC_STOP_REASONS,
  'compaction',
] as const satisfies readonly AnthropicBetaStopReason[];
