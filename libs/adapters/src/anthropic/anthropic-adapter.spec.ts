import { checkInvariants, type AttemptEndRecord, type MachineInput, type UpstreamResponseRecord } from '@llm-stream/contract';
import { parseSseRecord } from '../sse/sse-record.js';
import { AnthropicAdapter } from './anthropic-adapter.js';
import {
  blockStart,
  blockStop,
  delta,
  feed,
  jsonDelta,
  messageDelta,
  messageStart,
  messageStop,
  normalize,
  ping,
  sse,
  streamError,
  terminalOf,
  textDelta,
  textStart,
  toolStart,
} from './__fixtures__/anthropic-frames.js';

const response = (status: number, body?: string): UpstreamResponseRecord => ({
  kind: 'upstream.response',
  raw_seq: 3,
  ts: 3,
  attempt: 1,
  status,
  ...(body !== undefined && { body }),
});

const errorBody = (type: string, message: string): string =>
  JSON.stringify({ type: 'error', error: { type, message }, request_id: 'req_011CTestTestTestTestTest' });

describe('AnthropicAdapter frames', () => {
  it('maps the canonical lifecycle onto open, append, close and finish with the message id, model and usage', () => {
    const inputs = feed(
      new AnthropicAdapter(),
      messageStart({ input_tokens: 14, output_tokens: 1 }),
      textStart(0),
      ping(),
      textDelta(0, 'Hi'),
      blockStop(0),
      messageDelta('end_turn', { input_tokens: 14, output_tokens: 3 }),
      messageStop(),
    );
    expect(inputs).toStrictEqual<MachineInput[]>([
      { type: 'block.open', key: 'a0', kind: 'text' },
      { type: 'block.append', key: 'a0', delta: { kind: 'text', text: 'Hi' } },
      { type: 'block.close', key: 'a0' },
      {
        type: 'finish',
        stop_reason: 'end_turn',
        provider_stop_reason: 'end_turn',
        usage: { input_tokens: 14, output_tokens: 3 },
        response_id: 'msg_01TestTestTestTestTestTe',
        provider_model: 'claude-sonnet-4-5-20250929',
      },
    ]);
  });

  it('passes text that arrives on content_block_start, and drops empty fragments of started blocks', () => {
    const inputs = feed(
      new AnthropicAdapter(),
      textStart(0, 'Pre'),
      textDelta(0, ''),
      toolStart(1),
      jsonDelta(1, ''),
      blockStart(2, { type: 'thinking', thinking: '', signature: '' }),
      delta(2, { type: 'thinking_delta', thinking: '' }),
    );
    expect(inputs).toStrictEqual<MachineInput[]>([
      { type: 'block.open', key: 'a0', kind: 'text' },
      { type: 'block.append', key: 'a0', delta: { kind: 'text', text: 'Pre' } },
      { type: 'block.open', key: 'a1', kind: 'tool_call', name: 'get_weather', call_id: 'toolu_01' },
      { type: 'block.open', key: 'a2', kind: 'reasoning' },
    ]);
  });

  it('ignores the input placeholder of tool_use: the arguments are only the input_json_delta fragments', () => {
    const inputs = feed(
      new AnthropicAdapter(),
      blockStart(0, { type: 'tool_use', id: 'toolu_x', name: 'lookup', input: { stale: true } }),
      jsonDelta(0, '{"q": 1}'),
    );
    expect(inputs).toStrictEqual<MachineInput[]>([
      { type: 'block.open', key: 'a0', kind: 'tool_call', name: 'lookup', call_id: 'toolu_x' },
      { type: 'block.append', key: 'a0', delta: { kind: 'json_text', text: '{"q": 1}' } },
    ]);
  });

  it('passes thinking text and signatures (on the start event or as signature_delta) byte-exact', () => {
    const signature = 'EqQBCkYI+/x==';
    const inputs = feed(
      new AnthropicAdapter(),
      blockStart(0, { type: 'thinking', thinking: 'a', signature: 'Sig/+=' }),
      delta(0, { type: 'thinking_delta', thinking: ' b' }),
      delta(0, { type: 'signature_delta', signature }),
      blockStop(0),
    );
    expect(inputs).toStrictEqual<MachineInput[]>([
      { type: 'block.open', key: 'a0', kind: 'reasoning' },
      { type: 'block.append', key: 'a0', delta: { kind: 'text', text: 'a' } },
      { type: 'block.append', key: 'a0', delta: { kind: 'signature', text: 'Sig/+=' } },
      { type: 'block.append', key: 'a0', delta: { kind: 'text', text: ' b' } },
      { type: 'block.append', key: 'a0', delta: { kind: 'signature', text: signature } },
      { type: 'block.close', key: 'a0' },
    ]);
  });

  it('carries redacted_thinking data byte-exact on the block.stop of an internal reasoning block', () => {
    const data = 'EmwKAhgBEgy3va3pzix/LafPsn4a+DFIT2Xlxh0L5L8rLVyIw==';
    const inputs = feed(new AnthropicAdapter(), blockStart(0, { type: 'redacted_thinking', data }), blockStop(0));
    expect(inputs).toStrictEqual<MachineInput[]>([
      { type: 'block.open', key: 'a0', kind: 'reasoning' },
      { type: 'block.close', key: 'a0', provider_metadata: { anthropic: { redacted_thinking: data } } },
    ]);
  });

  it('skips an unknown block type with all its deltas and its stop, and reports it once as unknown_part', () => {
    const inputs = feed(
      new AnthropicAdapter(),
      blockStart(0, { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }),
      jsonDelta(0, '{"query": "x"}'),
      delta(0, { type: 'future_delta', value: 1 }),
      blockStop(0),
    );
    expect(inputs).toStrictEqual<MachineInput[]>([
      {
        type: 'warn',
        warning: {
          code: 'unknown_part',
          message: 'skipped unknown content content_block.server_tool_use',
          provider_event_type: 'content_block.server_tool_use',
        },
      },
    ]);
  });

  it('reports an unknown delta type in a known block as unknown_event and keeps the block open', () => {
    const inputs = feed(new AnthropicAdapter(), textStart(0), delta(0, { type: 'text_sparkle_delta', sparkle: '*' }), textDelta(0, 'x'));
    expect(inputs).toStrictEqual<MachineInput[]>([
      { type: 'block.open', key: 'a0', kind: 'text' },
      {
        type: 'warn',
        warning: {
          code: 'unknown_event',
          message: 'skipped unknown event content_block_delta.text_sparkle_delta',
          provider_event_type: 'content_block_delta.text_sparkle_delta',
        },
      },
      { type: 'block.append', key: 'a0', delta: { kind: 'text', text: 'x' } },
    ]);
  });

  it('treats citations_delta as known and textless', () => {
    const citation = { type: 'char_location', cited_text: 'x', document_index: 0, start_char_index: 0, end_char_index: 1 };
    expect(feed(new AnthropicAdapter(), textStart(0), delta(0, { type: 'citations_delta', citation }))).toStrictEqual<MachineInput[]>([
      { type: 'block.open', key: 'a0', kind: 'text' },
    ]);
  });

  it('reports an unknown event type by its data type, or by its event name when the data has none', () => {
    const adapter = new AnthropicAdapter();
    expect(feed(adapter, sse({ type: 'content_block_flash', index: 0 }))).toStrictEqual<MachineInput[]>([
      {
        type: 'warn',
        warning: {
          code: 'unknown_event',
          message: 'skipped unknown event content_block_flash',
          provider_event_type: 'content_block_flash',
        },
      },
    ]);
    expect(feed(adapter, sse({ index: 0 }, 'message_annotation'))).toStrictEqual<MachineInput[]>([
      {
        type: 'warn',
        warning: { code: 'unknown_event', message: 'skipped unknown event message_annotation', provider_event_type: 'message_annotation' },
      },
    ]);
  });

  it('dispatches on the data type, falling back to the event name', () => {
    // The SDK reads the event name; the data type is the same on the wire. When the data lacks a type
    // (a hand-written proxy), the name still identifies a known event.
    const inputs = feed(new AnthropicAdapter(), sse({}, 'message_stop'));
    expect(inputs).toStrictEqual<MachineInput[]>([{ type: 'finish', stop_reason: 'other', provider_stop_reason: null }]);
  });

  it('ignores records without data, comments and a partial last record', () => {
    const adapter = new AnthropicAdapter();
    expect(feed(adapter, ': keep-alive\n\n', 'event: ping\n\n', ':\n\n')).toStrictEqual([]);
    expect(adapter.frame(parseSseRecord('event: message_stop\ndata: {"type":"message_stop"}', true))).toStrictEqual([]);
    // The partial record was not used: the adapter still completes on a whole one.
    expect(feed(adapter, messageStop())).toHaveLength(1);
  });

  it('keeps the last stop_reason of message_delta and finishes with other when none came', () => {
    const adapter = new AnthropicAdapter();
    const inputs = feed(
      adapter,
      messageDelta('tool_use'),
      sse({ type: 'message_delta', delta: {}, usage: { output_tokens: 9 } }),
      messageStop(),
    );
    expect(inputs).toStrictEqual<MachineInput[]>([
      { type: 'finish', stop_reason: 'tool_use', provider_stop_reason: 'tool_use', usage: { input_tokens: 0, output_tokens: 9 } },
    ]);
    expect(feed(new AnthropicAdapter(), messageStart(), messageStop())).toStrictEqual<MachineInput[]>([
      {
        type: 'finish',
        stop_reason: 'other',
        provider_stop_reason: null,
        response_id: 'msg_01TestTestTestTestTestTe',
        provider_model: 'claude-sonnet-4-5-20250929',
      },
    ]);
  });

  it('emits nothing after its own terminal input: the first terminal signal wins', () => {
    const finished = new AnthropicAdapter();
    feed(finished, messageStop());
    expect(feed(finished, streamError('overloaded_error'), textStart(0), messageStop())).toStrictEqual([]);
    expect(finished.response(response(500, errorBody('api_error', 'x')))).toStrictEqual([]);

    const failed = new AnthropicAdapter();
    expect(feed(failed, streamError('api_error', 'Internal server error'))).toHaveLength(1);
    expect(feed(failed, messageStop(), streamError('overloaded_error'))).toStrictEqual([]);
  });

  it('fails with protocol_error on a second message_start', () => {
    const inputs = feed(new AnthropicAdapter(), messageStart(), messageStart(), textStart(0));
    expect(inputs).toStrictEqual<MachineInput[]>([
      {
        type: 'fail',
        status: 'failed',
        error: {
          category: 'protocol_error',
          retryable: false,
          provider_code: null,
          message: 'anthropic: second message_start in one stream',
        },
      },
    ]);
  });

  it.each([
    ['content_block_start without index', sse({ type: 'content_block_start', content_block: { type: 'text', text: '' } })],
    ['content_block_start without content_block', sse({ type: 'content_block_start', index: 0 })],
    [
      'content_block_start with a string index',
      sse({ type: 'content_block_start', index: '0', content_block: { type: 'text', text: '' } }),
    ],
    ['content_block_delta without delta', sse({ type: 'content_block_delta', index: 0 })],
    ['content_block_delta with a null delta', sse({ type: 'content_block_delta', index: 0, delta: null })],
    ['content_block_stop without index', sse({ type: 'content_block_stop' })],
    ['a data line that is JSON but not an object', sse('[1,2,3]', 'content_block_delta')],
    ['a data line that is not JSON', sse('{"type":"content_block_delta","index":0', 'content_block_delta')],
  ])('fails with protocol_error on %s', (_what, record) => {
    const inputs = feed(new AnthropicAdapter(), record, messageStop());
    expect(inputs).toHaveLength(1);
    expect(inputs[0]).toMatchObject({
      type: 'fail',
      status: 'failed',
      error: { category: 'protocol_error', retryable: false, provider_code: null },
    });
  });

  it.each([
    [
      'a payload with an unexpected token',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Jane Doe, DOB 1961-04-02", "x": undefined}}',
    ],
    ['a plain-text data line', 'The patient Jane Doe, DOB 1961-04-02'],
  ])('never quotes the payload in the protocol error message (%s)', (_what, data) => {
    // V8's JSON.parse messages quote the text around the error, which here is completion content; a
    // stream.error message must be safe to show and stable across Node versions.
    expect(feed(new AnthropicAdapter(), sse(data, 'content_block_delta'))).toStrictEqual<MachineInput[]>([
      {
        type: 'fail',
        status: 'failed',
        error: {
          category: 'protocol_error',
          retryable: false,
          provider_code: null,
          message: 'anthropic content_block_delta: payload is not valid JSON',
        },
      },
    ]);
    expect(feed(new AnthropicAdapter(), sse('[1]'))).toStrictEqual<MachineInput[]>([
      {
        type: 'fail',
        status: 'failed',
        error: {
          category: 'protocol_error',
          retryable: false,
          provider_code: null,
          message: 'anthropic event: payload is JSON but not an object',
        },
      },
    ]);
  });

  it('returns nothing at the end of the body: the session adds the interruption', () => {
    const end: AttemptEndRecord = { kind: 'attempt.end', raw_seq: 9, ts: 9, attempt: 1, reason: 'eof' };
    const adapter = new AnthropicAdapter();
    feed(adapter, messageStart(), textStart(0), textDelta(0, 'x'));
    expect(adapter.end(end)).toStrictEqual([]);
  });
});

describe('AnthropicAdapter HTTP responses', () => {
  it('returns nothing for a success status, and fails once for an error status', () => {
    const adapter = new AnthropicAdapter();
    expect(adapter.response(response(200))).toStrictEqual([]);
    expect(
      adapter.response(response(429, errorBody('rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit'))),
    ).toHaveLength(1);
    expect(feed(adapter, messageStart(), textStart(0), textDelta(0, 'late'))).toStrictEqual([]);
  });

  it.each([
    [429, 'rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit', 'rate_limited', true],
    [529, 'overloaded_error', 'Overloaded', 'upstream_overloaded', true],
    [401, 'authentication_error', 'invalid x-api-key', 'authentication', false],
    [403, 'permission_error', 'Your API key does not have permission to use the specified resource.', 'authentication', false],
    [400, 'invalid_request_error', 'max_tokens: Field required', 'invalid_request', false],
    [404, 'not_found_error', 'model: claude-nope', 'invalid_request', false],
    [413, 'request_too_large', 'Request exceeds the maximum allowed number of bytes.', 'invalid_request', false],
    [500, 'api_error', 'Internal server error', 'upstream_error', true],
    [504, 'timeout_error', 'Request timed out', 'upstream_error', true],
  ] as const)('HTTP %i %s -> %s (retryable %s), provider_code the error type', (status, type, message, category, retryable) => {
    expect(new AnthropicAdapter().response(response(status, errorBody(type, message)))).toStrictEqual<MachineInput[]>([
      { type: 'fail', status: 'failed', error: { category, retryable, provider_code: type, message, http_status: status } },
    ]);
  });

  it('does not mark the monthly spend-cap 429 retryable', () => {
    const body = JSON.stringify({
      type: 'error',
      error: {
        type: 'rate_limit_error',
        message: 'You have reached your specified API usage limits.',
        details: { error_code: 'enforced_spend_limit_reached' },
      },
      request_id: 'req_011CTestTestTestTestTest',
    });
    expect(new AnthropicAdapter().response(response(429, body))).toMatchObject([
      {
        type: 'fail',
        error: { category: 'rate_limited', retryable: false, provider_code: 'enforced_spend_limit_reached', http_status: 429 },
      },
    ]);
  });

  it('falls back to the status for a body that is not JSON (a proxy page) or has no error object', () => {
    const html = '<html><head><title>502 Bad Gateway</title></head><body>cloudflare</body></html>';
    expect(new AnthropicAdapter().response(response(502, html))).toStrictEqual<MachineInput[]>([
      {
        type: 'fail',
        status: 'failed',
        error: {
          category: 'upstream_error',
          retryable: true,
          provider_code: '502',
          message: 'upstream answered HTTP 502',
          http_status: 502,
        },
      },
    ]);
    expect(new AnthropicAdapter().response(response(503, '{"message":"unavailable"}'))).toStrictEqual<MachineInput[]>([
      {
        type: 'fail',
        status: 'failed',
        error: {
          category: 'upstream_overloaded',
          retryable: true,
          provider_code: '503',
          message: 'upstream answered HTTP 503',
          http_status: 503,
        },
      },
    ]);
    expect(new AnthropicAdapter().response(response(401))).toStrictEqual<MachineInput[]>([
      {
        type: 'fail',
        status: 'failed',
        error: {
          category: 'authentication',
          retryable: false,
          provider_code: '401',
          message: 'upstream answered HTTP 401',
          http_status: 401,
        },
      },
    ]);
  });
});

describe('AnthropicAdapter through the state machine', () => {
  const body = (...records: string[]): string => records.join('');

  it('fails with protocol_error on a delta or a stop for a block that was never started', () => {
    for (const record of [textDelta(3, 'x'), textDelta(3, ''), jsonDelta(3, ''), blockStop(3)]) {
      const events = normalize(body(messageStart(), record, messageStop()));
      expect(checkInvariants(events)).toStrictEqual([]);
      expect(terminalOf(events)).toMatchObject({ type: 'stream.error', status: 'failed', error: { category: 'protocol_error' } });
    }
  });

  it.each([
    ['a second content_block_start for an open block', [textStart(0), textDelta(0, 'a'), textStart(0)], /already open/],
    [
      'a content_block_start after the block stopped',
      [textStart(0), textDelta(0, 'a'), blockStop(0), textStart(0)],
      /after its block.stop/,
    ],
    ['a delta after content_block_stop', [textStart(0), textDelta(0, 'a'), blockStop(0), textDelta(0, 'b')], /after its block.stop/],
    ['a second content_block_stop', [textStart(0), textDelta(0, 'a'), blockStop(0), blockStop(0)], /second block.stop/],
    ['a text_delta in a tool_use block', [toolStart(0), textDelta(0, 'a')], /block.delta of kind text in tool_call/],
    ['an input_json_delta in a text block', [textStart(0), jsonDelta(0, '{')], /block.delta of kind json_text in text/],
    [
      'tool arguments that do not parse at content_block_stop',
      [toolStart(0), jsonDelta(0, '{"a": '), blockStop(0)],
      /closed, but arguments are not valid JSON/,
    ],
    ['tool arguments that are a JSON array', [toolStart(0), jsonDelta(0, '[1]'), blockStop(0)], /arguments are an array/],
    ['message_stop while a block is open', [textStart(0), textDelta(0, 'a'), messageDelta('end_turn'), messageStop()], /still open/],
  ])('fails with protocol_error on %s', (_what, records, message) => {
    const events = normalize(body(messageStart(), ...records, messageStop()));
    expect(checkInvariants(events)).toStrictEqual([]);
    const terminal = terminalOf(events);
    expect(terminal).toMatchObject({ type: 'stream.error', status: 'failed', error: { category: 'protocol_error', retryable: false } });
    if (terminal.type === 'stream.error') expect(terminal.error.message).toMatch(message);
  });

  it('fails without a phantom block on a second content_block_start for the index of a skipped block', () => {
    const serverTool = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} };
    const events = normalize(
      body(messageStart(), blockStart(0, serverTool), blockStop(0), blockStart(0, serverTool), messageDelta('end_turn'), messageStop()),
    );
    expect(checkInvariants(events)).toStrictEqual([]);
    expect(events.filter((event) => event.type === 'block.start')).toStrictEqual([]);
    expect(terminalOf(events)).toMatchObject({
      type: 'stream.error',
      status: 'failed',
      error: { category: 'protocol_error', message: 'anthropic: second content_block_start for index 0' },
    });
  });

  it('keys blocks by the provider index, in order of first appearance, whatever the index values', () => {
    const events = normalize(
      body(
        messageStart(),
        textStart(5),
        textDelta(5, 'five'),
        blockStop(5),
        textStart(2),
        textDelta(2, 'two'),
        blockStop(2),
        messageDelta('end_turn'),
        messageStop(),
      ),
    );
    const starts = events.flatMap((event) => (event.type === 'block.start' ? [event.block.index] : []));
    expect(starts).toStrictEqual([0, 1]);
    expect(terminalOf(events)).toMatchObject({ type: 'stream.done', status: 'completed' });
  });

  it('completes a zero-parameter tool call whose only fragment is "" with arguments {}', () => {
    const events = normalize(
      body(messageStart(), toolStart(0, 'list_alarms'), jsonDelta(0, ''), blockStop(0), messageDelta('tool_use'), messageStop()),
    );
    expect(checkInvariants(events)).toStrictEqual([]);
    expect(events.map((event) => event.type)).toStrictEqual(['stream.start', 'block.start', 'block.stop', 'stream.done']);
  });

  it('turns an error event into stream.error without a fake block.stop for the open block', () => {
    const events = normalize(body(messageStart(), textStart(0), textDelta(0, 'par'), streamError('overloaded_error', 'Overloaded')));
    expect(events.map((event) => event.type)).toStrictEqual(['stream.start', 'block.start', 'block.delta', 'stream.error']);
  });
});
