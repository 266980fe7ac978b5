import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { ContractEvent } from '@llm-stream/contract';
import { startNatsServer, type NatsServerHandle } from '@llm-stream/testing';
import { collect, keys, ofStream, publishEvents, publishStored, range, take, waitForStored, RECONNECTING } from '../test/nats-events.js';
import { textStream, words } from '../test/stream-fixtures.js';
import { LlmStreamClient } from './llm-stream-client.js';
import { ensurePipelineStreams } from '@llm-stream/pipeline';

const TENANT = 'acme';
/** The durable consumer reads a tenant of its own: `all` would also bring the other tests' streams. */
const DURABLE_TENANT = 'durable';

describe('LlmStreamClient across a nats-server crash and restart (same port, same store)', () => {
  let server: NatsServerHandle;
  let nc: NatsConnection;
  let publisher: NatsConnection;
  let jsm: JetStreamManager;
  let client: LlmStreamClient;

  beforeAll(async () => {
    server = await startNatsServer();
    nc = await connect({ servers: server.url, ...RECONNECTING });
    publisher = await connect({ servers: server.url, ...RECONNECTING });
    // A short API timeout: the first request after the restart may go unanswered, and waits retry it.
    jsm = await jetstreamManager(publisher, { timeout: 1_000 });
    await ensurePipelineStreams(jsm);
    client = new LlmStreamClient(nc, { tenant: TENANT });
  });

  afterAll(async () => {
    await client.close();
    await nc.close();
    await publisher.close();
    await server.stop();
  });

  /**
   * SIGKILL, restart, then what a normalizer taking over does: republish the last events it cannot prove
   * stored (after the duplicate window, so storage holds them twice), then go on with the rest.
   */
  async function crashAndContinue(streams: readonly (readonly ContractEvent[])[], cut: number, tenant = TENANT): Promise<void> {
    await server.kill();
    await server.restart();
    for (const events of streams) {
      await waitForStored(jsm, tenant, events[0]!.stream_id, cut);
      await publishEvents(publisher, tenant, events.slice(cut - 3, cut), ':again');
      await publishStored(publisher, jsm, tenant, events.slice(cut), cut + 3);
    }
  }

  /** The rest of an iteration already begun. */
  function rest(iterator: AsyncIterator<ContractEvent>): AsyncIterable<ContractEvent> {
    return { [Symbol.asyncIterator]: () => iterator };
  }

  it('stream(): goes on after the restart with no gap and no duplicate', async () => {
    const events = textStream('st_reconnect_one', TENANT, words(30));
    await publishStored(publisher, jsm, TENANT, events.slice(0, 15));
    const subscription = client.stream('st_reconnect_one');
    const iterator = subscription[Symbol.asyncIterator]();
    const before = await take(iterator, 15);
    await crashAndContinue([events], 15);
    expect([...before, ...(await collect(rest(iterator)))]).toEqual(events);
    expect(subscription.stats.duplicates).toBe(3);
  });

  it('tenantStreams(): every stream goes on after the restart, exactly once and in order', async () => {
    const a = textStream('st_reconnect_a', TENANT, words(20));
    const b = textStream('st_reconnect_b', TENANT, words(20));
    const subscription = client.tenantStreams();
    const iterator = subscription[Symbol.asyncIterator]();
    const first = iterator.next();
    await subscription.started();
    await publishStored(publisher, jsm, TENANT, a.slice(0, 10));
    await publishStored(publisher, jsm, TENANT, b.slice(0, 10));
    const before = [(await first).value as ContractEvent, ...(await take(iterator, 19))];
    await crashAndContinue([a, b], 10);
    const delivered = [...before, ...(await take(iterator, a.length + b.length - 20))];
    await subscription.close();
    expect(new Set(keys(delivered)).size).toBe(delivered.length);
    expect(ofStream(delivered, 'st_reconnect_a')).toEqual(range(a.length));
    expect(ofStream(delivered, 'st_reconnect_b')).toEqual(range(b.length));
  });

  it('durableTenantStreams(): the durable consumer survives the restart with its acks', async () => {
    const durableClient = new LlmStreamClient(nc, { tenant: DURABLE_TENANT });
    const events = textStream('st_reconnect_durable', DURABLE_TENANT, words(20));
    await publishStored(publisher, jsm, DURABLE_TENANT, events.slice(0, 10));
    const subscription = durableClient.durableTenantStreams('reconnect-backend', { ackWaitMs: 2_000 });
    const iterator = subscription[Symbol.asyncIterator]();
    const before = await take(iterator, 10);
    await crashAndContinue([events], 10, DURABLE_TENANT);
    const delivered = [...before, ...(await take(iterator, events.length - 10))];
    await subscription.close();
    expect(delivered).toEqual(events);
  });
});
