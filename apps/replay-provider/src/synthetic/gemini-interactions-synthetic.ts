import type { Frame } from '../frame.js';
import type { SyntheticSpec } from '../scenario.js';
import { estimateTokens, eventRecord, randomAlphanumeric, stampedText } from './synthetic-text.js';

const MODEL = 'gemini-3-flash-preview';
const INPUT_TOKENS = 12;

/**
 * A completed Interactions API stream in the shape of the recorded transcripts
 * (https://ai.google.dev/api/interactions-api#streaming): `interaction.created`, one `model_output` step
 * (`step.start`, one `step.delta` of type `text` per delta, `step.stop`), `interaction.completed` with the
 * status and the usage, then `data: [DONE]`. Every event names itself in `event:` and `event_type` and
 * carries an `event_id`.
 */
export function* geminiInteractionsSynthetic(spec: SyntheticSpec): Generator<Frame> {
  const interactionId = `v1_${randomAlphanumeric(32)}`;
  let eventNumber = 0;
  let outputTokens = 0;
  // The event id is taken at render time: frames render strictly in order.
  const event = (type: string, payload: () => Record<string, unknown>, delayMs = 0): Frame => ({
    delayMs,
    render: () => eventRecord(type, { event_type: type, ...payload(), event_id: `${interactionId}:${String(++eventNumber)}` }),
  });
  const interaction = (status: string): Record<string, unknown> => ({ id: interactionId, status, model: MODEL, object: 'interaction' });

  yield event('interaction.created', () => ({ interaction: interaction('in_progress') }));
  yield event('step.start', () => ({ index: 0, step: { type: 'model_output' } }));
  for (let index = 0; index < spec.frames; index += 1) {
    yield event(
      'step.delta',
      () => {
        const text = stampedText(spec.textBytes);
        outputTokens += estimateTokens(text);
        return { index: 0, delta: { type: 'text', text } };
      },
      index === 0 ? 0 : spec.frameIntervalMs,
    );
  }
  yield event('step.stop', () => ({ index: 0 }));
  yield event('interaction.completed', () => ({
    interaction: {
      ...interaction('completed'),
      usage: {
        total_input_tokens: INPUT_TOKENS,
        total_output_tokens: outputTokens,
        total_tokens: INPUT_TOKENS + outputTokens,
      },
    },
  }));
  yield { delayMs: 0, render: () => Buffer.from('event: done\ndata: [DONE]\n\n') };
}
