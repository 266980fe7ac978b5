import { fixedFrame, type Frame } from '../frame.js';
import type { SyntheticSpec } from '../scenario.js';
import { dataRecord, estimateTokens, obfuscation, randomAlphanumeric, stampedText } from './synthetic-text.js';

const MODEL = 'gpt-4.1-2025-04-14';
const PROMPT_TOKENS = 12;

/**
 * A completed Chat Completions stream in the shape of the recorded transcripts
 * (https://platform.openai.com/docs/api-reference/chat-streaming): a role chunk, one content chunk per
 * delta, the `finish_reason: "stop"` chunk with an empty delta, then, only when the request asked for
 * `stream_options.include_usage`, `"usage": null` on every chunk and a last `choices: []` usage chunk;
 * finally `data: [DONE]`.
 */
export function* openAiChatSynthetic(spec: SyntheticSpec, includeUsage: boolean): Generator<Frame> {
  const head = {
    id: `chatcmpl-${randomAlphanumeric(29)}`,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: MODEL,
    service_tier: 'default',
    system_fingerprint: 'fp_c2ef943632',
  };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null): Buffer =>
    dataRecord({
      ...head,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...(includeUsage ? { usage: null } : {}),
      obfuscation: obfuscation(),
    });

  yield fixedFrame(chunk({ role: 'assistant', content: '', refusal: null }, null));
  let completionTokens = 0;
  for (let index = 0; index < spec.frames; index += 1) {
    yield {
      delayMs: index === 0 ? 0 : spec.frameIntervalMs,
      render: () => {
        const text = stampedText(spec.textBytes);
        completionTokens += estimateTokens(text);
        return chunk({ content: text }, null);
      },
    };
  }
  yield fixedFrame(chunk({}, 'stop'));
  if (includeUsage) {
    yield {
      delayMs: 0,
      render: () =>
        dataRecord({
          ...head,
          choices: [],
          usage: {
            prompt_tokens: PROMPT_TOKENS,
            completion_tokens: completionTokens,
            total_tokens: PROMPT_TOKENS + completionTokens,
            prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
            completion_tokens_details: {
              reasoning_tokens: 0,
              audio_tokens: 0,
              accepted_prediction_tokens: 0,
              rejected_prediction_tokens: 0,
            },
          },
          obfuscation: obfuscation(),
        }),
    };
  }
  yield fixedFrame(Buffer.from('data: [DONE]\n\n'));
}
