import { assemble, checkInvariants, type ContractEvent, type StreamErrorEvent } from '@llm-stream/contract';
import { runTranscript } from '../session/run-transcript.js';
import { parseSseRecord } from '../sse/sse-record.js';
import { OpenAiChatAdapter } from './openai-chat-adapter.js';

/** One chunk of choice 0 in OpenAI's wire format. */
function chunk(delta: object, finishReason: string | null = null): string {
  return `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-test', choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] })}\n\n`;
}

function data(payload: unknown): string {
  return `data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`;
}

const DONE = 'data: [DONE]\n\n';
const ROLE = chunk({ role: 'assistant', content: '', refusal: null });

function run(...records: string[]): ContractEvent[] {
  const { events } = runTranscript('openai-chat', records.join(''), { createAdapter: () => new OpenAiChatAdapter(), clock: () => 0 });
  expect(checkInvariants(events)).toEqual([]);
  return events;
}

function terminalError(events: readonly ContractEvent[]): StreamErrorEvent['error'] | undefined {
  const last = events.at(-1);
  return last?.type === 'stream.error' ? last.error : undefined;
}

function warnings(events: readonly ContractEvent[]): (string | undefined)[] {
  return events.flatMap((event) => (event.type === 'stream.warning' ? [event.warning.provider_event_type] : []));
}

describe('OpenAiChatAdapter', () => {
  describe('content as an array of typed parts', () => {
    it('reads text and thinking parts in the order sent, skipping and counting other part types', () => {
      const thinking = { type: 'thinking', thinking: [{ type: 'text', text: 'Check the ' }, { type: 'text', text: 'date.' }] };
      const events = run(
        ROLE,
        chunk({ content: [thinking] }),
        chunk({ content: [{ type: 'text', text: 'It is ' }, { type: 'reference', reference_ids: [1] }] }),
        chunk({ content: [{ type: 'text', text: 'Monday.' }] }),
        chunk({}, 'stop'),
        DONE,
      );
      const result = assemble(events);
      expect(result.status).toBe('completed');
      expect(result.blocks).toMatchObject([
        { kind: 'reasoning', text: 'Check the date.', complete: true },
        { kind: 'text', text: 'It is Monday.', complete: true },
      ]);
      expect(warnings(events)).toEqual(['content.reference']);
    });

    it('opens nothing for an empty array or an empty text part', () => {
      const result = assemble(run(ROLE, chunk({ content: [] }), chunk({ content: [{ type: 'text', text: '' }] }), chunk({ content: 'x' }), chunk({}, 'stop'), DONE));
      expect(result.blocks).toMatchObject([{ kind: 'text', text: 'x' }]);
    });
  });

  describe('a whole answer in one record (message in place of delta)', () => {
    it('reads message like a delta holding everything: text, then whole tool calls', () => {
      const message = {
        role: 'assistant',
        content: 'Booking it.',
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'book', arguments: '{"room":"A"}' } }],
      };
      const record = data({ id: 'chatcmpl-1', object: 'chat.completion', model: 'm', choices: [{ index: 0, message, finish_reason: 'tool_calls' }] });
      const result = assemble(run(record, DONE));
      expect(result).toMatchObject({ status: 'completed', stop_reason: 'tool_use' });
      expect(result.blocks).toMatchObject([
        { kind: 'text', text: 'Booking it.', complete: true },
        { kind: 'tool_call', name: 'book', call_id: 'call_1', arguments: { room: 'A' }, complete: true },
      ]);
    });

    it('prefers a non-empty delta over a message sent beside it', () => {
      const record = data({ choices: [{ index: 0, delta: { content: 'delta' }, message: { content: 'message' }, finish_reason: 'stop' }] });
      expect(assemble(run(record, DONE)).blocks).toMatchObject([{ kind: 'text', text: 'delta' }]);
    });
  });

  describe('completion needs [DONE] after a finish_reason', () => {
    it('completes text with the last usage seen', () => {
      const result = assemble(run(ROLE, chunk({ content: 'Hi' }), chunk({}, 'stop'), data({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 1 } }), DONE));
      expect(result).toMatchObject({ status: 'completed', stop_reason: 'end_turn', usage: { input_tokens: 3, output_tokens: 1 } });
      expect(result.blocks).toMatchObject([{ kind: 'text', text: 'Hi', complete: true }]);
    });

    it('fails a body that is only [DONE] as a protocol error', () => {
      expect(terminalError(run(DONE))).toMatchObject({ category: 'protocol_error', retryable: false });
    });

    it('reads [DONE] with surrounding spaces as [DONE]', () => {
      expect(assemble(run(chunk({ content: 'x' }, 'stop'), 'data:  [DONE] \n\n')).status).toBe('completed');
    });

    it('interrupts an empty body', () => {
      expect(terminalError(run(''))).toMatchObject({ category: 'transport_interrupted' });
    });

    it('takes content and finish_reason from one chunk, content first', () => {
      const result = assemble(run(chunk({ content: 'last words' }, 'stop'), DONE));
      expect(result.blocks).toMatchObject([{ kind: 'text', text: 'last words', complete: true }]);
      expect(result.status).toBe('completed');
    });

    it('reads finish_reason "" as no finish reason', () => {
      expect(terminalError(run(chunk({ content: 'x' }, ''), DONE))).toMatchObject({ category: 'protocol_error' });
    });

    it('ignores a repeated finish_reason and keeps the first', () => {
      const result = assemble(run(chunk({ content: 'x' }, 'length'), chunk({ content: '' }, 'stop'), DONE));
      expect(result).toMatchObject({ status: 'completed', provider_stop_reason: 'length', stop_reason: 'max_tokens' });
    });

    it('fails content for choice 0 after its finish_reason', () => {
      const events = run(chunk({ content: 'x' }, 'stop'), chunk({ content: 'more' }), DONE);
      expect(terminalError(events)).toMatchObject({ category: 'protocol_error', message: 'openai-chat: choice 0 continued after its finish_reason' });
    });

    it('keeps the first response id and model (Azure preamble ids are empty)', () => {
      const preamble = data({ choices: [], created: 0, id: '', model: '', object: '', prompt_filter_results: [] });
      const done = run(preamble, chunk({ content: 'x' }, 'stop'), DONE).at(-1);
      expect(done).toMatchObject({ type: 'stream.done', response_id: 'chatcmpl-1', provider_model: 'gpt-test' });
    });

    it('accepts a usage chunk with choices null (vLLM) and ignores unreadable token counts', () => {
      const usage = data({ id: 'x', choices: null, usage: { prompt_tokens: -1, completion_tokens: 4.5 } });
      const done = run(chunk({ content: 'x' }, 'stop'), usage, DONE).at(-1);
      expect(done).toMatchObject({ type: 'stream.done' });
      expect(done).not.toHaveProperty('usage');
    });
  });

  describe('blocks', () => {
    it('opens nothing for null and empty values', () => {
      const events = run(chunk({ role: 'assistant', content: null, refusal: '', reasoning_content: null, reasoning: '', tool_calls: null }), chunk({}, 'stop'), DONE);
      expect(events.map((event) => event.type)).toEqual(['stream.start', 'stream.done']);
    });

    it('reads reasoning_content before reasoning when a server sends both', () => {
      const result = assemble(run(chunk({ reasoning_content: 'think', reasoning: 'think' }), chunk({ content: 'ok' }, 'stop'), DONE));
      expect(result.blocks).toMatchObject([{ kind: 'reasoning', text: 'think' }, { kind: 'text', text: 'ok' }]);
    });

    it('opens a new text block after a refusal block instead of appending to the first text', () => {
      const result = assemble(run(chunk({ content: 'a' }), chunk({ refusal: 'no' }), chunk({ content: 'b' }, 'stop'), DONE));
      expect(result.blocks.map((block) => [block.kind, block.text])).toEqual([
        ['text', 'a'],
        ['refusal', 'no'],
        ['text', 'b'],
      ]);
      expect(result.stop_reason).toBe('end_turn');
    });

    it('normalizes stop to refusal when reasoning and a refusal are the only output', () => {
      expect(assemble(run(chunk({ reasoning: 'hm' }), chunk({ refusal: 'no' }, 'stop'), DONE)).stop_reason).toBe('refusal');
    });

    it('keeps the tool call open while text is written after it, and stops both at the finish', () => {
      const first = { index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":' } };
      const events = run(chunk({ tool_calls: [first] }), chunk({ content: 'text' }), chunk({ tool_calls: [{ index: 0, function: { arguments: '1}' } }] }), chunk({}, 'tool_calls'), DONE);
      const result = assemble(events);
      expect(result.blocks).toMatchObject([
        { kind: 'tool_call', raw_arguments: '{"a":1}', arguments: { a: 1 }, complete: true },
        { kind: 'text', text: 'text', complete: true },
      ]);
    });

    it('uses the array position when a server leaves out the tool index', () => {
      const calls = [
        { id: 'call_a', type: 'function', function: { name: 'f', arguments: '{}' } },
        { id: 'call_b', type: 'function', function: { name: 'g', arguments: '{"x":2}' } },
      ];
      const result = assemble(run(chunk({ tool_calls: calls }, 'tool_calls'), DONE));
      expect(result.blocks).toMatchObject([
        { call_id: 'call_a', name: 'f', arguments: {} },
        { call_id: 'call_b', name: 'g', arguments: { x: 2 } },
      ]);
    });

    it('accepts an id repeated on every fragment; another id at a used index is another call', () => {
      const repeated = run(
        chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '' } }] }),
        chunk({ tool_calls: [{ index: 0, id: 'call_1', function: { arguments: '{}' } }] }),
        chunk({}, 'tool_calls'),
        DONE,
      );
      expect(assemble(repeated).blocks).toMatchObject([{ call_id: 'call_1', name: 'f', arguments: {} }]);
      // Every parallel call at index 0 (Ollama, SGLang): fragments without an id go to the latest call there.
      const reused = run(
        chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '1}' } }] }),
        chunk({ tool_calls: [{ index: 0, id: 'call_2', type: 'function', function: { name: 'g', arguments: '' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"b":2}' } }] }),
        chunk({}, 'tool_calls'),
        DONE,
      );
      expect(assemble(reused)).toMatchObject({
        status: 'completed',
        blocks: [
          { call_id: 'call_1', name: 'f', arguments: { a: 1 } },
          { call_id: 'call_2', name: 'g', arguments: { b: 2 } },
        ],
      });
    });

    it("carries a call's extra_content (Gemini's thought signature) on its block.stop, byte-exact", () => {
      const extra = { google: { thought_signature: 'EjQKMgEMOdbH+/sig==' } };
      const events = run(
        chunk({ role: 'assistant', tool_calls: [{ id: 'a1', type: 'function', function: { name: 'f', arguments: '{}' }, extra_content: extra }] }),
        chunk({ role: 'assistant', tool_calls: [{ id: 'b2', type: 'function', function: { name: 'g', arguments: '{}' } }] }),
        chunk({}, 'stop'),
        DONE,
      );
      const stops = events.flatMap((event) => (event.type === 'block.stop' ? [event.provider_metadata] : []));
      expect(stops).toEqual([{ 'openai-chat': { extra_content: extra } }, undefined]);
      // `stop` after tool calls (Gemini 3, older Ollama): the answer waits for their results.
      expect(assemble(events)).toMatchObject({ status: 'completed', stop_reason: 'tool_use', provider_stop_reason: 'stop' });
    });

    it('fails a tool call whose extra_content is not an object', () => {
      const events = run(chunk({ tool_calls: [{ index: 0, id: 'a1', type: 'function', function: { name: 'f' }, extra_content: 'sig' }] }));
      expect(terminalError(events)).toMatchObject({ category: 'protocol_error' });
      expect(terminalError(events)?.message).toContain('extra_content is not an object');
    });

    it('keeps a function call that takes over the index of a skipped tool type', () => {
      const events = run(
        chunk({ tool_calls: [{ index: 0, id: 'call_c', type: 'custom', custom: { name: 'grammar', input: '' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: 'free text' } }] }),
        chunk({ tool_calls: [{ index: 0, id: 'call_f', type: 'function', function: { name: 'f', arguments: '{}' } }] }),
        chunk({}, 'tool_calls'),
        DONE,
      );
      expect(assemble(events).blocks).toMatchObject([{ call_id: 'call_f', name: 'f', arguments: {} }]);
    });

    it('skips a tool type it has no block for, with all its fragments, and counts it', () => {
      const events = run(
        chunk({ tool_calls: [{ index: 0, id: 'call_c', type: 'custom', custom: { name: 'grammar', input: '' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: 'free text' } }] }),
        chunk({ tool_calls: [{ index: 1, id: 'call_f', type: 'function', function: { name: 'f', arguments: '{}' } }] }),
        chunk({}, 'tool_calls'),
        DONE,
      );
      expect(warnings(events)).toEqual(['tool_call.custom']);
      expect(assemble(events).blocks).toMatchObject([{ call_id: 'call_f', arguments: {} }]);
    });

    it('skips other choices and unknown delta fields, counted once per type', () => {
      const other = data({ id: 'chatcmpl-1', choices: [{ index: 2, delta: { content: 'zzz' }, finish_reason: null }] });
      const events = run(chunk({ content: 'a', audio: { id: 'au' } }), other, other, chunk({ audio: { data: 'AAAA' }, function_call: null }), chunk({}, 'stop'), DONE);
      expect(warnings(events)).toEqual(['delta.audio', 'choice[2]']);
      expect(assemble(events).blocks).toMatchObject([{ kind: 'text', text: 'a' }]);
    });
  });

  describe('failures', () => {
    it.each([
      ['a payload that is not JSON', 'data: {"id":"chatcmpl-1","choices":[{"delta":{"content":"sec\n\n', 'a data payload is not valid JSON'],
      ['a JSON array', data([1, 2]), 'a data payload is JSON but not an object'],
      ['choices of the wrong type', data({ choices: { index: 0 } }), 'choices is not an array'],
      ['a choice that is not an object', data({ choices: ['x'] }), 'choices[0] is not an object'],
      ['a string index', data({ choices: [{ index: '0', delta: {} }] }), 'choices[0].index is not a non-negative integer'],
      ['a delta that is a string', data({ choices: [{ index: 0, delta: 'hi' }] }), 'choices[0].delta is not an object'],
      ['numeric content', chunk({ content: 42 }), 'choices[0].delta.content is not a string'],
      ['content that is a number', chunk({ content: 7 }), 'choices[0].delta.content is not a string'],
      ['a text part whose text is not a string', chunk({ content: [{ type: 'text', text: { value: 'x' } }] }), 'choices[0].delta.content[0].text is not a string'],
      ['tool_calls that is an object', chunk({ tool_calls: { index: 0 } }), 'choices[0].delta.tool_calls is not an array'],
      ['arguments as an object', chunk({ tool_calls: [{ index: 0, function: { arguments: { a: 1 } } }] }), 'choices[0].delta.tool_calls[0].function.arguments is not a string'],
      ['a negative tool index', chunk({ tool_calls: [{ index: -1 }] }), 'choices[0].delta.tool_calls[0].index is not a non-negative integer'],
      ['a numeric finish_reason', chunk({}, 1 as unknown as string), 'choices[0].finish_reason is not a string'],
      ['usage that is a number', data({ choices: [], usage: 7 }), 'usage is not an object'],
    ])('fails %s as a protocol error without quoting the payload', (_what, record, message) => {
      const error = terminalError(run(ROLE, chunk({ content: 'secret' }), record, chunk({}, 'stop'), DONE));
      expect(error).toEqual({ category: 'protocol_error', retryable: false, provider_code: null, message: `openai-chat: ${message}` });
    });

    it('fails with the provider error, ignoring the [DONE] after it', () => {
      const error = { message: 'boom', type: 'server_error', param: null, code: null };
      const events = run(ROLE, chunk({ content: 'x' }), data({ error }), DONE);
      expect(terminalError(events)).toEqual({ category: 'upstream_error', retryable: true, provider_code: 'server_error', message: 'boom' });
      expect(events.filter((event) => event.type === 'block.stop')).toEqual([]);
    });

    it('fails a flat vLLM error object', () => {
      const events = run(data({ object: 'error', message: 'bad', type: 'BadRequestError', param: null, code: 400 }));
      expect(terminalError(events)).toEqual({ category: 'invalid_request', retryable: false, provider_code: '400', message: 'bad' });
    });

    it('fails a string error (Ollama)', () => {
      expect(terminalError(run(data({ error: 'model not found' })))).toEqual({
        category: 'upstream_error',
        retryable: false,
        provider_code: null,
        message: 'model not found',
      });
    });

    it('fails finish_reason "error" without an error object', () => {
      const error = terminalError(run(chunk({ content: 'x' }), chunk({}, 'error'), DONE));
      expect(error).toMatchObject({ category: 'upstream_error', retryable: false, provider_code: null });
    });

    it('ignores a null error field on a normal chunk', () => {
      const events = run(data({ id: 'c', error: null, choices: [{ index: 0, delta: { content: 'x' }, finish_reason: 'stop' }] }), DONE);
      expect(assemble(events).status).toBe('completed');
    });
  });

  describe('the adapter alone', () => {
    const frame = (text: string): ReturnType<typeof parseSseRecord> => parseSseRecord(text, false);

    it('emits nothing after its own terminal input', () => {
      const adapter = new OpenAiChatAdapter();
      expect(adapter.frame(frame(chunk({ content: 'x' }, 'stop')))).toHaveLength(3);
      expect(adapter.frame(frame(DONE))).toMatchObject([{ type: 'finish' }]);
      expect(adapter.frame(frame(chunk({ content: 'again' })))).toEqual([]);
      expect(adapter.frame(frame(data({ error: { message: 'late' } })))).toEqual([]);
    });

    it('discards a partial final record and empty data', () => {
      const adapter = new OpenAiChatAdapter();
      expect(adapter.frame(parseSseRecord('data: {"choices":[{"index":0,"delta":{"content":"x"}}]}', true))).toEqual([]);
      expect(adapter.frame(frame('data:\n\n'))).toEqual([]);
      expect(adapter.frame(frame(': keep-alive\n\n'))).toEqual([]);
    });

    it('maps an HTTP error status with its OpenAI error body', () => {
      const body = JSON.stringify({ error: { message: 'Rate limit reached', type: 'requests', param: null, code: 'rate_limit_exceeded' } });
      const inputs = new OpenAiChatAdapter().response({ kind: 'upstream.response', raw_seq: 3, ts: 0, attempt: 1, status: 429, body });
      expect(inputs).toEqual([
        {
          type: 'fail',
          status: 'failed',
          error: { category: 'rate_limited', retryable: true, provider_code: 'rate_limit_exceeded', message: 'Rate limit reached', http_status: 429 },
        },
      ]);
    });

    it.each([
      [401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }, 'authentication', false, 'invalid_api_key'],
      [500, { error: { message: 'm', type: 'server_error', param: null, code: null } }, 'upstream_error', true, 'server_error'],
      [402, { error: { code: 402, message: 'Insufficient credits' } }, 'invalid_request', false, '402'],
      [503, undefined, 'upstream_overloaded', true, '503'],
      [400, '<html>Bad Request</html>', 'invalid_request', false, '400'],
    ])('maps HTTP %i to its category with provider_code = code ?? type ?? status', (status, body, category, retryable, providerCode) => {
      const record = {
        kind: 'upstream.response' as const,
        raw_seq: 3,
        ts: 0,
        attempt: 1,
        status,
        ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      };
      expect(new OpenAiChatAdapter().response(record)).toMatchObject([{ type: 'fail', status: 'failed', error: { category, retryable, provider_code: providerCode, http_status: status } }]);
    });

    it('accepts a successful status without inputs', () => {
      expect(new OpenAiChatAdapter().response({ kind: 'upstream.response', raw_seq: 3, ts: 0, attempt: 1, status: 200 })).toEqual([]);
    });
  });
});
