import type { ProviderName } from '@llm-stream/contract';

/** The request body each provider protocol needs; the model name selects the transcript the replay provider serves. */
export function providerRequestBody(provider: ProviderName, model: string): Record<string, unknown> {
  switch (provider) {
    case 'openai-chat':
      return { model, messages: [{ role: 'user', content: 'Hi' }] };
    case 'openai-responses':
    case 'gemini-interactions':
      return { model, input: 'Hi' };
    case 'anthropic':
      return { model, max_tokens: 256, messages: [{ role: 'user', content: 'Hi' }] };
    case 'gemini':
      return { model, contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] };
  }
}
