import type { StopReason } from '@llm-stream/contract';

/**
 * `choices[].finish_reason` as a contract stop reason
 * (https://platform.openai.com/docs/api-reference/chat/object#chat/object-choices): `stop` is `end_turn`,
 * or `refusal` when the only output was a refusal (OpenAI still says `stop` after `delta.refusal`);
 * `tool_calls` and the deprecated `function_call` (the finish reason of a `delta.function_call`, read as a tool
 * call) are `tool_use`, `length` is `max_tokens`, `content_filter` maps to itself. Anything a compatible server
 * invents becomes `other` (the raw value is kept beside it).
 * OpenRouter's `error` never gets here: it fails the stream.
 */
export function mapOpenAiChatFinishReason(reason: string, onlyRefusal: boolean): StopReason {
  switch (reason) {
    case 'stop':
      return onlyRefusal ? 'refusal' : 'end_turn';
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
