import type { StopReason } from '@llm-stream/contract';

/** Which kinds of block choice 0 produced (a tool call of a type the contract has a block for). */
export interface ChatAnswerSeen {
  readonly text: boolean;
  readonly refusal: boolean;
  readonly tool: boolean;
}

/**
 * `choices[].finish_reason` as a contract stop reason
 * (https://platform.openai.com/docs/api-reference/chat/object#chat/object-choices): `stop` is `end_turn`,
 * `refusal` when the only output was a refusal, and `tool_use` when the answer holds a tool call (Gemini 3 on
 * its OpenAI-compatible endpoint and older Ollama say `stop` after tool calls; the answer waits for their
 * results all the same, as Gemini's native `STOP` with a functionCall does); `tool_calls` and the deprecated
 * `function_call` (the finish reason of a `delta.function_call`, read as a tool call) are `tool_use`, `length`
 * is `max_tokens`, `content_filter` maps to itself. Anything a compatible server invents becomes `other` (the
 * raw value is kept beside it). OpenRouter's `error` never gets here: it fails the stream.
 */
export function mapOpenAiChatFinishReason(reason: string, seen: ChatAnswerSeen): StopReason {
  switch (reason) {
    case 'stop':
      if (seen.tool) return 'tool_use';
      return seen.refusal && !seen.text ? 'refusal' : 'end_turn';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'length':
      return 'max_tokens';
    case 'content_filter':
      return 'content_filter';
    default:
      return 'other';
  }
}
