/**
 * Wire types of Gemini's Interactions API stream (`POST /v1beta/interactions` with `"stream": true`), only as
 * far as the adapter reads them. Every record is one JSON event whose `event_type` names it (the SSE `event:`
 * field repeats it); each carries an `event_id` to resume the stream from. The stream may end with
 * `data: [DONE]`, which is not an event.
 * https://ai.google.dev/api/interactions-api#streaming
 * https://googleapis.github.io/js-genai/release_docs/types/gaos_models_interactions_interaction-sse-event.InteractionSSEEvent.html
 * Every field is optional at run time: payloads are checked, never trusted.
 */

/**
 * The event types of both generations: the step model (`interaction.created`, `step.*`,
 * `interaction.completed`) and the legacy content model (`interaction.start`, `content.*`,
 * `interaction.complete`), used when steps are disabled; `interaction.status_update` and `error` in both.
 */
export const INTERACTIONS_EVENT_TYPES = [
  'interaction.created',
  'interaction.start',
  'interaction.status_update',
  'interaction.completed',
  'interaction.complete',
  'step.start',
  'step.delta',
  'step.stop',
  'content.start',
  'content.delta',
  'content.stop',
  'error',
] as const;

export type InteractionsEventType = (typeof INTERACTIONS_EVENT_TYPES)[number];

/**
 * `Interaction.status`. The list is open (`string & {}` in the SDK): a value the adapter does not know
 * ends an `interaction.completed` as completed with stop reason `other`, the raw value kept.
 * https://googleapis.github.io/js-genai/release%5Fdocs/types/gaos_models_interactions_interaction.InteractionStatus.html
 */
export type InteractionStatus =
  | 'in_progress'
  | 'queued'
  | 'requires_action'
  | 'completed'
  | 'failed'
  | 'cancelled'
  | 'incomplete'
  | 'budget_exceeded';

/**
 * What a step (or a legacy content block) becomes: a text, reasoning or tool_call block, or nothing
 * (server-side tools, their results, media and unknown types: skipped and reported once).
 * Step types: https://ai.google.dev/gemini-api/docs/interactions (model_output, thought, function_call,
 * google_search_call/_result, code_execution_call/_result, url_context_call/_result,
 * mcp_server_tool_call/_result, file_search_call/_result, function_result, user_input).
 */
export type StepKind = 'text' | 'reasoning' | 'tool_call';

/** Step types (and legacy content types) that map to a block. */
export const STEP_KINDS: Readonly<Record<string, StepKind>> = {
  model_output: 'text',
  text: 'text',
  thought: 'reasoning',
  function_call: 'tool_call',
};

/** Delta types that carry nothing the contract shows (citations of text already streamed). */
export const SILENT_DELTA_TYPES: readonly string[] = ['text_annotation_delta', 'text_annotation'];

/** The `error` object of an `error` event or a failed interaction: `{code, message}` (code a string or a number). */
export interface InteractionsErrorObject {
  readonly code?: string | number;
  readonly message?: string;
  readonly status?: string;
}

/**
 * `Interaction.usage`: totals of the whole interaction, on `interaction.completed` (and sometimes a
 * `step.stop`); zero counts may be omitted.
 * https://ai.google.dev/api/interactions-api#Usage
 */
export interface InteractionsUsage {
  readonly total_input_tokens?: number;
  readonly total_output_tokens?: number;
  readonly total_thought_tokens?: number;
  readonly total_cached_tokens?: number;
  readonly total_tool_use_tokens?: number;
  readonly total_tokens?: number;
}
