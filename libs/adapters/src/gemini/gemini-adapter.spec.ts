import { assemble, checkInvariants, type AssembledResult, type ContractEvent, type MachineInput } from '@llm-stream/contract';
import { runTranscript } from '../session/run-transcript.js';
import { parseSseRecord } from '../sse/sse-record.js';
import { GeminiAdapter } from './gemini-adapter.js';

/** One CRLF-framed data record, as Gemini writes them. */
const data = (payload: unknown): string => `data: ${JSON.stringify(payload)}\r\n\r\n`;
const parts = (...items: unknown[]): unknown => ({ candidates: [{ content: { parts: items, role: 'model' }, index: 0 }] });
const finish = (reason: string, ...items: unknown[]): unknown => ({
  candidates: [{ content: { parts: items, role: 'model' }, finishReason: reason, index: 0 }],
  usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
});
const call = (name: string, args: unknown, extra: object = {}): unknown => ({ functionCall: { name, args }, ...extra });
const streamed = (fields: object, extra: object = {}): unknown => ({ functionCall: fields, ...extra });

interface Normalized {
  readonly events: ContractEvent[];
  readonly result: AssembledResult;
}

function normalize(...records: string[]): Normalized {
  let now = 1_000;
  const { events } = runTranscript('gemini', records.join(''), {
    createAdapter: () => new GeminiAdapter(),
    streamId: 'st_spec',
    clock: () => now++,
  });
  expect(checkInvariants(events)).toEqual([]);
  return { events, result: assemble(events) };
}

function failure(...records: string[]): AssembledResult['error'] {
  const { result } = normalize(...records);
  expect(result.status).not.toBe('completed');
  return result.error;
}

const stops = (events: readonly ContractEvent[]): unknown[] =>
  events.flatMap((event) => (event.type === 'block.stop' ? [event.provider_metadata] : []));
const warnings = (events: readonly ContractEvent[]): string[] =>
  events.flatMap((event) => (event.type === 'stream.warning' ? [event.warning.code] : []));
const frame = (text: string, partial = false) => parseSseRecord(text, partial);

describe('GeminiAdapter', () => {
  describe('HTTP status', () => {
    it('fails an error status with the body status string as provider code', () => {
      const adapter = new GeminiAdapter();
      const body = '{"error": {"code": 429, "message": "Quota exceeded", "status": "RESOURCE_EXHAUSTED"}}';
      expect(adapter.response({ kind: 'upstream.response', raw_seq: 3, ts: 0, attempt: 1, status: 429, body })).toEqual([
        {
          type: 'fail',
          status: 'failed',
          error: { category: 'rate_limited', retryable: true, provider_code: 'RESOURCE_EXHAUSTED', message: 'Quota exceeded', http_status: 429 },
        },
      ]);
      expect(adapter.frame(frame(data(finish('STOP', { text: 'late' }))))).toEqual([]);
    });

    it('says nothing for a successful status', () => {
      expect(new GeminiAdapter().response({ kind: 'upstream.response', raw_seq: 3, ts: 0, attempt: 1, status: 200 })).toEqual([]);
    });
  });

  describe('blocks', () => {
    it('opens a new block at every switch between thought and answer text', () => {
      const { result } = normalize(
        data(parts({ text: 'think 1', thought: true })),
        data(parts({ text: 'answer 1' }, { text: 'think 2', thought: true })),
        data(finish('STOP', { text: 'answer 2' })),
      );
      expect(result.blocks.map((block) => [block.kind, block.text])).toEqual([
        ['reasoning', 'think 1'],
        ['text', 'answer 1'],
        ['reasoning', 'think 2'],
        ['text', 'answer 2'],
      ]);
    });

    it('does not split a reasoning block around a skipped part, and warns once per part type', () => {
      const { events, result } = normalize(
        data(parts({ text: 'a', thought: true }, { executableCode: { code: '1' } }, { text: 'b', thought: true })),
        data(parts({ executableCode: { code: '2' } }, { futurePart: {}, thoughtSignature: 'skipped-with-its-part' })),
        data(finish('STOP', { text: 'c', thought: true })),
      );
      expect(result.blocks.map((block) => [block.kind, block.text])).toEqual([['reasoning', 'abc']]);
      expect(warnings(events)).toEqual(['unknown_part', 'unknown_part']);
      expect(stops(events)).toEqual([undefined]);
    });

    it('opens nothing for empty text parts, thought or not', () => {
      const { result } = normalize(data(parts({ text: '' }, { text: '', thought: true })), data(finish('STOP', { text: '' })));
      expect(result.blocks).toEqual([]);
      expect(result.stop_reason).toBe('end_turn');
    });

    it('puts the signature of a text part, or of a bare signature part, on the open block', () => {
      const { events } = normalize(
        data(parts({ text: 'Hello', thoughtSignature: 'sig-A' })),
        data(parts({ thoughtSignature: 'sig-A' }, { text: ' world' })),
        data(finish('STOP')),
      );
      expect(stops(events)).toEqual([{ gemini: { thought_signature: 'sig-A' } }]);
    });

    it('starts a new block when a content part brings a second, different signature', () => {
      const { events, result } = normalize(
        data(parts({ text: 'one', thoughtSignature: 'sig-A' })),
        data(parts({ text: 'two', thoughtSignature: 'sig-B' })),
        data(finish('STOP')),
      );
      expect(result.blocks.map((block) => block.text)).toEqual(['one', 'two']);
      expect(stops(events)).toEqual([{ gemini: { thought_signature: 'sig-A' } }, { gemini: { thought_signature: 'sig-B' } }]);
    });

    it('sends a contentless signature that the open block cannot take to stream.done, and reports a third', () => {
      const { events, result } = normalize(
        data(parts({ text: 'one', thoughtSignature: 'sig-A' }, { text: '', thoughtSignature: 'sig-B' })),
        data(finish('STOP', { text: '', thoughtSignature: 'sig-C' })),
      );
      expect(stops(events)).toEqual([{ gemini: { thought_signature: 'sig-A' } }]);
      expect(result.provider_metadata).toEqual({ gemini: { thought_signature: 'sig-B' } });
      expect(warnings(events)).toEqual(['ignored_input']);
    });
  });

  describe('function calls', () => {
    it('stops the text block before a call and marks STOP as tool_use', () => {
      const { result } = normalize(data(parts({ text: 'Calling.' }, call('f', { a: 1 }))), data(finish('STOP')));
      expect(result.blocks.map((block) => [block.kind, block.complete])).toEqual([
        ['text', true],
        ['tool_call', true],
      ]);
      expect(result.stop_reason).toBe('tool_use');
    });

    it('uses the id of a streamed call and gives it a signature that arrives on a later part', () => {
      const { events, result } = normalize(
        data(parts(streamed({ id: 'fc_1', name: 'f', willContinue: true }))),
        data(parts(streamed({ partialArgs: [{ jsonPath: '$.x', numberValue: 1 }], willContinue: true }, { thoughtSignature: 'sig' }))),
        data(parts(streamed({}))),
        data(finish('STOP')),
      );
      expect(result.blocks).toEqual([
        expect.objectContaining({ call_id: 'fc_1', raw_arguments: '{"x":1}', arguments: { x: 1 }, complete: true }),
      ]);
      expect(stops(events)).toEqual([{ gemini: { thought_signature: 'sig' } }]);
    });

    it('completes a streamed call given in one part without willContinue, and keeps parallel streamed calls apart', () => {
      const { result } = normalize(
        data(parts(streamed({ name: 'f', partialArgs: [{ jsonPath: '$.city', stringValue: 'Oslo' }] }))),
        data(parts(streamed({ name: 'f', willContinue: true }))),
        data(parts(streamed({ partialArgs: [{ jsonPath: '$.city', stringValue: 'Rome' }], willContinue: true }))),
        data(parts(streamed({}))),
        data(finish('STOP')),
      );
      expect(result.blocks.map((block) => [block.name, block.call_id, block.raw_arguments])).toEqual([
        ['f', 'call_0', '{"city":"Oslo"}'],
        ['f', 'call_1', '{"city":"Rome"}'],
      ]);
    });

    it('accepts an empty args object on a streamed call', () => {
      const { result } = normalize(
        data(parts(streamed({ name: 'f', args: {}, willContinue: true }))),
        data(parts(streamed({ partialArgs: [{ jsonPath: '$.n', boolValue: false }] }))),
        data(finish('STOP')),
      );
      expect(result.blocks[0]?.raw_arguments).toBe('{"n":false}');
    });

    it.each([
      ['a second call starts while one streams', [parts(streamed({ name: 'f', willContinue: true })), parts(call('g', {}))], 'another one was streaming'],
      ['text arrives while a call streams', [parts(streamed({ name: 'f', willContinue: true })), parts({ text: 'hi' })], 'arguments were streaming'],
      ['a functionCall part has no name outside a streamed call', [parts(streamed({}))], 'has no name'],
      ['a streamed call also has args', [parts(streamed({ name: 'f', args: { a: 1 }, willContinue: true }))], 'also carries args'],
      ['a partialArgs path is unusable', [parts(streamed({ name: 'f', partialArgs: [{ jsonPath: '$[*]', numberValue: 1 }] }))], 'jsonPath'],
      ['the args are not an object', [parts(call('f', [1, 2]))], 'args is not an object'],
    ])('fails with protocol_error when %s', (_case, payloads, message) => {
      expect(failure(...payloads.map(data))).toEqual(expect.objectContaining({ category: 'protocol_error', message: expect.stringContaining(message) }));
    });

    it('fails instead of throwing on arguments too deep to write as JSON', () => {
      // Written by hand: JSON.stringify itself overflows on it. 400 kB, under the 1 MiB frame limit.
      const args = `{"a": ${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
      const record = `data: {"candidates": [{"content": {"parts": [{"functionCall": {"name": "f","args": ${args}}}]},"index": 0}]}\r\n\r\n`;
      expect(failure(record)).toEqual(expect.objectContaining({ category: 'protocol_error', message: expect.stringContaining('cannot be written') }));
    });

    it('reports MALFORMED_FUNCTION_CALL rather than the unfinished streamed call', () => {
      expect(failure(data(parts(streamed({ name: 'f', willContinue: true }))), data(finish('MALFORMED_FUNCTION_CALL')))).toEqual(
        expect.objectContaining({ category: 'upstream_error', retryable: true, provider_code: 'MALFORMED_FUNCTION_CALL' }),
      );
    });
  });

  describe('terminal signals', () => {
    it('completes on a prompt blockReason that follows text, stopping the open block', () => {
      const { result } = normalize(data(parts({ text: 'Par' })), data({ promptFeedback: { blockReason: 'SAFETY' } }));
      expect(result).toMatchObject({ status: 'completed', stop_reason: 'content_filter', provider_stop_reason: 'SAFETY' });
      expect(result.blocks[0]?.complete).toBe(true);
    });

    it('is not completed by another candidate finishing, and counts the skipped candidates', () => {
      const adapter = new GeminiAdapter();
      const other = { candidates: [{ content: { parts: [{ text: 'x' }] }, finishReason: 'STOP', index: 1 }] };
      expect(adapter.frame(frame(data(parts({ text: 'mine' }))))).toHaveLength(2);
      expect(adapter.frame(frame(data(other)))).toEqual([expect.objectContaining({ type: 'warn' })]);
      expect(adapter.frame(frame(data(other)))).toEqual([]);
      expect(adapter.skippedCandidates).toBe(2);
      const { result } = normalize(data(parts({ text: 'mine' })), data(other));
      expect(result.status).toBe('interrupted');
    });

    it('lets an error object win over candidates in the same record', () => {
      expect(failure(data({ ...(finish('STOP', { text: 'x' }) as object), error: { code: 503, status: 'UNAVAILABLE' } }))).toEqual(
        expect.objectContaining({ category: 'upstream_overloaded', provider_code: 'UNAVAILABLE' }),
      );
    });

    it('completes without usage when none with counts was sent', () => {
      const { result } = normalize(data({ candidates: [{ finishReason: 'STOP' }], usageMetadata: { trafficType: 'ON_DEMAND' } }));
      expect(result).toMatchObject({ status: 'completed', usage: null });
    });
  });

  describe('text outside SSE records', () => {
    it('fails when garbage is followed by a data record, or by a clean end of the body', () => {
      expect(failure('<html>oops</html>\r\n\r\n', data(finish('STOP', { text: 'x' })))).toEqual(
        expect.objectContaining({ category: 'protocol_error', message: expect.stringContaining('neither SSE nor') }),
      );
      expect(failure(data(parts({ text: 'x' })), 'Bad Gateway\n')).toEqual(expect.objectContaining({ category: 'protocol_error' }));
    });

    it('leaves text cut off by a broken connection to the interruption', () => {
      const adapter = new GeminiAdapter();
      expect(adapter.frame(frame('{\n  "error": {\n    "code": 5', true))).toEqual([]);
      expect(adapter.end({ kind: 'attempt.end', raw_seq: 9, ts: 0, attempt: 1, reason: 'transport_error' })).toEqual([]);
      const clean = new GeminiAdapter();
      clean.frame(frame('{\n  "error": {\n    "code": 5', true));
      expect(clean.end({ kind: 'attempt.end', raw_seq: 9, ts: 0, attempt: 1, reason: 'eof' })).toEqual([
        expect.objectContaining({ type: 'fail', error: expect.objectContaining({ category: 'protocol_error' }) }),
      ]);
    });

    it('fails on the JSON-array stream format, which is not an error body', () => {
      expect(failure('[{"candidates": [{"content": {"parts": [{"text": "hi"}]}}]}]\n')).toEqual(
        expect.objectContaining({ category: 'protocol_error', message: expect.stringContaining('not an error object') }),
      );
    });

    it('reports stray non-SSE lines in a data record once and still reads the record', () => {
      const stray = (text: string): string => `data: ${JSON.stringify(parts({ text }))}\r\ngarbage\r\n\r\n`;
      const { events, result } = normalize(stray('a'), stray('b'), data(finish('STOP')));
      expect(warnings(events)).toEqual(['ignored_input']);
      expect(result.blocks[0]?.text).toBe('ab');
    });

    it('ignores comments and records without fields', () => {
      const { result } = normalize(': ping\r\n\r\n', '\r\n', 'id: 4\r\n\r\n', data(finish('STOP', { text: 'ok' })));
      expect(result.status).toBe('completed');
    });
  });

  describe('wrong shapes are protocol errors', () => {
    const cases: [string, unknown][] = [
      ['a payload that is an array', [1, 2]],
      ['error that is null', { error: null }],
      ['candidates that are an object', { candidates: {} }],
      ['a candidate that is a number', { candidates: [1] }],
      ['a negative candidate index', { candidates: [{ index: -1 }] }],
      ['a string candidate index', { candidates: [{ index: '0' }] }],
      ['content that is a string', { candidates: [{ content: 'x' }] }],
      ['parts that are an object', { candidates: [{ content: { parts: {} } }] }],
      ['a part that is a number', parts(3)],
      ['text that is a number', parts({ text: 5 })],
      ['text beside a functionCall', parts({ text: 'x', functionCall: { name: 'f' } })],
      ['a thoughtSignature that is a number', parts({ text: 'x', thoughtSignature: 1 })],
      ['a finishReason that is a number', { candidates: [{ finishReason: 1 }] }],
      ['a blockReason that is a number', { promptFeedback: { blockReason: 3 } }],
      ['a functionCall that is a string', parts({ functionCall: 'f' })],
      ['a functionCall name that is a number', parts({ functionCall: { name: 3 } })],
      ['a functionCall id that is a number', parts({ functionCall: { name: 'f', id: 3 } })],
      ['a willContinue that is a string', parts({ functionCall: { name: 'f', willContinue: 'yes' } })],
      ['partialArgs that are an object', parts({ functionCall: { name: 'f', partialArgs: {} } })],
    ];
    it.each(cases)('%s', (_case, payload) => {
      expect(failure(data(payload))).toEqual(expect.objectContaining({ category: 'protocol_error', retryable: false }));
    });

    it('accepts content without parts', () => {
      expect(normalize(data({ candidates: [{ content: { role: 'model' }, finishReason: 'STOP' }] })).result.status).toBe('completed');
    });
  });

  it('emits nothing after its terminal input', () => {
    const adapter = new GeminiAdapter();
    const inputs: MachineInput[] = [...adapter.frame(frame(data(finish('STOP', { text: 'done' }))))];
    expect(inputs.at(-1)).toMatchObject({ type: 'finish' });
    expect(adapter.frame(frame(data(parts({ text: 'more' }))))).toEqual([]);
    expect(adapter.frame(frame('{"error": {"code": 500}}\n', true))).toEqual([]);
    expect(adapter.end({ kind: 'attempt.end', raw_seq: 9, ts: 0, attempt: 1, reason: 'eof' })).toEqual([]);
  });
});
