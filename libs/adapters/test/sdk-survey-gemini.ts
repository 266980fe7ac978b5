import type { FinishReason, Interactions, Part } from '@google/genai';

/** The `@google/genai` stream unions whose every value has a row in the survey's Gemini or Interactions table. */
export type GeminiFinishReason = `${FinishReason}`;
export type GeminiPartField = keyof Part;
export type InteractionsEventType = Interactions.InteractionSSEEvent['event_type'];
export type InteractionsStepType = Interactions.Step['type'];
export type InteractionsDeltaType = Interactions.StepDelta['delta']['type'];

export const SURVEYED_GEMINI_FINISH_REASONS = [
  'FINISH_REASON_UNSPECIFIED',
  'STOP',
  'MAX_TOKENS',
  'SAFETY',
  'RECITATION',
  'LANGUAGE',
  'OTHER',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'MALFORMED_FUNCTION_CALL',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_OTHER',
  'NO_IMAGE',
  'IMAGE_RECITATION',
  'UNEXPECTED_TOOL_CALL',
  'TOO_MANY_TOOL_CALLS',
  'MISSING_THOUGHT_SIGNATURE',
  'MALFORMED_RESPONSE',
  'ESCALATION',
  'PUP_LIMITED_DISABLED',
  'CONTINUATION',
  'MODEL_ARMOR',
] as const satisfies readonly GeminiFinishReason[];

export const SURVEYED_GEMINI_PART_FIELDS = [
  'text',
  'thought',
  'thoughtSignature',
  'functionCall',
  'functionResponse',
  'toolCall',
  'toolResponse',
  'executableCode',
  'codeExecutionResult',
  'inlineData',
  'fileData',
  'audioTranscription',
  'partMetadata',
  'videoMetadata',
  'mediaResolution',
  'mediaProcessing',
  'speechMetadata',
  'documentMetadata',
  'spreadsheetMetadata',
  'audioMetadata',
] as const satisfies readonly GeminiPartField[];

export const SURVEYED_INTERACTIONS_EVENT_TYPES = [
  'interaction.created',
  'interaction.status_update',
  'interaction.completed',
  'step.start',
  'step.delta',
  'step.stop',
  'error',
] as const satisfies readonly InteractionsEventType[];

/** The server-side tools' calls and results: each is a step type and a delta type of the Interactions API. */
const INTERACTIONS_SERVER_TOOL_TYPES = [
  'code_execution_call',
  'code_execution_result',
  'file_search_call',
  'file_search_result',
  'google_maps_call',
  'google_maps_result',
  'google_search_call',
  'google_search_result',
  'mcp_server_tool_call',
  'mcp_server_tool_result',
  'processing_call',
  'processing_result',
  'retrieval_call',
  'retrieval_result',
  'tool_search_call',
  'tool_search_result',
  'url_context_call',
  'url_context_result',
] as const;

export const SURVEYED_INTERACTIONS_STEP_TYPES = [
  'model_output',
  'thought',
  'function_call',
  'function_result',
  'user_input',
  ...INTERACTIONS_SERVER_TOOL_TYPES,
] as const satisfies readonly InteractionsStepType[];

export const SURVEYED_INTERACTIONS_DELTA_TYPES = [
  'text',
  'text_annotation_delta',
  'thought_summary',
  'thought_signature',
  'arguments_delta',
  'image',
  'audio',
  'document',
  'video',
  'function_result',
  ...INTERACTIONS_SERVER_TOOL_TYPES,
] as const satisfies readonly InteractionsDeltaType[];
