/**
 * Wire types of the OpenAI Responses streaming API, only as far as the adapter reads them.
 * https://platform.openai.com/docs/api-reference/responses-streaming
 * Every record is `event: <type>` + `data: {"type": <type>, ..., "sequence_number": n}`. Every field is
 * optional at run time: payloads are checked, never trusted.
 */
export type OpenAiResponsesEventType =
  // Lifecycle: the response object, with usage only on the terminal ones.
  | 'response.created'
  | 'response.queued'
  | 'response.in_progress'
  | 'response.completed'
  | 'response.incomplete'
  | 'response.failed'
  | 'response.cancelled'
  | 'error'
  // Output items (message, function_call, reasoning, and server tools we skip).
  | 'response.output_item.added'
  | 'response.output_item.done'
  // Content parts of a message item (output_text, refusal) or of a reasoning item (reasoning_text).
  | 'response.content_part.added'
  | 'response.content_part.done'
  | 'response.output_text.delta'
  | 'response.output_text.done'
  | 'response.output_text.annotation.added'
  | 'response.refusal.delta'
  | 'response.refusal.done'
  // Function call arguments, keyed by the item id (`fc_…`), never by the call id.
  | 'response.function_call_arguments.delta'
  | 'response.function_call_arguments.done'
  // Reasoning: summary parts (keyed by item id + summary_index) and raw reasoning text (content_index).
  | 'response.reasoning_summary_part.added'
  | 'response.reasoning_summary_part.done'
  | 'response.reasoning_summary_text.delta'
  | 'response.reasoning_summary_text.done'
  | 'response.reasoning_text.delta'
  | 'response.reasoning_text.done';

export const OPENAI_RESPONSES_EVENT_TYPES: readonly OpenAiResponsesEventType[] = [
  'response.created',
  'response.queued',
  'response.in_progress',
  'response.completed',
  'response.incomplete',
  'response.failed',
  'response.cancelled',
  'error',
  'response.output_item.added',
  'response.output_item.done',
  'response.content_part.added',
  'response.content_part.done',
  'response.output_text.delta',
  'response.output_text.done',
  'response.output_text.annotation.added',
  'response.refusal.delta',
  'response.refusal.done',
  'response.function_call_arguments.delta',
  'response.function_call_arguments.done',
  'response.reasoning_summary_part.added',
  'response.reasoning_summary_part.done',
  'response.reasoning_summary_text.delta',
  'response.reasoning_summary_text.done',
  'response.reasoning_text.delta',
  'response.reasoning_text.done',
];

/**
 * Output item types the adapter maps. Others (web_search_call, file_search_call, computer_call,
 * image_generation_call, code_interpreter_call, mcp_*, custom_tool_call...) are skipped with their events.
 */
export type OpenAiResponsesItemType = 'message' | 'function_call' | 'reasoning';

/** Content part types: `output_text` and `refusal` in message items, `reasoning_text` in reasoning items. */
export type OpenAiResponsesPartType = 'output_text' | 'refusal' | 'reasoning_text';

/** `response.usage` of the terminal response object (absent, or null, on every other event). */
export interface OpenAiResponsesUsage {
  readonly input_tokens?: number;
  readonly input_tokens_details?: { readonly cached_tokens?: number; readonly cache_write_tokens?: number };
  readonly output_tokens?: number;
  readonly output_tokens_details?: { readonly reasoning_tokens?: number };
  readonly total_tokens?: number;
}

/** `response.error` of response.failed. */
export interface OpenAiResponsesError {
  readonly code?: string | null;
  readonly message?: string;
}

/**
 * The `error` event. The API reference documents it flat; real streams nest it (fact 17 of the kit README).
 * Both are accepted.
 */
export type OpenAiResponsesErrorEvent =
  | { readonly type: 'error'; readonly code?: string | null; readonly message?: string; readonly param?: string | null }
  | {
      readonly type: 'error';
      readonly error?: { readonly type?: string; readonly code?: string | null; readonly message?: string; readonly param?: string | null };
    };
