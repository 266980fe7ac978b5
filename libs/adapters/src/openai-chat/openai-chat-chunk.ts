import type { JsonObject } from '../shared/json-payload.js';

/**
 * One `data:` payload of an OpenAI Chat Completions stream (`chat.completion.chunk`), after the checks of
 * {@link readOpenAiChatChunk}: known fields have the documented types, `null` and `""` are read as absent.
 * https://platform.openai.com/docs/api-reference/chat-streaming/streaming
 *
 * Either a chunk, or an error object in place of one: OpenAI (and vLLM, SGLang) send `{"error": {...}}`
 * without `id` or `choices`; OpenRouter sends a chunk with a top-level `error` beside its choices; older
 * vLLM sends the error flat (`{"object": "error", "message", "type", "code"}`).
 */
export type OpenAiChatPayload = OpenAiChatChunk | OpenAiChatErrorPayload;

export interface OpenAiChatChunk {
  readonly kind: 'chunk';
  /** `chatcmpl-…` (OpenAI), a UUID (DeepSeek), `gen-…` (OpenRouter); Azure's filter preamble has `""`. */
  readonly id?: string;
  readonly model?: string;
  /** `[]` for the usage chunk and Azure's `prompt_filter_results` preamble; `null` or absent reads as `[]`. */
  readonly choices: readonly OpenAiChatChoice[];
  /** `null` on every chunk but the one that carries it (the usage chunk, or the finish chunk for DeepSeek). */
  readonly usage?: JsonObject;
}

export interface OpenAiChatErrorPayload {
  readonly kind: 'error';
  /** The error value as sent: usually an object (`message`, `type`, `code`, `param`), sometimes a string. */
  readonly error: unknown;
}

export interface OpenAiChatChoice {
  /** The choice's `index` (position in `choices` when a server leaves it out). Only choice 0 is normalized. */
  readonly index: number;
  readonly delta: OpenAiChatDelta;
  /** `stop`, `length`, `tool_calls`, `content_filter`, `function_call`; OpenRouter adds `error`. */
  readonly finishReason?: string;
}

export interface OpenAiChatDelta {
  readonly content?: string;
  /**
   * `content` sent as an array of typed parts instead of a string (Mistral's `[{"type": "text", ...},
   * {"type": "thinking", "thinking": [...]}]`, other compatible servers' `[{"type": "text", "text"}]`), in
   * the order sent. Absent when `content` is a string.
   */
  readonly contentParts?: readonly OpenAiChatContentPart[];
  readonly refusal?: string;
  /** `reasoning_content` (DeepSeek, older vLLM) or, failing that, `reasoning` (vLLM, Ollama, OpenRouter). */
  readonly reasoning?: string;
  readonly toolCalls: readonly OpenAiToolCallFragment[];
  /** Delta fields with a non-null value the adapter does not map (`audio`, `reasoning_details`...). */
  readonly unknownFields: readonly string[];
}

/**
 * One typed part of an array `content`: text, reasoning (Mistral's `thinking` part, whose `thinking` is itself
 * an array of text parts, or a string), or a type the adapter does not map (`reference`, `image_url`...).
 * https://docs.mistral.ai/capabilities/reasoning (ThinkChunk, TextChunk)
 */
export type OpenAiChatContentPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'reasoning'; readonly text: string }
  | { readonly kind: 'unknown'; readonly type: string };

/**
 * One entry of `delta.tool_calls`. `id`, `type` and `function.name` come only with the first fragment of an
 * `index`; later fragments carry `index` and `function.arguments`. The first may lack `arguments`.
 */
export interface OpenAiToolCallFragment {
  readonly index: number;
  readonly id?: string;
  /** `function`; anything else (`custom` tools) is skipped with all its fragments. */
  readonly type?: string;
  readonly name?: string;
  readonly arguments?: string;
  /**
   * `extra_content`, opaque data the client must send back on the call: Gemini's OpenAI-compatible endpoint puts
   * the thought signature there (`{"google": {"thought_signature": …}}`, Vertex AI `{"vertex": …}`).
   */
  readonly extraContent?: JsonObject;
}

/** Delta fields the adapter reads; `role` is known and carries nothing (always `assistant`). */
export const KNOWN_DELTA_FIELDS: ReadonlySet<string> = new Set([
  'role',
  'content',
  'refusal',
  'reasoning_content',
  'reasoning',
  'tool_calls',
  'function_call',
]);

/**
 * The slot of the deprecated `delta.function_call` ({name, arguments}: one call per message, no id; still
 * streamed by older deployments and some compatible servers): a tool call of its own, apart from the
 * `tool_calls` indexes.
 */
export const LEGACY_FUNCTION_CALL_INDEX = -1;

/**
 * The call id given to a deprecated `function_call`, which has none (its result goes back by name): a fixed,
 * deterministic one, as for Gemini's calls; a message holds at most one such call.
 */
export const LEGACY_FUNCTION_CALL_ID = 'function_call';
