import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { encodeTraceRecord, type ContractEvent, type TraceRecord, type TraceStreamInfo } from '@llm-stream/contract';
import { EncodedHeaders } from './encoded-headers.js';
import { EventMessageEncoder } from './event-message-encoder.js';
import { headerBlock, headersOfBlock } from './header-block.js';
import { TraceMessageEncoder } from './trace-message-encoder.js';

const TRANSCRIPTS = resolve(__dirname, '../../../conformance/transcripts');
const TRACE = { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' };

function pairsOf(block: string): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const [name, values] of headersOfBlock(block)) pairs[name] = values.join(',');
  return pairs;
}

describe('EventMessageEncoder', () => {
  const events: ContractEvent[] = readdirSync(join(TRANSCRIPTS, 'anthropic'))
    .filter((file) => file.endsWith('.events.json'))
    .flatMap((file) => JSON.parse(readFileSync(join(TRANSCRIPTS, 'anthropic', file), 'utf8')) as ContractEvent[]);

  it('writes every header of the contract, serialized once per stream', () => {
    const encoder = new EventMessageEncoder('acme', 'st_conformance', TRACE);
    for (const event of events) {
      const message = encoder.encode(event);
      expect(pairsOf(message.headerBlock)).toEqual({
        ...TRACE,
        'Llm-Stream-Id': 'st_conformance',
        'Llm-Tenant': 'acme',
        'Nats-Msg-Id': `st_conformance:${String(event.seq)}`,
        'Llm-Seq': String(event.seq),
        'Llm-Event-Type': event.type,
        'Llm-Ts': String(event.ts),
        ...('block' in event && { 'Llm-Block-Kind': event.block.kind }),
      });
      expect(JSON.parse(message.data)).toEqual(event);
      expect(message).toMatchObject({ msgId: `st_conformance:${String(event.seq)}`, position: event.seq });
    }
    expect(encoder.subject).toBe('llm.events.acme.st_conformance');
  });

  it("refuses another stream's event (a programming error)", () => {
    const encoder = new EventMessageEncoder('acme', 'st_other');
    expect(() => encoder.encode(events[0]!)).toThrow(/st_conformance/);
  });

  it('refuses stream headers that would forge another header', () => {
    expect(() => new EventMessageEncoder('acme', 'st_1', { traceparent: 'x\r\nLlm-Tenant: globex' })).toThrow(/line break/);
  });
});

describe('TraceMessageEncoder', () => {
  const stream: TraceStreamInfo = { stream_id: 'st_1', tenant: 'acme', provider: 'anthropic', model: 'claude-sonnet-4-5' };
  const records: TraceRecord[] = [
    { kind: 'stream.open', raw_seq: 1, ts: 10, stream_id: 'st_1', tenant: 'acme', provider: 'anthropic', model: 'claude-sonnet-4-5', gateway_id: 'gw-1', max_attempts: 3 },
    { kind: 'client.request', raw_seq: 2, ts: 11, body: { messages: [] } },
    { kind: 'attempt.start', raw_seq: 3, ts: 12, attempt: 1 },
    { kind: 'upstream.response', raw_seq: 4, ts: 13, attempt: 1, status: 200, request_id: 'req_1' },
    { kind: 'frame', raw_seq: 5, ts: 14, attempt: 1, text: 'event: ping\ndata: {"type": "ping"}\n\n' },
    { kind: 'frame', raw_seq: 6, ts: 15, attempt: 1, text: 'data: {"ty', partial: true },
    { kind: 'attempt.end', raw_seq: 7, ts: 16, attempt: 1, reason: 'eof' },
    { kind: 'client.cancel', raw_seq: 8, ts: 17, reason: 'client_request' },
    { kind: 'gateway.lost', raw_seq: 9, ts: 18, gateway_id: 'gw-1' },
    { kind: 'gateway.shutdown', raw_seq: 10, ts: 19, gateway_id: 'gw-1' },
    { kind: 'heartbeat', raw_seq: 11, ts: 20 },
  ];

  it.each(records.map((record) => [record.kind, record] as const))('%s: the same headers and body as encodeTraceRecord', (_kind, record) => {
    const fast = new TraceMessageEncoder(stream, TRACE).encode(record);
    const reference = encodeTraceRecord(record, stream, TRACE);
    expect(pairsOf(fast.headerBlock)).toEqual(reference.headers);
    expect(fast.data).toBe(reference.data);
    expect(fast).toMatchObject({ msgId: reference.headers['Nats-Msg-Id'], position: record.raw_seq });
  });
});

describe('EncodedHeaders', () => {
  it('sends the block as is, reads through a parsed map, and is immutable', () => {
    const block = headerBlock({ 'Nats-Msg-Id': 'st_1:1', 'Llm-Seq': '1' });
    const headers = new EncodedHeaders(block);
    expect(new TextDecoder().decode(headers.encode())).toBe('NATS/1.0\r\nNats-Msg-Id: st_1:1\r\nLlm-Seq: 1\r\n\r\n');
    expect(headers.get('Llm-Seq')).toBe('1');
    expect(headers.has('Llm-Tenant')).toBe(false);
    expect(() => {
      headers.set('Llm-Seq');
    }).toThrow(/immutable/);
  });
});
