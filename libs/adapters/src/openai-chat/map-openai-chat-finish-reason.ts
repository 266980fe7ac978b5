import type { StopReason } from '@llm-stream/contract';

/**
 * `choices[].finish_reason` as a contract stop reason
 * (https://platform.openai.com/docs/api-reference/chat/object#chat/object-choices): `stop` is `end_turn`,
 * or `refusal` when the only output was a refusal (OpenAI still says `stop` after `delta.refusal`);
 * `tool_calls` is `tool_use`, `length` is `max_tokens`, `content_filter` maps to itself. The deprecated
 * `function_call` and anything a compatible server invents become `other` (the raw value is kept beside it).
 * OpenRouter's `error` never gets here: it fails the stream.
 */
export function mapOpenAiChatFinishReason(reason: string, onlyRefusal: boolean): StopReason {
  switch (reason) {
    case 'stop':
      return onlyRefusal ? 'refusal' : 'end_turn';
    case 'tool_calls':
      return 'tool_use';
    case 'length':
      return 'max_tokens';
    case 'content_filter':
      return 'content_filter';
    default:
      return 'other';
  }
}
