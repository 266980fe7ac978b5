import type { Frame } from '../frame.js';
import type { SyntheticSpec } from '../scenario.js';
import { estimateTokens, eventRecord, obfuscation, randomHex, stampedText } from './synthetic-text.js';

const MODEL = 'gpt-4.1-2025-04-14';
const INPUT_TOKENS = 24;

/**
 * A completed Responses stream in the shape of the recorded transcripts
 * (https://platform.openai.com/docs/api-reference/responses-streaming): `response.created`,
 * `response.in_progress`, one message item with one `output_text` part and one `output_text.delta` per
 * delta, the `*.done` events repeating the whole text, then `response.completed` with the usage.
 * `sequence_number` starts at 0 and grows by one per event.
 */
export function* openAiResponsesSynthetic(spec: SyntheticSpec): Generator<Frame> {
  const responseId = `resp_${randomHex(50)}`;
  const itemId = `msg_${randomHex(50)}`;
  const createdAt = Math.floor(Date.now() / 1000);
  const texts: string[] = [];
  let sequence = 0;
  // The sequence number is taken at render time: frames render strictly in order.
  const event = (type: string, payload: Record<string, unknown>): Buffer =>
    eventRecord(type, { type, ...payload, sequence_number: sequence++ });
  const now = (payload: () => Record<string, unknown>, type: string, delayMs = 0): Frame => ({
    delayMs,
    render: () => event(type, payload()),
  });
  const part = (text: string): Record<string, unknown> => ({ type: 'output_text', annotations: [], logprobs: [], text });
  const where = { item_id: itemId, output_index: 0, content_index: 0 };
  const inProgress = (): Record<string, unknown> => ({ response: responseObject(responseId, createdAt) });

  yield now(inProgress, 'response.created');
  yield now(inProgress, 'response.in_progress');
  yield now(
    () => ({ item: { id: itemId, type: 'message', status: 'in_progress', content: [], role: 'assistant' }, output_index: 0 }),
    'response.output_item.added',
  );
  yield now(() => ({ ...where, part: part('') }), 'response.content_part.added');
  for (let index = 0; index < spec.frames; index += 1) {
    const delta = (): Record<string, unknown> => {
      const text = stampedText(spec.textBytes);
      texts.push(text);
      return { ...where, delta: text, logprobs: [], obfuscation: obfuscation() };
    };
    yield now(delta, 'response.output_text.delta', index === 0 ? 0 : spec.frameIntervalMs);
  }
  const message = (): Record<string, unknown> => ({
    id: itemId,
    type: 'message',
    status: 'completed',
    content: [part(texts.join(''))],
    role: 'assistant',
  });
  yield now(() => ({ ...where, text: texts.join(''), logprobs: [] }), 'response.output_text.done');
  yield now(() => ({ ...where, part: part(texts.join('')) }), 'response.content_part.done');
  yield now(() => ({ item: message(), output_index: 0 }), 'response.output_item.done');
  yield now(() => {
    const outputTokens = texts.reduce((sum, text) => sum + estimateTokens(text), 0);
    const completed = {
      status: 'completed',
      completed_at: Math.floor(Date.now() / 1000),
      output: [message()],
      service_tier: 'default',
      usage: {
        input_tokens: INPUT_TOKENS,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: outputTokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: INPUT_TOKENS + outputTokens,
      },
    };
    return { response: responseObject(responseId, createdAt, completed) };
  }, 'response.completed');
}

/** The response object with the field order OpenAI writes; `overrides` replace fields in place. */
function responseObject(id: string, createdAt: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const base: Record<string, unknown> = {
    id,
    object: 'response',
    created_at: createdAt,
    status: 'in_progress',
    background: false,
    completed_at: null,
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    max_tool_calls: null,
    model: MODEL,
    output: [],
    parallel_tool_calls: true,
    previous_response_id: null,
    prompt_cache_key: null,
    prompt_cache_retention: null,
    reasoning: { effort: null, summary: null },
    safety_identifier: null,
    service_tier: 'auto',
    store: true,
    temperature: 1,
    text: { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: 'auto',
    tools: [],
    top_logprobs: 0,
    top_p: 1,
    truncation: 'disabled',
    usage: null,
    user: null,
    metadata: {},
  };
  // Spreading keeps the keys' original positions: overrides only change values.
  return { ...base, ...overrides };
}
