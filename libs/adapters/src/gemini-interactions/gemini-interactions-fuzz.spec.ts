import fc from 'fast-check';
import type { ContractEvent } from '@llm-stream/contract';
import { loadTranscripts } from '../../test/conformance-harness.js';
import { fuzzTranscripts } from '../../test/transcript-fuzzing.js';
import { runTranscript } from '../session/run-transcript.js';
import { GeminiInteractionsAdapter } from './gemini-interactions-adapter.js';

/**
 * Fuzzing the Interactions adapter through the whole pipeline (decoder, adapter, session, state machine): for
 * any bytes, normalization never throws, ends with exactly one terminal event, and keeps every invariant.
 */
function normalize(body: Buffer | string | readonly (Buffer | string)[]): ContractEvent[] {
  return runTranscript('gemini-interactions', body, {
    createAdapter: () => new GeminiInteractionsAdapter(),
    streamId: 'st_fuzz',
    clock: () => 0,
  }).events;
}

// --- records built from the protocol's vocabulary, with wrong types mixed in ---------------------------

const junk = fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.string({ maxLength: 8 }), fc.constant([]), fc.constant({}));

const index = fc.oneof({ weight: 8, arbitrary: fc.nat(3) }, { weight: 1, arbitrary: fc.constantFrom(-1, 1.5) }, { weight: 1, arbitrary: junk });

const ARGUMENT_TEXTS = ['{"city":"Kraków"}', '{"q":"a\\"b\\\\c\\u00e9"}', '{}', '', '{"n":[1,2,{"x":null}]}'];
const argumentFragment = fc.oneof(
  fc
    .constantFrom(...ARGUMENT_TEXTS)
    .chain((text) => fc.tuple(fc.nat(text.length), fc.nat(text.length)).map(([a, b]) => text.slice(Math.min(a, b), Math.max(a, b)))),
  fc.string({ maxLength: 12 }),
);

const step = fc.oneof(
  fc.record({ type: fc.constant('model_output'), content: fc.oneof(fc.constant([{ type: 'text', text: 'whole' }]), junk) }, { requiredKeys: ['type'] }),
  fc.record(
    { type: fc.constant('thought'), signature: fc.oneof(fc.base64String({ maxLength: 12 }), junk), summary: fc.array(fc.oneof(fc.constant({ type: 'text', text: 'plan' }), junk), { maxLength: 3 }) },
    { requiredKeys: ['type'] },
  ),
  fc.record(
    {
      type: fc.constant('function_call'),
      id: fc.oneof(fc.constant('fc_1'), junk),
      name: fc.oneof(fc.constant('get_weather'), junk),
      arguments: fc.oneof(fc.constant({}), fc.constant({ city: 'Łódź' }), junk),
      signature: fc.base64String({ maxLength: 8 }),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record({ type: fc.constantFrom('google_search_call', 'code_execution_result', 'mcp_server_tool_call', 'user_input', '') }),
  junk,
);

const delta = fc.oneof(
  fc.record({ type: fc.constant('text'), text: fc.oneof(fc.string({ maxLength: 8 }), junk) }),
  fc.record({ type: fc.constant('arguments_delta'), arguments: fc.oneof({ weight: 4, arbitrary: argumentFragment }, { weight: 1, arbitrary: junk }) }),
  fc.record({ type: fc.constant('thought_summary'), content: fc.oneof(fc.record({ type: fc.constant('text'), text: fc.string({ maxLength: 8 }) }), junk) }),
  fc.record({ type: fc.constant('thought_signature'), signature: fc.oneof(fc.base64String({ maxLength: 12 }), junk) }),
  fc.record({ type: fc.constant('function_call'), arguments: fc.oneof(fc.constant({ city: 'Gdańsk' }), junk) }),
  fc.record({ type: fc.constantFrom('text_annotation_delta', 'image', 'sparkle', '') }),
  junk,
);

const STATUSES = ['completed', 'requires_action', 'incomplete', 'budget_exceeded', 'failed', 'cancelled', 'in_progress', 'queued', 'paused'];
const usage = fc.dictionary(
  fc.constantFrom('total_input_tokens', 'total_output_tokens', 'total_thought_tokens', 'total_cached_tokens'),
  fc.oneof(fc.nat(5000), junk),
);
const interaction = fc.record(
  { id: fc.constant('v1_fuzz'), status: fc.oneof(fc.constantFrom(...STATUSES), junk), usage, error: fc.record({ code: fc.constantFrom('internal', 'overloaded', 503) }) },
  { requiredKeys: ['status'] },
);

const payload: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  { weight: 1, arbitrary: fc.record({ event_type: fc.constantFrom('interaction.created', 'interaction.start'), interaction }) },
  { weight: 4, arbitrary: fc.record({ event_type: fc.constant('step.start'), index, step }) },
  { weight: 2, arbitrary: fc.record({ event_type: fc.constant('content.start'), index, content: step }) },
  { weight: 8, arbitrary: fc.record({ event_type: fc.constantFrom('step.delta', 'content.delta'), index, delta }) },
  { weight: 4, arbitrary: fc.record({ event_type: fc.constantFrom('step.stop', 'content.stop'), index, usage }) },
  { weight: 2, arbitrary: fc.record({ event_type: fc.constant('interaction.status_update'), status: fc.oneof(fc.constantFrom(...STATUSES), junk) }) },
  { weight: 2, arbitrary: fc.record({ event_type: fc.constantFrom('interaction.completed', 'interaction.complete'), interaction: fc.oneof(interaction, junk) }) },
  { weight: 1, arbitrary: fc.record({ event_type: fc.constant('error'), error: fc.oneof(fc.record({ code: fc.constantFrom('rate_limit_exceeded', 'internal', 429, 'x'), message: fc.string({ maxLength: 8 }) }), junk) }) },
  { weight: 1, arbitrary: fc.record({ event_type: fc.constantFrom('step.progress', 'interaction.paused', ''), index }) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('event_type', 'index', 'delta', 'step'), junk) },
);

/** One SSE record: usually `event:` + the JSON with an event_id, sometimes without a name, cut JSON, [DONE] or a comment. */
const record = fc.oneof(
  { weight: 12, arbitrary: payload.map((data) => `event: ${String(data['event_type'])}\ndata: ${JSON.stringify({ ...data, event_id: 'e' })}\n\n`) },
  { weight: 2, arbitrary: payload.map((data) => `data: ${JSON.stringify(data)}\n\n`) },
  {
    weight: 1,
    arbitrary: fc.tuple(payload, fc.nat()).map(([data, cut]) => {
      const json = JSON.stringify(data);
      return `data: ${json.slice(0, cut % (json.length + 1))}\n\n`;
    }),
  },
  { weight: 1, arbitrary: fc.constantFrom(': keep-alive\n\n', ':\n\n', '\n', 'event: done\ndata: [DONE]\n\n', 'data: [DONE]\n\n', 'id: 7\n\n') },
);

const PROLOGUE = 'event: interaction.created\ndata: {"event_type":"interaction.created","interaction":{"id":"v1_fuzz","status":"in_progress"}}\n\n';

describe('Gemini Interactions adapter fuzzing', () => {
  fuzzTranscripts({
    normalize,
    transcripts: loadTranscripts('gemini-interactions'),
    record,
    prologue: PROLOGUE,
    numRuns: { random: 3000, shuffled: 2000, damaged: 2000, junk: 1000 },
  });
});
