import { fixedFrame, type Frame } from '../frame.js';
import type { SyntheticSpec } from '../scenario.js';
import { estimateTokens, eventRecord, randomAlphanumeric, stampedText } from './synthetic-text.js';

const MODEL = 'claude-sonnet-4-5-20250929';
const INPUT_TOKENS = 14;

/**
 * A completed Messages stream in the shape of the recorded transcripts
 * (https://docs.anthropic.com/en/docs/build-with-claude/streaming): `message_start` (placeholder
 * `output_tokens: 1`), one text block with a `ping` after its start as Anthropic sends it, one
 * `text_delta` per delta, `content_block_stop`, `message_delta` with `end_turn` and the cumulative usage,
 * and `message_stop`.
 */
export function* anthropicSynthetic(spec: SyntheticSpec): Generator<Frame> {
  const cacheFields = { cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  yield fixedFrame(
    eventRecord('message_start', {
      type: 'message_start',
      message: {
        model: MODEL,
        id: `msg_01${randomAlphanumeric(22)}`,
        type: 'message',
        role: 'assistant',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: INPUT_TOKENS,
          ...cacheFields,
          cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
          output_tokens: 1,
          service_tier: 'standard',
          inference_geo: 'not_available',
        },
      },
    }),
  );
  yield fixedFrame(
    eventRecord('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
  );
  yield fixedFrame(Buffer.from('event: ping\ndata: {"type": "ping"}\n\n'));
  let outputTokens = 0;
  for (let index = 0; index < spec.frames; index += 1) {
    yield {
      delayMs: index === 0 ? 0 : spec.frameIntervalMs,
      render: () => {
        const text = stampedText(spec.textBytes);
        outputTokens += estimateTokens(text);
        return eventRecord('content_block_delta', {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'text_delta', text },
        });
      },
    };
  }
  yield fixedFrame(eventRecord('content_block_stop', { type: 'content_block_stop', index: 0 }));
  yield {
    delayMs: 0,
    render: () =>
      eventRecord('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { input_tokens: INPUT_TOKENS, ...cacheFields, output_tokens: outputTokens },
      }),
  };
  yield fixedFrame(eventRecord('message_stop', { type: 'message_stop' }));
}
