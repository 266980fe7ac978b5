import { assertNever, type ProviderName } from '@llm-stream/contract';
import type { Frame } from '../frame.js';
import type { SyntheticSpec } from '../scenario.js';
import { anthropicSynthetic } from './anthropic-synthetic.js';
import { geminiInteractionsSynthetic } from './gemini-interactions-synthetic.js';
import { geminiSynthetic } from './gemini-synthetic.js';
import { openAiChatSynthetic } from './openai-chat-synthetic.js';
import { openAiResponsesSynthetic } from './openai-responses-synthetic.js';

/** The generated stream of the endpoint's provider. `requestBody` decides what the provider would vary on. */
export function syntheticFrames(provider: ProviderName, spec: SyntheticSpec, requestBody: unknown): Iterable<Frame> {
  switch (provider) {
    case 'openai-chat':
      return openAiChatSynthetic(spec, wantsUsage(requestBody));
    case 'openai-responses':
      return openAiResponsesSynthetic(spec);
    case 'anthropic':
      return anthropicSynthetic(spec);
    case 'gemini':
      return geminiSynthetic(spec);
    case 'gemini-interactions':
      return geminiInteractionsSynthetic(spec);
    default:
      return assertNever(provider, 'provider');
  }
}

/** OpenAI sends the usage chunk only for `stream_options: {include_usage: true}`. */
function wantsUsage(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || !('stream_options' in body)) return false;
  const options = body.stream_options;
  return typeof options === 'object' && options !== null && 'include_usage' in options && options.include_usage === true;
}
