import fc from 'fast-check';
import type { ContractEvent } from '@llm-stream/contract';
import { loadTranscripts } from '../../test/conformance-harness.js';
import { expectWellFormed, fuzzTranscripts } from '../../test/transcript-fuzzing.js';
import { runTranscript } from '../session/run-transcript.js';
import { AnthropicAdapter } from './anthropic-adapter.js';

/**
 * Fuzzing the Anthropic adapter through the whole pipeline (decoder, adapter, session, state machine): for
 * any bytes, normalization never throws, ends with exactly one terminal event, and keeps every invariant.
 * About 10,000 runs in all; the seeds are fast-check's (a failure prints its seed and shrunk input).
 */
function normalize(body: Buffer | string | readonly (Buffer | string)[], maxFrameBytes?: number): ContractEvent[] {
  return runTranscript('anthropic', body, {
    createAdapter: () => new AnthropicAdapter(),
    streamId: 'st_fuzz',
    clock: () => 0,
    ...(maxFrameBytes !== undefined && { maxFrameBytes }),
  }).events;
}

// --- records built from the protocol's vocabulary, with wrong types mixed in ---------------------------

/** A value of the wrong JSON type for any field. */
const junk = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 8 }),
  fc.constant([]),
  fc.constant({}),
);

const index = fc.oneof(
  { weight: 8, arbitrary: fc.nat(3) },
  { weight: 1, arbitrary: fc.constantFrom(-1, 1.5, 1e21) },
  { weight: 1, arbitrary: junk },
);

/** Tool argument fragments: pieces of valid arguments (so calls sometimes complete) or arbitrary text. */
const ARGUMENT_TEXTS = ['{"city": "Kraków"}', '{"q": "a\\"b\\\\c\\u00e9\\ud83d\\ude00"}', '{}', '', '{"n": [1, 2, {"x": null}]}'];
const argumentFragment = fc.oneof(
  fc
    .constantFrom(...ARGUMENT_TEXTS)
    .chain((text) => fc.tuple(fc.nat(text.length), fc.nat(text.length)).map(([a, b]) => text.slice(Math.min(a, b), Math.max(a, b)))),
  fc.string({ maxLength: 12 }),
);

const contentBlock = fc.oneof(
  fc.record({ type: fc.constant('text'), text: fc.oneof(fc.constant(''), fc.string({ maxLength: 6 }), junk) }),
  fc.record({
    type: fc.constant('tool_use'),
    id: fc.oneof(fc.constant('toolu_01X'), junk),
    name: fc.oneof(fc.constant('get_weather'), junk),
    input: fc.constant({}),
  }),
  fc.record({
    type: fc.constant('thinking'),
    thinking: fc.oneof(fc.constant(''), junk),
    signature: fc.oneof(fc.constant(''), fc.base64String({ maxLength: 12 })),
  }),
  fc.record({ type: fc.constant('redacted_thinking'), data: fc.oneof(fc.base64String({ maxLength: 16 }), junk) }),
  fc.record({ type: fc.constantFrom('server_tool_use', 'web_search_tool_result', 'container_upload'), id: fc.constant('srvtoolu_01X') }),
  fc.record({ type: junk }),
  junk,
);

const blockDelta = fc.oneof(
  fc.record({ type: fc.constant('text_delta'), text: fc.oneof(fc.string({ maxLength: 8 }), junk) }),
  fc.record({
    type: fc.constant('input_json_delta'),
    partial_json: fc.oneof({ weight: 4, arbitrary: argumentFragment }, { weight: 1, arbitrary: junk }),
  }),
  fc.record({ type: fc.constant('thinking_delta'), thinking: fc.oneof(fc.string({ maxLength: 8 }), junk) }),
  fc.record({ type: fc.constant('signature_delta'), signature: fc.oneof(fc.base64String({ maxLength: 12 }), junk) }),
  fc.record({ type: fc.constant('citations_delta'), citation: fc.constant({ type: 'char_location', cited_text: 'x' }) }),
  fc.record({ type: fc.constantFrom('text_sparkle_delta', '') }),
  junk,
);

const usage = fc.dictionary(
  fc.constantFrom('input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'),
  fc.oneof(fc.nat(5000), junk),
);

const STOP_REASONS = [
  'end_turn',
  'tool_use',
  'max_tokens',
  'stop_sequence',
  'refusal',
  'pause_turn',
  'model_context_window_exceeded',
  null,
];
const ERROR_TYPES = ['overloaded_error', 'api_error', 'rate_limit_error', 'invalid_request_error', 'authentication_error', 'quantum_error'];

const payload: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('message_start'),
      message: fc.record({ id: fc.constant('msg_01X'), model: fc.constant('claude-x'), usage }),
    }),
  },
  { weight: 4, arbitrary: fc.record({ type: fc.constant('content_block_start'), index, content_block: contentBlock }) },
  { weight: 8, arbitrary: fc.record({ type: fc.constant('content_block_delta'), index, delta: blockDelta }) },
  { weight: 4, arbitrary: fc.record({ type: fc.constant('content_block_stop'), index }) },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('message_delta'),
      delta: fc.record({ stop_reason: fc.constantFrom(...STOP_REASONS) }),
      usage,
    }),
  },
  { weight: 2, arbitrary: fc.constant({ type: 'message_stop' }) },
  { weight: 2, arbitrary: fc.constant({ type: 'ping' }) },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('error'),
      error: fc.oneof(fc.record({ type: fc.constantFrom(...ERROR_TYPES), message: fc.string({ maxLength: 8 }) }), junk),
    }),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constantFrom('content_block_flash', 'message_annotation', ''), index }) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('type', 'index', 'delta', 'message'), junk) },
);

/** One SSE record: usually `event: <type>` + the JSON, sometimes a mismatched or missing name, cut JSON or a comment. */
const record = fc.oneof(
  { weight: 12, arbitrary: payload.map((data) => `event: ${String(data['type'])}\ndata: ${JSON.stringify(data)}\n\n`) },
  { weight: 2, arbitrary: payload.map((data) => `data: ${JSON.stringify(data)}\n\n`) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('message_stop', 'ping', 'error', 'x'), payload)
      .map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(payload, fc.nat()).map(([data, cut]) => {
      const json = JSON.stringify(data);
      return `data: ${json.slice(0, cut % (json.length + 1))}\n\n`;
    }),
  },
  { weight: 1, arbitrary: fc.constantFrom(': keep-alive\n\n', ':\n\n', '\n', 'retry: 10\n\n', 'id: 7\n\n', 'event: ping\n\n') },
);

/** A plausible start, so that random records often reach blocks and terminal events. */
const PROLOGUE =
  'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_01X","model":"claude-x","usage":{"input_tokens":3,"output_tokens":1}}}\n\n';

describe('Anthropic adapter fuzzing', () => {
  fuzzTranscripts({
    normalize,
    transcripts: loadTranscripts('anthropic'),
    record,
    prologue: PROLOGUE,
    numRuns: { random: 3000, shuffled: 3000, damaged: 2500, junk: 1500 },
  });

  it('handles huge lines: a huge valid delta, and lines over the frame limit with or without an end', () => {
    fc.assert(
      fc.property(fc.integer({ min: 20_000, max: 120_000 }), fc.boolean(), (size, terminated) => {
        const text = 'x'.repeat(size);
        const start = `${PROLOGUE}event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n`;
        const huge = `event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"${text}"}}${terminated ? '\n\n' : ''}`;
        expectWellFormed(normalize(start + huge));
        const limited = normalize(start + huge, 16_384);
        expectWellFormed(limited);
        expect(limited.at(-1)).toMatchObject({ type: 'stream.error', error: { category: 'protocol_error' } });
      }),
      { numRuns: 40 },
    );
  });
});
