import { encodeTraceRecord, type TraceRecord } from '@llm-stream/contract';
import { TenantSettings } from '../config/tenant-settings.js';
import { CLIENT_REQUEST_RECORD, readRawMessage } from './read-raw-message.js';

const stream = { stream_id: 'st_1', tenant: 'acme', provider: 'anthropic', model: 'claude' } as const;
const subject = 'llm.raw.acme.st_1';
const lookup = (headers: Readonly<Record<string, string>>) => (name: string) => headers[name];

function read(record: TraceRecord, tenants = new TenantSettings([]), extra: Record<string, string> = {}) {
  const encoded = encodeTraceRecord(record, stream);
  return readRawMessage(subject, encoded.data, lookup({ ...extra, ...encoded.headers }), 42, tenants);
}

describe('readRawMessage', () => {
  it('keeps a frame exact, with its attempt, sequence numbers and trace id', () => {
    const text = 'event: ping\ndata: {"type": "ping"}\n\n';
    const traceparent = `00-${'ab'.repeat(16)}-${'1'.repeat(16)}-01`;
    expect(read({ kind: 'frame', raw_seq: 5, ts: 1000, attempt: 2, text }, undefined, { traceparent })).toEqual({
      ok: true,
      value: { type: 'record', tenant: 'acme', streamId: 'st_1', attempt: 2, rawSeq: 5, kind: 'frame', ts: 1000, jsSeq: 42, body: text, redacted: false, traceId: 'ab'.repeat(16) },
    });
  });

  it('marks partial frames and reads stream.open', () => {
    const partial = read({ kind: 'frame', raw_seq: 9, ts: 1, attempt: 1, text: 'data: {"x"', partial: true });
    expect(partial.ok && partial.value?.type === 'record' && partial.value.kind).toBe('frame.partial');
    const opened = read({ kind: 'stream.open', raw_seq: 1, ts: 1, stream_id: 'st_1', tenant: 'acme', provider: 'anthropic', model: 'claude', gateway_id: 'gw', max_attempts: 3 });
    expect(opened.ok && opened.value).toMatchObject({ attempt: 0, kind: 'stream.open', opened: { provider: 'anthropic', model: 'claude', gatewayId: 'gw' } });
  });

  it('redacts a credential echoed in an upstream error body and flags the record', () => {
    const result = read({ kind: 'upstream.response', raw_seq: 3, ts: 1, attempt: 1, status: 401, body: '{"error":{"message":"Incorrect API key provided: sk-abcdefghijklmnopqrstuv"}}' });
    expect(result.ok && result.value).toMatchObject({ redacted: true });
    if (result.ok && result.value?.type === 'record') expect(result.value.body).not.toContain('sk-abcdefghijklmnopqrstuv');
  });

  it('drops a client request unless the tenant captures prompts, and redacts it when it does', () => {
    const data = JSON.stringify({ kind: CLIENT_REQUEST_RECORD, raw_seq: 2, ts: 7, body: { model: 'm', messages: [{ content: 'hi' }], api_key: 'x' } });
    const headers = lookup({ 'Llm-Record': CLIENT_REQUEST_RECORD, 'Llm-Raw-Seq': '2' });
    expect(readRawMessage(subject, data, headers, 2, new TenantSettings([]))).toEqual({ ok: true, value: null });
    expect(readRawMessage(subject, data, headers, 2, TenantSettings.fromList('other,acme'))).toEqual({
      ok: true,
      value: { type: 'prompt', tenant: 'acme', streamId: 'st_1', ts: 7, prompt: '{"model":"m","messages":[{"content":"hi"}],"api_key":"[redacted]"}', traceId: null },
    });
  });

  it('refuses what is not a trace record of the subject', () => {
    expect(readRawMessage('llm.raw.acme', 'x', lookup({}), 1, new TenantSettings([])).ok).toBe(false);
    expect(readRawMessage(subject, 'x', lookup({ 'Llm-Record': 'nonsense' }), 1, new TenantSettings([])).ok).toBe(false);
    const foreign = encodeTraceRecord({ kind: 'stream.open', raw_seq: 1, ts: 1, stream_id: 'st_2', tenant: 'acme', provider: 'anthropic', model: 'm', gateway_id: 'g', max_attempts: 1 }, stream);
    expect(readRawMessage(subject, foreign.data, lookup(foreign.headers), 1, new TenantSettings([])).ok).toBe(false);
    expect(read({ kind: 'heartbeat', raw_seq: 2 ** 31, ts: 1 }).ok).toBe(false);
  });
});
