import { assertNever, type ProviderName } from '@llm-stream/contract';
import type { ProviderAdapter } from './adapter.js';
import { AnthropicAdapter } from './anthropic/anthropic-adapter.js';
import { GeminiAdapter } from './gemini/gemini-adapter.js';
import { GeminiInteractionsAdapter } from './gemini-interactions/gemini-interactions-adapter.js';
import { OpenAiChatAdapter } from './openai-chat/openai-chat-adapter.js';
import { OpenAiResponsesAdapter } from './openai-responses/openai-responses-adapter.js';

/** A fresh adapter for one upstream attempt of the given provider protocol. */
export function createProviderAdapter(provider: ProviderName): ProviderAdapter {
  switch (provider) {
    case 'anthropic':
      return new AnthropicAdapter();
    case 'openai-chat':
      return new OpenAiChatAdapter();
    case 'openai-responses':
      return new OpenAiResponsesAdapter();
    case 'gemini':
      return new GeminiAdapter();
    case 'gemini-interactions':
      return new GeminiInteractionsAdapter();
    default:
      return assertNever(provider, 'provider');
  }
}
