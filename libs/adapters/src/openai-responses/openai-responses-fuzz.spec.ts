import fc from 'fast-check';
import { checkInvariants, isTerminalEvent, type ContractEvent } from '@llm-stream/contract';
import { loadTranscripts, recordTexts } from '../../test/conformance-harness.js';
import { runTranscript } from '../session/run-transcript.js';
import { OpenAiResponsesAdapter } from './openai-responses-adapter.js';
import { OPENAI_RESPONSES_EVENT_TYPES } from './openai-responses-chunk.js';

/**
 * Random and mutated input through the whole pipeline (decoder, session, adapter, machine): whatever the
 * bytes, nothing throws, the stream ends with exactly one terminal event and the invariant checker finds
 * nothing. 10,600 runs in all.
 */
const transcripts = loadTranscripts('openai-responses').map((transcript) => recordTexts(transcript.body).texts);

function normalize(body: string | Uint8Array | Iterable<string | Uint8Array>, maxFrameBytes?: number): ContractEvent[] {
  return runTranscript('openai-responses', body, {
    createAdapter: () => new OpenAiResponsesAdapter(),
    clock: () => 0,
    ...(maxFrameBytes !== undefined && { maxFrameBytes }),
  }).events;
}

function expectWellFormed(events: readonly ContractEvent[]): void {
  const terminals = events.filter(isTerminalEvent);
  expect(terminals).toHaveLength(1);
  expect(events.at(-1)).toBe(terminals[0]);
  expect(checkInvariants(events)).toEqual([]);
}

/** The data payload of one record, or undefined for comments and partial records. */
function payloadOf(text: string): Record<string, unknown> | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith('data: '));
  if (line === undefined || !text.endsWith('\n\n')) return undefined;
  return JSON.parse(line.slice('data: '.length)) as Record<string, unknown>;
}

function recordOf(payload: Record<string, unknown>): string {
  return `event: ${String(payload['type'])}\ndata: ${JSON.stringify(payload)}\n\n`;
}

const transcript = fc.constantFrom(...transcripts);

/** Values of the wrong type (or the right type with odd content) for any field. */
const oddValue = fc.oneof(
  fc.constantFrom(null, true, 0, -1, 1.5, '', 'x', [], {}, { type: 'summary_text' }, 'function_call', 'reasoning', 'message'),
  fc.string({ maxLength: 8 }),
  fc.integer({ min: -2, max: 3 }),
);

describe('OpenAI Responses adapter fuzz', () => {
  it('survives transcripts with records shuffled, duplicated and dropped', () => {
    const edit = fc.tuple(fc.constantFrom('drop', 'duplicate', 'swap', 'move'), fc.nat(), fc.nat());
    fc.assert(
      fc.property(transcript, fc.array(edit, { minLength: 1, maxLength: 6 }), (texts, edits) => {
        const records = [...texts];
        for (const [kind, a, b] of edits) {
          if (records.length === 0) break;
          const i = a % records.length;
          const j = b % records.length;
          const [picked] = records.splice(i, kind === 'duplicate' ? 0 : 1);
          if (kind === 'duplicate') records.splice(j, 0, records[i] ?? '');
          if (kind === 'swap' && picked !== undefined) records.splice(j, 0, picked);
          if (kind === 'move' && picked !== undefined) records.push(picked);
        }
        expectWellFormed(normalize(records.join('')));
      }),
      { numRuns: 3000 },
    );
  });

  it('survives known fields of the wrong type', () => {
    fc.assert(
      fc.property(transcript, fc.nat(), fc.array(fc.tuple(fc.nat(), oddValue), { minLength: 1, maxLength: 3 }), (texts, at, changes) => {
        const records = [...texts];
        const index = at % records.length;
        const payload = payloadOf(records[index] ?? '');
        if (payload !== undefined) {
          for (const [which, value] of changes) {
            // Replace a top-level field, or one of the object the event carries (item, part, response, error).
            const nested = ['item', 'part', 'response', 'error'].map((key) => payload[key]).find((field) => typeof field === 'object' && field !== null);
            const target = which % 2 === 0 || nested === undefined ? payload : (nested as Record<string, unknown>);
            const keys = Object.keys(target);
            const key = keys[which % Math.max(1, keys.length)];
            // A copy: fast-check hands the same constant object to every run, and nesting it into itself would
            // leave a cycle behind for the runs after this one.
            if (key !== undefined) target[key] = structuredClone(value);
          }
          records[index] = recordOf(payload);
        }
        expectWellFormed(normalize(records.join('')));
      }),
      { numRuns: 3000 },
    );
  });

  it('survives bodies cut anywhere, including inside the JSON of a data line', () => {
    fc.assert(
      fc.property(transcript, fc.nat(), fc.boolean(), (texts, at, closeRecord) => {
        const full = texts.join('');
        const cut = full.slice(0, at % (full.length + 1));
        // Closing the record makes the decoder hand the truncated JSON to the adapter instead of dropping it.
        expectWellFormed(normalize(closeRecord ? `${cut}\n\n` : cut));
      }),
      { numRuns: 1500 },
    );
  });

  it('survives random events in random order over a few item ids', () => {
    const id = fc.constantFrom('msg_a', 'msg_b', 'fc_a', 'rs_a', 'ws_a');
    const itemType = fc.constantFrom('message', 'function_call', 'reasoning', 'web_search_call');
    const partType = fc.constantFrom('output_text', 'refusal', 'summary_text', 'reasoning_text', 'output_audio');
    const event = fc.record(
      {
        type: fc.oneof(fc.constantFrom(...OPENAI_RESPONSES_EVENT_TYPES), fc.constantFrom('response.web_search_call.searching', 'response.new_thing')),
        item_id: id,
        output_index: fc.integer({ min: 0, max: 2 }),
        content_index: fc.integer({ min: 0, max: 1 }),
        summary_index: fc.integer({ min: 0, max: 1 }),
        delta: fc.constantFrom('', '{', '"a":1}', 'text', 'é'),
        text: fc.constantFrom('', 'text', '{"a":1}'),
        arguments: fc.constantFrom('', '{}', '{"a":'),
        item: fc.record({ id, type: itemType, status: fc.constantFrom('completed', 'incomplete'), call_id: fc.constant('call_1'), name: fc.constant('f'), arguments: fc.constantFrom('', '{}'), encrypted_content: fc.constant('gAAA') }, { requiredKeys: ['id'] }),
        part: fc.record({ type: partType, text: fc.constantFrom('', 'x'), refusal: fc.constantFrom('', 'no') }, { requiredKeys: [] }),
        response: fc.record({ status: fc.constant('completed'), incomplete_details: fc.constant({ reason: 'max_output_tokens' }), error: fc.constant({ code: 'server_error', message: 'm' }), usage: fc.constant({ input_tokens: 1, output_tokens: 2 }) }, { requiredKeys: [] }),
        code: fc.constantFrom('server_error', 'rate_limit_exceeded', null),
      },
      { requiredKeys: ['type'] },
    );
    fc.assert(
      fc.property(fc.array(event, { maxLength: 25 }), (events) => {
        expectWellFormed(normalize(events.map((payload) => recordOf(payload)).join('')));
      }),
      { numRuns: 2000 },
    );
  });

  it('survives binary noise and non-SSE text between records', () => {
    const junk = fc.oneof(
      fc.uint8Array({ maxLength: 64 }),
      fc.string({ maxLength: 64 }).map((text) => `${text}\n\n`),
      fc.constantFrom('data: [DONE]\n\n', 'data: {"error":{"message":"x"}}\n\n', '{"error": {"code": 500}}\n', 'event: error\n\n', 'data:\n\n'),
    );
    fc.assert(
      fc.property(transcript, fc.array(fc.tuple(fc.nat(), junk), { minLength: 1, maxLength: 4 }), (texts, insertions) => {
        const chunks: (string | Uint8Array)[] = [...texts];
        for (const [at, piece] of insertions) chunks.splice(at % (chunks.length + 1), 0, piece);
        expectWellFormed(normalize(chunks));
      }),
      { numRuns: 1000 },
    );
  });

  it('survives huge lines: a frame over the size limit fails the stream, one under it is just text', () => {
    fc.assert(
      fc.property(transcript, fc.nat(), fc.integer({ min: 1, max: 4096 }), (texts, at, size) => {
        const huge = `event: response.output_text.delta\ndata: {"type":"response.output_text.delta","item_id":"msg_huge","content_index":0,"delta":"${'x'.repeat(size)}"}\n\n`;
        const records = [...texts];
        records.splice(at % (records.length + 1), 0, huge);
        expectWellFormed(normalize(records.join(''), 2048));
      }),
      { numRuns: 100 },
    );
  });
});
