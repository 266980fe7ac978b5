import fc from 'fast-check';
import { checkInvariants, isTerminalEvent } from '@llm-stream/contract';
import { loadTranscripts, normalizeForKit, recordTexts } from '../../test/conformance-harness.js';
import { GeminiAdapter } from './gemini-adapter.js';

/**
 * Random and mutated bodies through the whole pipeline (decoder, session, adapter, state machine): whatever
 * arrives, normalizing never throws, ends with exactly one terminal event, and the event list keeps every
 * contract invariant. 10,010 runs in all.
 */
const createAdapter = (): GeminiAdapter => new GeminiAdapter();
const transcripts = loadTranscripts('gemini');

function expectSound(body: string | Buffer | readonly Buffer[]): void {
  const { events } = normalizeForKit('gemini', body, createAdapter);
  const terminals = events.filter(isTerminalEvent);
  expect(terminals).toHaveLength(1);
  expect(events.at(-1)).toBe(terminals[0]);
  expect(checkInvariants(events)).toEqual([]);
}

/** Mostly the documented shape, sometimes any JSON value in its place (a wrong type in a known field). */
function field<T>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: valid, weight: 8 }, { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 1 });
}

const text = fc.oneof(fc.constantFrom('', 'Hi', ' там', '☀️', '\u0000', '"}\\'), fc.string({ maxLength: 12 }));
const signature = fc.constantFrom('sig-A', 'sig-B', 'CrYg+/==');
const jsonPath = fc.oneof(
  fc.constantFrom('$.a', '$.a', '$.b.c', '$.list[0]', '$.list[1]', '$.list[3]', '$', '$[0]', "$['x y']", '$..a', '$.a.b'),
  fc.string({ maxLength: 8 }),
);
const partialArg = fc.record(
  {
    jsonPath: field(jsonPath),
    stringValue: field(text),
    numberValue: field(fc.double()),
    boolValue: field(fc.boolean()),
    nullValue: fc.constant(null),
    willContinue: field(fc.boolean()),
  },
  { requiredKeys: ['jsonPath'] },
);
const functionCall = fc.record(
  {
    name: field(fc.constantFrom('f', 'g')),
    id: field(fc.constantFrom('fc_1', 'fc_2')),
    args: field(fc.dictionary(fc.constantFrom('a', 'b', '__proto__'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 })),
    partialArgs: field(fc.array(partialArg, { maxLength: 3 })),
    willContinue: field(fc.boolean()),
  },
  { requiredKeys: [] },
);
const part = field(
  fc.oneof(
    fc.record({ text: field(text), thought: field(fc.boolean()), thoughtSignature: field(signature) }, { requiredKeys: ['text'] }),
    fc.record({ functionCall: field(functionCall), thoughtSignature: field(signature) }, { requiredKeys: ['functionCall'] }),
    fc.record({ executableCode: fc.constant({ code: 'print(1)' }) }),
    fc.record({ inlineData: fc.constant({ mimeType: 'image/png', data: 'iVBO' }), thoughtSignature: signature }),
    fc.record({ thoughtSignature: signature }),
  ),
);
const finishReason = field(fc.constantFrom('STOP', 'MAX_TOKENS', 'SAFETY', 'RECITATION', 'MALFORMED_FUNCTION_CALL', 'OTHER', 'NEW_REASON'));
const candidate = fc.record(
  {
    content: field(fc.record({ parts: field(fc.array(part, { maxLength: 4 })), role: fc.constant('model') }, { requiredKeys: [] })),
    finishReason,
    index: field(fc.constantFrom(0, 0, 1)),
  },
  { requiredKeys: [] },
);
const count = field(fc.nat({ max: 500 }));
const response = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record(
      {
        candidates: field(fc.array(candidate, { maxLength: 2 })),
        usageMetadata: field(
          fc.record({ promptTokenCount: count, candidatesTokenCount: count, thoughtsTokenCount: count, cachedContentTokenCount: count }, { requiredKeys: [] }),
        ),
        promptFeedback: field(fc.record({ blockReason: field(fc.constantFrom('SAFETY', 'OTHER')) }, { requiredKeys: [] })),
        modelVersion: field(fc.constant('gemini-2.5-flash')),
        responseId: field(fc.constant('rid')),
      },
      { requiredKeys: [] },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      error: field(fc.record({ code: field(fc.constantFrom(429, 500, 503)), message: field(text), status: field(fc.constantFrom('UNAVAILABLE', 'INTERNAL')) })),
    }),
  },
);

/** A record of a body: mostly a data record (in the framings Gemini and proxies use), sometimes other lines. */
const record = fc.oneof(
  { weight: 10, arbitrary: fc.tuple(response, fc.constantFrom('data: ', 'data:'), fc.constantFrom('\r\n\r\n', '\n\n', '\r\r')).map(([payload, prefix, end]) => `${prefix}${JSON.stringify(payload)}${end}`) },
  { weight: 1, arbitrary: fc.constantFrom(': keep-alive\r\n\r\n', '\r\n', 'event: x\r\ndata: {}\r\n\r\n', '{\n  "error": {"code": 503}\n}\n', '<html>\n', 'data: [DONE]\r\n\r\n') },
);

/** Cuts a body into chunks at the given positions (chunking must never matter). */
function chunked(bytes: Buffer, cuts: readonly number[]): Buffer[] {
  const positions = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let start = 0;
  for (const position of [...positions, bytes.length]) {
    chunks.push(bytes.subarray(start, position));
    start = position;
  }
  return chunks;
}

const transcriptBody = fc.constantFrom(...transcripts.map((transcript) => transcript.body));

describe('Gemini adapter fuzzing', () => {
  it('has transcripts to mutate', () => {
    expect(transcripts.length).toBeGreaterThanOrEqual(18);
  });

  it('stays sound on random GenerateContentResponse-shaped records with wrong types in known fields', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 6 }), (records, cuts) => {
        expectSound(chunked(Buffer.from(records.join(''), 'utf8'), cuts));
      }),
      { numRuns: 4000 },
    );
  });

  it('stays sound on the transcripts with records shuffled, duplicated and dropped', () => {
    fc.assert(
      fc.property(transcriptBody, fc.array(fc.nat(), { maxLength: 14 }), (body, picks) => {
        const { texts } = recordTexts(body);
        expectSound(picks.map((pick) => texts[pick % texts.length] ?? '').join(''));
      }),
      { numRuns: 2500 },
    );
  });

  it('stays sound on truncated, spliced and bit-flipped transcripts', () => {
    const mutation = fc.record({
      cut: fc.nat(),
      flips: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }),
      insert: fc.tuple(fc.nat(), fc.uint8Array({ maxLength: 16 })),
      truncate: fc.boolean(),
    });
    fc.assert(
      fc.property(transcriptBody, mutation, (body, { cut, flips, insert, truncate }) => {
        let bytes = Buffer.from(body);
        for (const [at, value] of flips) bytes[at % bytes.length] = value;
        const [at, extra] = insert;
        const position = at % (bytes.length + 1);
        bytes = Buffer.concat([bytes.subarray(0, position), extra, bytes.subarray(position)]);
        if (truncate) bytes = bytes.subarray(0, cut % (bytes.length + 1));
        expectSound(bytes);
      }),
      { numRuns: 2500 },
    );
  });

  it('stays sound on arbitrary bytes and text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 600 }), fc.string({ maxLength: 300, unit: 'binary' })), (body) => {
        expectSound(typeof body === 'string' ? body : Buffer.from(body));
      }),
      { numRuns: 1000 },
    );
  });

  it('stays sound on huge lines, over and under the frame size limit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 200_000, max: 1_200_000 }), fc.boolean(), (size, framed) => {
        const huge = 'x'.repeat(size);
        const body = framed
          ? `data: {"candidates": [{"content": {"parts": [{"text": "${huge}"}]},"finishReason": "STOP","index": 0}]}\r\n\r\n`
          : `${huge}\n`;
        expectSound(body);
      }),
      { numRuns: 10 },
    );
  });
});
