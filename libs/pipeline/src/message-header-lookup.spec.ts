import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { headers as natsHeaders, type Msg } from '@nats-io/nats-core';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { startNatsServer, type NatsServerHandle } from '@llm-stream/testing';
import { messageHeaderLookup, parseHeaderBlock, readsRawHeaders } from './message-header-lookup.js';

describe('parseHeaderBlock', () => {
  it('reads name: value lines after the status line, values trimmed, the first of a repeated name', () => {
    const pairs = parseHeaderBlock('NATS/1.0\r\nLlm-Seq: 7\r\nNats-Msg-Id:  st_1:7 \r\nTraceparent: 00-ab:cd\r\nLlm-Seq: 8\r\n\r\n');
    expect([...pairs]).toStrictEqual([
      ['Llm-Seq', '7'],
      ['Nats-Msg-Id', 'st_1:7'],
      ['Traceparent', '00-ab:cd'],
    ]);
  });

  it('reads a block with a status and no headers as empty, and skips a line without a colon', () => {
    expect([...parseHeaderBlock('NATS/1.0 503\r\n\r\n')]).toStrictEqual([]);
    expect([...parseHeaderBlock('NATS/1.0\r\nbroken\r\nA: 1\r\n\r\n')]).toStrictEqual([['A', '1']]);
  });
});

describe('messageHeaderLookup (real nats-server)', () => {
  let server: NatsServerHandle;
  let nc: NatsConnection;

  beforeAll(async () => {
    server = await startNatsServer();
    nc = await connect({ servers: server.url });
    await (await jetstreamManager(nc)).streams.add({ name: 'HDR', subjects: ['hdr.>'] });
  });

  afterAll(async () => {
    await nc.close();
    await server.stop();
  });

  const sent = { 'Llm-Seq': '12', 'Llm-Event-Type': 'block.delta', 'Llm-Model': 'claude-sonnet-4-5 (été)', Empty: '' };

  function headerSet(): ReturnType<typeof natsHeaders> {
    const h = natsHeaders();
    for (const [name, value] of Object.entries(sent)) h.set(name, value);
    return h;
  }

  it('reads the raw header bytes of a core message and agrees with nats.js on every header', async () => {
    const received = new Promise<Msg>((resolve) => {
      const sub = nc.subscribe('hdr.core', {
        callback: (_error, message) => {
          sub.unsubscribe();
          resolve(message);
        },
      });
    });
    nc.publish('hdr.core', 'x', { headers: headerSet() });
    const message = await received;
    // The fast path is taken on the installed nats.js (a change of its message class shows up here).
    expect(readsRawHeaders(message)).toBe(true);
    const lookup = messageHeaderLookup(message);
    for (const name of Object.keys(sent)) expect(lookup(name)).toBe(message.headers?.get(name));
    expect(lookup('Absent')).toBeUndefined();
  });

  it('reads the raw header bytes of a JetStream message too', async () => {
    const js = jetstream(nc);
    await js.publish('hdr.stored', 'x', { headers: headerSet(), msgID: 'hdr-1' });
    const consumer = await js.consumers.get('HDR', { filter_subjects: 'hdr.stored' });
    const message = await consumer.next({ expires: 5_000 });
    expect(message).not.toBeNull();
    expect(readsRawHeaders(message!)).toBe(true);
    const lookup = messageHeaderLookup(message!);
    for (const name of [...Object.keys(sent), 'Nats-Msg-Id']) expect(lookup(name)).toBe(message!.headers?.get(name));
  });

  it('falls back to the headers of a message it cannot read raw', () => {
    const headers = headerSet();
    expect(readsRawHeaders({ headers })).toBe(false);
    expect(messageHeaderLookup({ headers })('Llm-Seq')).toBe('12');
    expect(messageHeaderLookup({ headers: undefined })('Llm-Seq')).toBeUndefined();
  });
});
