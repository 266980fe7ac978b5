/**
 * Wire types of Gemini's streamGenerateContent (`alt=sse`), only as far as the adapter reads them. Every
 * record is one whole `GenerateContentResponse`; there are no event names and no `[DONE]`.
 * https://ai.google.dev/api/generate-content#v1beta.GenerateContentResponse
 * https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/GenerateContentResponse
 * Every field is optional at run time: payloads are checked, never trusted.
 */

/**
 * `Candidate.finishReason` values documented for the Gemini API and Vertex AI. The list is open: newer
 * values arrive without notice and map to `other` with the raw value kept.
 * https://ai.google.dev/api/generate-content#FinishReason
 */
export type GeminiFinishReason =
  | 'FINISH_REASON_UNSPECIFIED'
  | 'STOP'
  | 'MAX_TOKENS'
  | 'SAFETY'
  | 'RECITATION'
  | 'LANGUAGE'
  | 'OTHER'
  | 'BLOCKLIST'
  | 'PROHIBITED_CONTENT'
  | 'SPII'
  | 'MALFORMED_FUNCTION_CALL'
  | 'IMAGE_SAFETY'
  | 'IMAGE_PROHIBITED_CONTENT'
  | 'IMAGE_OTHER'
  | 'NO_IMAGE'
  | 'IMAGE_RECITATION'
  | 'UNEXPECTED_TOOL_CALL'
  | 'TOO_MANY_TOOL_CALLS'
  | 'MISSING_THOUGHT_SIGNATURE';

/**
 * `Part` fields that describe a part rather than being its content; a part whose only keys are these
 * (a bare `thoughtSignature`) contributes nothing visible. The content field of a part is a oneof: `text`,
 * `functionCall`, or one the adapter does not map (`inlineData`, `executableCode`...).
 * https://ai.google.dev/api/caching#Part
 */
export const GEMINI_PART_METADATA_KEYS: readonly string[] = [
  'thought',
  'thoughtSignature',
  'partMetadata',
  'videoMetadata',
  'mediaResolution',
];

/** The google.rpc.Status-shaped error object Google sends in a body, framed or not. */
export interface GeminiErrorObject {
  readonly code?: number;
  readonly message?: string;
  readonly status?: string;
}

/**
 * `usageMetadata`: cumulative, repeated on every object; zero counts are omitted (proto3 JSON), and
 * Vertex sends `{"trafficType": ...}` alone until the last object.
 * https://ai.google.dev/api/generate-content#UsageMetadata
 */
export interface GeminiUsageMetadata {
  readonly promptTokenCount?: number;
  readonly candidatesTokenCount?: number;
  readonly thoughtsTokenCount?: number;
  readonly cachedContentTokenCount?: number;
  readonly toolUsePromptTokenCount?: number;
  readonly totalTokenCount?: number;
}
