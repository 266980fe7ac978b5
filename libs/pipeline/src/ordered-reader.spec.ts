import { jetstream, jetstreamManager, type JetStreamClient, type JsMsg } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { startNatsServer, waitFor, type NatsServerHandle } from '@llm-stream/testing';
import { OrderedReader } from './ordered-reader.js';

describe('OrderedReader (real nats-server with JetStream)', () => {
  let server: NatsServerHandle;
  let nc: NatsConnection;
  let js: JetStreamClient;

  beforeAll(async () => {
    server = await startNatsServer();
    nc = await connect({ servers: server.url, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
    js = jetstream(nc);
    await (await jetstreamManager(nc)).streams.add({ name: 'ORDERED', subjects: ['ordered.>'] });
  });

  afterAll(async () => {
    await nc.close();
    await server.stop();
  });

  /** JetStream publishes retried while the server restarts (a publish can also time out then). */
  async function publish(subject: string, n: number): Promise<void> {
    await waitFor(() => js.publish(subject, String(n), { msgID: `${subject}:${String(n)}` }).then(() => true), {
      timeoutMs: 30_000,
      intervalMs: 100,
      description: `message ${String(n)} to be stored`,
    });
  }

  /** Reads `count` message numbers in the background. */
  function read(reader: OrderedReader, count: number): { numbers: number[]; done: Promise<void> } {
    const numbers: number[] = [];
    const done = (async () => {
      for await (const message of reader) {
        numbers.push(Number(message.string()));
        if (numbers.length === count) break;
      }
    })();
    return { numbers, done };
  }

  it('reads the stored messages of one subject from the first, then the new ones as they come', async () => {
    for (let n = 1; n <= 5; n += 1) await publish('ordered.a', n);
    await publish('ordered.other', 99);
    const reader = read(new OrderedReader(js, 'ORDERED', 'ordered.a', { batch: 2 }), 8);
    await waitFor(() => reader.numbers.length === 5, { description: 'the stored messages' });
    for (let n = 6; n <= 8; n += 1) await publish('ordered.a', n);
    await reader.done;
    expect(reader.numbers).toStrictEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('goes on across server restarts: every message once, in order', async () => {
    const reader = read(new OrderedReader(js, 'ORDERED', 'ordered.b', { pullExpiresMs: 1_000 }), 30);
    for (let n = 1; n <= 10; n += 1) await publish('ordered.b', n);
    await waitFor(() => reader.numbers.length === 10, { description: 'the first ten' });
    const during = (async () => {
      for (let n = 11; n <= 20; n += 1) await publish('ordered.b', n);
    })();
    await server.restart();
    await during;
    await server.restart();
    for (let n = 21; n <= 30; n += 1) await publish('ordered.b', n);
    await reader.done;
    expect(reader.numbers).toStrictEqual(Array.from({ length: 30 }, (_unused, index) => index + 1));
  }, 90_000);

  it('ends an iteration that waits for messages when closed', async () => {
    const reader = new OrderedReader(js, 'ORDERED', 'ordered.quiet', { pullExpiresMs: 60_000 });
    const seen: JsMsg[] = [];
    const done = (async () => {
      for await (const message of reader) seen.push(message);
    })();
    await publish('ordered.quiet', 1);
    await waitFor(() => seen.length === 1, { description: 'the first message' });
    reader.close();
    await done;
    expect(seen.map((message) => message.string())).toStrictEqual(['1']);
  });

  it('reads headers only when asked', async () => {
    await js.publish('ordered.h', 'a payload', { msgID: 'h1' });
    const reader = new OrderedReader(js, 'ORDERED', 'ordered.h', { headersOnly: true });
    for await (const message of reader) {
      expect(message.data.length).toBe(0);
      expect(message.headers?.get('Nats-Msg-Id')).toBe('h1');
      break;
    }
  });

  it('starts while the server is down (its consumer lookup fails) and reads once it is back, instead of ending', async () => {
    await publish('ordered.late', 1);
    await server.kill('SIGKILL');
    const reader = read(new OrderedReader(js, 'ORDERED', 'ordered.late', { connection: nc }), 2);
    await server.restart();
    await publish('ordered.late', 2);
    await reader.done;
    expect(reader.numbers).toStrictEqual([1, 2]);
  }, 60_000);

  it('with its connection: goes on right after a kill -9 and restart, not at the expiry of the pull in flight', async () => {
    const reader = read(new OrderedReader(js, 'ORDERED', 'ordered.fast', { connection: nc, pullExpiresMs: 600_000 }), 2);
    await publish('ordered.fast', 1);
    await waitFor(() => reader.numbers.length === 1, { description: 'the first message' });
    await server.kill('SIGKILL');
    await server.restart();
    await publish('ordered.fast', 2);
    // Without the reconnect hook the pull in flight would wait for its 10 min expiry: the test would time out.
    await reader.done;
    expect(reader.numbers).toStrictEqual([1, 2]);
  }, 60_000);
});
