/**
 * Wire types of the Anthropic Messages streaming API, only as far as the adapter reads them.
 * https://docs.anthropic.com/en/docs/build-with-claude/streaming#event-types
 * Every field is optional at run time: payloads are checked, never trusted.
 */
export type AnthropicEventType =
  | 'message_start'
  | 'content_block_start'
  | 'content_block_delta'
  | 'content_block_stop'
  | 'message_delta'
  | 'message_stop'
  | 'ping'
  | 'error';

export const ANTHROPIC_EVENT_TYPES: readonly AnthropicEventType[] = [
  'message_start',
  'content_block_start',
  'content_block_delta',
  'content_block_stop',
  'message_delta',
  'message_stop',
  'ping',
  'error',
];

/** Content block types the adapter maps; others (server tools, citations...) are skipped and counted. */
export type AnthropicBlockType = 'text' | 'tool_use' | 'thinking' | 'redacted_thinking';

/** Delta types inside content_block_delta. `citations_delta` is known but adds no text. */
export type AnthropicDeltaType = 'text_delta' | 'input_json_delta' | 'thinking_delta' | 'signature_delta' | 'citations_delta';

/** `usage` of message_start (message.usage) and message_delta (cumulative). */
export interface AnthropicUsage {
  readonly input_tokens?: number;
  readonly output_tokens?: number;
  readonly cache_read_input_tokens?: number;
  readonly cache_creation_input_tokens?: number;
}
