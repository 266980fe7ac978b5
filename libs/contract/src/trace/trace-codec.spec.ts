import { HEADERS } from '../nats/subjects.js';
import { decodeTraceRecord, encodeTraceRecord, type EncodedMessage, type TraceStreamInfo } from './trace-codec.js';
import { TRACE_RECORD_KINDS, type TraceRecord, type TraceRecordKind } from './trace-record.js';

const STREAM: TraceStreamInfo = { stream_id: 'st_1', tenant: 'acme', provider: 'anthropic', model: 'claude-test' };

const lookup =
  (headers: Readonly<Record<string, string>>) =>
  (name: string): string | undefined =>
    headers[name];

const decode = (message: EncodedMessage) => decodeTraceRecord(lookup(message.headers), message.data);

// One record of every kind, with every optional field where the kind has some. Typed as a Record over
// the kinds, so a new record kind does not compile until it has a round-trip case here.
const RECORDS: Readonly<Record<TraceRecordKind, readonly TraceRecord[]>> = {
  'stream.open': [
    { kind: 'stream.open', raw_seq: 1, ts: 1000, stream_id: 'st_1', tenant: 'acme', provider: 'anthropic', model: 'claude-test', gateway_id: 'gw-1', max_attempts: 2 },
    { kind: 'stream.open', raw_seq: 1, ts: 1000, stream_id: 'st_1', tenant: 'acme', provider: 'openai-chat', model: 'fast', route: 'azure-eu', gateway_id: 'gw-1', max_attempts: 2 },
    { kind: 'stream.open', raw_seq: 1, ts: 1000, stream_id: 'st_1', tenant: 'acme', provider: 'anthropic', model: 'claude-test', gateway_id: 'gw-1', max_attempts: 2, adapters: 3 },
  ],
  'client.request': [{ kind: 'client.request', raw_seq: 2, ts: 1001, body: { model: 'm', messages: [{ role: 'user', content: 'Привет' }] } }],
  'attempt.start': [{ kind: 'attempt.start', raw_seq: 2, ts: 1001, attempt: 1 }],
  'upstream.response': [
    { kind: 'upstream.response', raw_seq: 3, ts: 1002, attempt: 1, status: 200, content_type: 'text/event-stream', request_id: 'req_1' },
    { kind: 'upstream.response', raw_seq: 3, ts: 1002, attempt: 1, status: 429, retry_after_ms: 2000, body: '{"error":{"type":"rate_limit_error"}}' },
  ],
  frame: [
    { kind: 'frame', raw_seq: 4, ts: 1003, attempt: 1, text: 'event: ping\ndata: {"type": "ping"}\n\n' },
    { kind: 'frame', raw_seq: 5, ts: 1004, attempt: 2, text: 'data: {"candidates":[{"content":{"parts":[{"text":"Приве' , partial: true },
    { kind: 'frame', raw_seq: 6, ts: 1005, attempt: 1, text: '' },
  ],
  'attempt.end': [
    { kind: 'attempt.end', raw_seq: 7, ts: 1006, attempt: 1, reason: 'eof' },
    { kind: 'attempt.end', raw_seq: 7, ts: 1006, attempt: 1, reason: 'transport_error', detail: 'ECONNRESET' },
    { kind: 'attempt.end', raw_seq: 7, ts: 1006, attempt: 2, reason: 'aborted', detail: 'stream settled' },
  ],
  'client.cancel': [{ kind: 'client.cancel', raw_seq: 8, ts: 1007, reason: 'client_disconnected' }],
  'gateway.lost': [{ kind: 'gateway.lost', raw_seq: 9, ts: 1008, gateway_id: 'gw-1' }],
  'gateway.shutdown': [{ kind: 'gateway.shutdown', raw_seq: 9, ts: 1008, gateway_id: 'gw-1' }],
  heartbeat: [{ kind: 'heartbeat', raw_seq: 10, ts: 1009 }],
};

describe('trace codec round trip', () => {
  it.each(TRACE_RECORD_KINDS.flatMap((kind) => RECORDS[kind].map((record, i) => [`${kind} #${i}`, record] as const)))(
    '%s',
    (_name, record) => {
      expect(decode(encodeTraceRecord(record, STREAM))).toEqual({ ok: true, value: record });
    },
  );

  it('puts routing and deduplication fields in headers', () => {
    const { headers } = encodeTraceRecord({ kind: 'attempt.start', raw_seq: 2, ts: 1001, attempt: 1 }, STREAM);
    expect(headers).toEqual({
      [HEADERS.msgId]: 'st_1:r2',
      [HEADERS.streamId]: 'st_1',
      [HEADERS.tenant]: 'acme',
      [HEADERS.provider]: 'anthropic',
      [HEADERS.model]: 'claude-test',
      [HEADERS.record]: 'attempt.start',
      [HEADERS.rawSeq]: '2',
      [HEADERS.ts]: '1001',
      [HEADERS.attempt]: '1',
    });
  });

  it('carries frames as their exact text, not JSON, and marks partial frames in the record header', () => {
    const text = 'data: {"a": 1 }\r\n\r\n';
    const frame = encodeTraceRecord({ kind: 'frame', raw_seq: 4, ts: 1, attempt: 1, text }, STREAM);
    expect(frame.data).toBe(text);
    expect(frame.headers[HEADERS.record]).toBe('frame');
    const partial = encodeTraceRecord({ kind: 'frame', raw_seq: 5, ts: 1, attempt: 1, text, partial: true }, STREAM);
    expect(partial.headers[HEADERS.record]).toBe('frame.partial');
  });
});

describe('trace codec errors are typed values', () => {
  const frame = encodeTraceRecord({ kind: 'frame', raw_seq: 4, ts: 1003, attempt: 1, text: 'data: x\n\n' }, STREAM);
  const withHeaders = (message: EncodedMessage, change: Record<string, string | undefined>) => {
    const headers: Record<string, string> = { ...message.headers };
    for (const [name, value] of Object.entries(change)) {
      if (value === undefined) Reflect.deleteProperty(headers, name);
      else headers[name] = value;
    }
    return decodeTraceRecord(lookup(headers), message.data);
  };

  it('missing record header', () => {
    expect(withHeaders(frame, { [HEADERS.record]: undefined })).toEqual({
      ok: false,
      error: { code: 'missing_header', message: `missing ${HEADERS.record} header` },
    });
  });

  it.each([HEADERS.rawSeq, HEADERS.ts, HEADERS.attempt])('a frame without its %s header', (name) => {
    expect(withHeaders(frame, { [name]: undefined })).toEqual({ ok: false, error: { code: 'missing_header', message: `missing ${name} header` } });
  });

  it.each(['-1', '1.5', 'abc', '9007199254740993'])('a frame whose raw seq header is %p', (value) => {
    expect(withHeaders(frame, { [HEADERS.rawSeq]: value })).toEqual({
      ok: false,
      error: { code: 'bad_header', message: `${HEADERS.rawSeq} header is not a non-negative integer: ${value}` },
    });
  });

  // Number() reads '' as 0 and accepts ' 7', '0x10' and '1e3': a header must be plain decimal digits.
  it.each(['', ' 7', '0x10', '1e3', '+3'])('a frame whose ts header is %p', (value) => {
    expect(withHeaders(frame, { [HEADERS.ts]: value })).toEqual({
      ok: false,
      error: { code: 'bad_header', message: `${HEADERS.ts} header is not a non-negative integer: ${value}` },
    });
  });

  it('a record header naming no record kind', () => {
    expect(withHeaders(frame, { [HEADERS.record]: 'frames' })).toEqual({
      ok: false,
      error: { code: 'bad_header', message: `unknown ${HEADERS.record} header: frames` },
    });
  });

  it('a body whose kind disagrees with the record header', () => {
    const heartbeat = encodeTraceRecord({ kind: 'heartbeat', raw_seq: 3, ts: 5 }, STREAM);
    expect(decodeTraceRecord(lookup(heartbeat.headers), '{"kind":"gateway.lost","raw_seq":3,"ts":5,"gateway_id":"g"}')).toEqual({
      ok: false,
      error: { code: 'bad_body', message: `trace record body of kind gateway.lost under ${HEADERS.record} heartbeat` },
    });
  });

  it.each([
    ['content_type', 7],
    ['retry_after_ms', -5],
    ['request_id', null],
    ['body', {}],
  ])('an upstream.response whose optional %s is invalid', (field, value) => {
    const record = { kind: 'upstream.response', raw_seq: 3, ts: 1, attempt: 1, status: 200, [field]: value };
    const message = encodeTraceRecord({ kind: 'upstream.response', raw_seq: 3, ts: 1, attempt: 1, status: 200 }, STREAM);
    expect(decodeTraceRecord(lookup(message.headers), JSON.stringify(record))).toEqual({
      ok: false,
      error: { code: 'bad_body', message: `upstream.response record has a missing or invalid ${field}` },
    });
  });

  it('an attempt.end whose detail is not a string', () => {
    const message = encodeTraceRecord({ kind: 'attempt.end', raw_seq: 3, ts: 1, attempt: 1, reason: 'eof' }, STREAM);
    const result = decodeTraceRecord(lookup(message.headers), '{"kind":"attempt.end","raw_seq":3,"ts":1,"attempt":1,"reason":"eof","detail":5}');
    expect(!result.ok && result.error.code).toBe('bad_body');
  });

  it('a stream.open whose route is no route name', () => {
    const open = { kind: 'stream.open', raw_seq: 1, ts: 1, stream_id: 's', tenant: 't', provider: 'openai-chat', model: 'm', gateway_id: 'g', max_attempts: 1 } as const;
    const message = encodeTraceRecord(open, STREAM);
    const result = decodeTraceRecord(lookup(message.headers), JSON.stringify({ ...open, route: 'Azure EU' }));
    expect(!result.ok && result.error.code).toBe('bad_body');
  });

  it('a stream.open whose adapters build is no positive integer', () => {
    const open = { kind: 'stream.open', raw_seq: 1, ts: 1, stream_id: 's', tenant: 't', provider: 'openai-chat', model: 'm', gateway_id: 'g', max_attempts: 1 } as const;
    const message = encodeTraceRecord(open, STREAM);
    for (const adapters of [0, '3', 1.5]) {
      const result = decodeTraceRecord(lookup(message.headers), JSON.stringify({ ...open, adapters }));
      expect(!result.ok && result.error.code).toBe('bad_body');
    }
  });

  const attemptStart = encodeTraceRecord({ kind: 'attempt.start', raw_seq: 2, ts: 1001, attempt: 1 }, STREAM);

  it.each([
    ['a body that is not JSON', '{"kind":'],
    ['a body that is not an object', '"attempt.start"'],
    ['a null body', 'null'],
    ['an unknown kind', '{"kind":"attempt.retry","raw_seq":2,"ts":1}'],
    ['a frame as JSON', '{"kind":"frame","raw_seq":2,"ts":1,"attempt":1,"text":""}'],
    ['a missing field', '{"kind":"attempt.start","raw_seq":2,"ts":1}'],
    ['a negative field', '{"kind":"attempt.start","raw_seq":2,"ts":1,"attempt":-1}'],
    ['a wrong field type', '{"kind":"attempt.start","raw_seq":"2","ts":1,"attempt":1}'],
    ['an unknown provider', '{"kind":"stream.open","raw_seq":1,"ts":1,"stream_id":"s","tenant":"t","provider":"openai","model":"m","gateway_id":"g","max_attempts":1}'],
    ['an unknown attempt end reason', '{"kind":"attempt.end","raw_seq":1,"ts":1,"attempt":1,"reason":"closed"}'],
    ['an unknown cancel reason', '{"kind":"client.cancel","raw_seq":1,"ts":1,"reason":"timeout"}'],
  ])('%s', (_name, body) => {
    const result = decodeTraceRecord(lookup(attemptStart.headers), body);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe('bad_body');
  });
});
