import { encodeEventMessage } from '@llm-stream/pipeline';
import type { ContractEvent } from '@llm-stream/contract';
import { readEventMessage } from './read-event-message.js';

const start: ContractEvent = { type: 'stream.start', stream_id: 'st_1', seq: 1, ts: 10, provider: 'anthropic', model: 'm', tenant: 'acme' };
const lookup = (headers: Readonly<Record<string, string>>) => (name: string) => headers[name];

describe('readEventMessage', () => {
  it("keeps the payload as received, with the tenant of the subject, JetStream's message time and the trace id of the headers", () => {
    const message = encodeEventMessage(start, 'acme', { traceparent: `00-${'ef'.repeat(16)}-${'1'.repeat(16)}-01` });
    expect(readEventMessage(message.subject, message.data, lookup(message.headers), 1_234)).toEqual({
      ok: true,
      value: { tenant: 'acme', event: start, body: message.data, jsTime: 1_234, traceId: 'ef'.repeat(16) },
    });
  });

  it.each([
    ['not JSON', 'llm.events.acme.st_1', '{'],
    ['another stream', 'llm.events.acme.st_2', JSON.stringify(start)],
    ['no type', 'llm.events.acme.st_1', JSON.stringify({ ...start, type: 'nope' })],
    ['a seq beyond 32 bits', 'llm.events.acme.st_1', JSON.stringify({ ...start, seq: 2 ** 31 })],
    ['no ts', 'llm.events.acme.st_1', JSON.stringify({ ...start, ts: 'soon' })],
    ['not an event subject', 'llm.raw.acme', JSON.stringify(start)],
  ])('refuses %s', (_name, subject, data) => {
    expect(readEventMessage(subject, data, lookup({}), null).ok).toBe(false);
  });

  it('ignores a traceparent that is malformed or all zeros', () => {
    const zeros = `00-${'0'.repeat(32)}-${'1'.repeat(16)}-01`;
    for (const traceparent of [zeros, 'garbage']) {
      const read = readEventMessage('llm.events.acme.st_1', JSON.stringify(start), lookup({ traceparent }), null);
      expect(read.ok && read.value.traceId).toBeNull();
    }
  });
});
