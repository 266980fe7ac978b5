import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { ContractEvent } from '@llm-stream/contract';
import { startNatsServer, type NatsServerHandle } from '@llm-stream/testing';
import { keys, ofStream, publishStored, range, take } from '../test/nats-events.js';
import { textStream, words } from '../test/stream-fixtures.js';
import { LlmStreamClient } from './llm-stream-client.js';
import { ensurePipelineStreams } from '@llm-stream/pipeline';
import type { SeqCheckpointStore } from './seq-checkpoint-store.js';

/** Short waits so that redeliveries after a crash come within the test. */
const TIMINGS = { gapTimeoutMs: 300 } as const;
const ACK_WAIT_MS = 1_500;

describe('LlmStreamClient.durableTenantStreams across backend restarts (real nats-server)', () => {
  let server: NatsServerHandle;
  let publisher: NatsConnection;
  let jsm: JetStreamManager;
  let tenantCounter = 0;
  /** Stream ids must differ across tests too: `Nats-Msg-Id` is `<stream_id>:<seq>`, whatever the tenant. */
  const nextTenant = (): string => `durable${String((tenantCounter += 1))}`;
  const connections: NatsConnection[] = [];
  /** One connection per backend process: a crash closes it. */
  const backendConnection = async (): Promise<NatsConnection> => {
    const nc = await connect({ servers: server.url });
    connections.push(nc);
    return nc;
  };

  beforeAll(async () => {
    server = await startNatsServer();
    publisher = await connect({ servers: server.url });
    jsm = await jetstreamManager(publisher);
    await ensurePipelineStreams(jsm);
  });

  afterAll(async () => {
    for (const nc of connections) await nc.close();
    await publisher.close();
    await server.stop();
  });

  it('a backend stopped with close() and started again loses nothing and repeats nothing', async () => {
    const tenant = nextTenant();
    const a = textStream(`${tenant}_a`, tenant, words(10));
    const b = textStream(`${tenant}_b`, tenant, words(10));
    await publishStored(publisher, jsm, tenant, a.slice(0, 8));
    await publishStored(publisher, jsm, tenant, b.slice(0, 4));

    const first = new LlmStreamClient(await backendConnection(), { tenant, ...TIMINGS });
    const firstRun = first.durableTenantStreams('billing', { ackWaitMs: ACK_WAIT_MS });
    const delivered: ContractEvent[] = [];
    for await (const event of firstRun) {
      delivered.push(event);
      // A shutdown signal while processing: the loop ends after this event, which counts as processed.
      if (delivered.length === 7) void firstRun.close();
    }
    expect(delivered).toHaveLength(7);
    await publishStored(publisher, jsm, tenant, a.slice(8), 8);
    await publishStored(publisher, jsm, tenant, b.slice(4), 4);

    const second = new LlmStreamClient(await backendConnection(), { tenant, ...TIMINGS });
    const secondRun = second.durableTenantStreams('billing');
    delivered.push(...(await take(secondRun[Symbol.asyncIterator](), a.length + b.length - 7)));
    await secondRun.close();
    expect(new Set(keys(delivered)).size).toBe(a.length + b.length);
    expect(ofStream(delivered, a[0]!.stream_id)).toEqual(range(a.length));
    expect(ofStream(delivered, b[0]!.stream_id)).toEqual(range(b.length));
  });

  it('after a crash mid-event, the next backend gets that event again and then the rest, even events it meets first', async () => {
    const tenant = nextTenant();
    const a = textStream(`${tenant}_a`, tenant, words(12));
    const late = textStream(`${tenant}_late`, tenant, words(2));
    await publishStored(publisher, jsm, tenant, a.slice(0, 9));

    const crashing = await backendConnection();
    const firstRun = new LlmStreamClient(crashing, { tenant, ...TIMINGS }).durableTenantStreams('audit', { ackWaitMs: ACK_WAIT_MS });
    const beforeCrash = await take(firstRun[Symbol.asyncIterator](), 5);
    // The process dies while handling seq 5: its ack is never sent, and seq 6..9 were delivered, unacked.
    await crashing.flush();
    await crashing.close();
    // Newer events are stored before the next backend starts: it receives them before the redeliveries.
    await publishStored(publisher, jsm, tenant, a.slice(9), 9);
    await publishStored(publisher, jsm, tenant, late);

    const secondRun = new LlmStreamClient(await backendConnection(), { tenant, ...TIMINGS }).durableTenantStreams('audit');
    const afterCrash = await take(secondRun[Symbol.asyncIterator](), a.length - 4 + late.length);
    await secondRun.close();
    expect(ofStream(beforeCrash, a[0]!.stream_id)).toEqual(range(5));
    expect(ofStream(afterCrash, a[0]!.stream_id)).toEqual(range(a.length).slice(4));
    expect(ofStream(afterCrash, late[0]!.stream_id)).toEqual(range(late.length));
    expect(secondRun.stats.joinedMidStream).toBe(1);
  });

  it('with the seq committed in the backend\'s own transaction, every effect happens exactly once across a crash', async () => {
    const tenant = nextTenant();
    const a = textStream(`${tenant}_a`, tenant, words(8));
    await publishStored(publisher, jsm, tenant, a);
    // The backend's database: each effect is committed together with the stream's last processed seq.
    const committed = new Map<string, number>();
    const effects: string[] = [];
    const commit = (event: ContractEvent): void => {
      effects.push(`${event.stream_id}:${event.seq}`);
      committed.set(event.stream_id, event.seq);
    };
    const checkpoints: SeqCheckpointStore = { load: (streamId) => committed.get(streamId), save: () => undefined };

    const crashing = await backendConnection();
    const firstClient = new LlmStreamClient(crashing, { tenant, ...TIMINGS });
    const firstRun = firstClient.durableTenantStreams('ledger', { ackWaitMs: ACK_WAIT_MS, checkpoints });
    const iterator = firstRun[Symbol.asyncIterator]();
    for (const event of await take(iterator, 3)) commit(event);
    await take(iterator, 1);
    // Crash while handling seq 4, without even flushing: whichever acks reached the server, 1..3 are done.
    await crashing.close();

    const secondClient = new LlmStreamClient(await backendConnection(), { tenant, ...TIMINGS });
    const secondRun = secondClient.durableTenantStreams('ledger', { checkpoints });
    for (const event of await take(secondRun[Symbol.asyncIterator](), a.length - 3)) commit(event);
    await secondRun.close();
    expect(effects).toEqual(range(a.length).map((seq) => `${a[0]!.stream_id}:${seq}`));
  });

  it('leaving the loop with break hands the current event back: the next run gets it again', async () => {
    const tenant = nextTenant();
    const a = textStream(`${tenant}_a`, tenant, words(4));
    await publishStored(publisher, jsm, tenant, a);
    const firstClient = new LlmStreamClient(await backendConnection(), { tenant, ...TIMINGS });
    const firstRun = firstClient.durableTenantStreams('mailer', { ackWaitMs: 60_000 });
    const seen: number[] = [];
    for await (const event of firstRun) {
      seen.push(event.seq);
      if (event.seq === 3) break; // e.g. processing failed
    }
    // Handed back (nak), not left to the 60 s ack wait: the next run gets it within seconds.
    const secondRun = new LlmStreamClient(await backendConnection(), { tenant, ...TIMINGS }).durableTenantStreams('mailer');
    seen.push(...(await take(secondRun[Symbol.asyncIterator](), a.length - 2)).map((event) => event.seq));
    await secondRun.close();
    expect(seen).toEqual([1, 2, 3, ...range(a.length).slice(2)]);
    // 90 s, not the 30 s default: in about one run of six the handed-back event reaches the stopped reader's
    // last pull and comes back only after the 60 s ack wait (a known race of the hand-back, open in the
    // transport-edge work); the event is still delivered exactly once, which is what this test proves.
  }, 90_000);

  it('refuses a durable consumer of the same name that reads another tenant', async () => {
    const other = new LlmStreamClient(await backendConnection(), { tenant: nextTenant() });
    const otherRun = other.durableTenantStreams('shared-name');
    const waiting = otherRun[Symbol.asyncIterator]().next();
    await otherRun.started();
    await otherRun.close();
    await waiting;
    const mine = new LlmStreamClient(await backendConnection(), { tenant: nextTenant() });
    await expect(mine.durableTenantStreams('shared-name')[Symbol.asyncIterator]().next()).rejects.toMatchObject({
      name: 'LlmStreamClientError',
      code: 'consumer_mismatch',
    });
  });
});
