// @llm-stream/service-kit (errorCode) also declares the decorated config classes, which need the metadata API.
import 'reflect-metadata';
import type { JsMsg } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { err, ok, type Result } from '@llm-stream/contract';
import { DurableConsumerLoop, nak } from '@llm-stream/pipeline';
import { startNatsServer, waitFor, type NatsServerHandle } from '@llm-stream/testing';
import { BatchIngestion, type BatchHandler, type Decoded, type IngestionObserver } from '../src/ingestion/batch-ingestion.js';
import type { UnstorableMessage } from '../src/ingestion/read-event-message.js';
import { openJetStream, type JetStreamSession } from './support/jetstream.js';

/**
 * Batch ingestion's contract with JetStream, on the durable consumer loop the JetStream transport runs (batch
 * delivery), against a real nats-server. The store is a small in-memory one with a
 * switch: these specs are about acks, naks and terminations, not about a database (the service specs run the
 * real ones, including a crashed PostgreSQL). The server runs without authorization: the loops read streams of
 * the spec's own, which no service's permissions name; the audit log's user is exercised by the service specs.
 */
class SwitchableStore implements BatchHandler<string> {
  readonly stored: string[] = [];
  available = true;
  commits = 0;
  pings = 0;

  decode(message: JsMsg): Result<string | null, UnstorableMessage> {
    const text = message.string();
    if (text === 'skip') return ok(null);
    if (text === 'garbage') return err({ code: 'not_an_event', message: 'garbage' });
    return ok(text);
  }

  commit(batch: readonly Decoded<string>[]): Promise<void> {
    this.commits += 1;
    if (!this.available) return Promise.reject(new Error('connection refused'));
    if (batch.some(({ item }) => item === 'poison')) return Promise.reject(new Error('value out of range'));
    for (const { item } of batch) if (!this.stored.includes(item)) this.stored.push(item);
    return Promise.resolve();
  }

  ping(): Promise<void> {
    this.pings += 1;
    return this.available ? Promise.resolve() : Promise.reject(new Error('connection refused'));
  }
}

class Recorder implements IngestionObserver {
  readonly events: string[] = [];
  skipped(): void {
    this.events.push('skipped');
  }
  rejected(_consumer: string, message: JsMsg): void {
    this.events.push(`rejected ${message.string()}`);
  }
  storeUnavailable(): void {
    this.events.push('unavailable');
  }
  storeAvailable(): void {
    this.events.push('available');
  }
}

describe('BatchIngestion (real nats-server with JetStream)', () => {
  let nats: NatsServerHandle;
  let session: JetStreamSession;
  let streamNumber = 0;
  const running: DurableConsumerLoop[] = [];

  beforeAll(async () => {
    nats = await startNatsServer();
    session = await openJetStream(await connect({ servers: nats.url }));
  });

  // A failed expectation must not leave a loop running (jest would not exit).
  afterEach(async () => {
    await Promise.all(running.splice(0).map((loop) => loop.stop()));
  });

  afterAll(async () => {
    await session.close();
    await nats.stop();
  });

  async function loopOver(messages: readonly string[], store: SwitchableStore, recorder: Recorder): Promise<{ loop: DurableConsumerLoop; pending: () => Promise<number>; info: () => ReturnType<JetStreamSession['jsm']['consumers']['info']>; subject: string }> {
    streamNumber += 1;
    const stream = `LOOP_${String(streamNumber)}`;
    await session.jsm.streams.add({ name: stream, subjects: [`loop${String(streamNumber)}.>`] });
    for (const text of messages) await session.js.publish(`loop${String(streamNumber)}.x`, text);
    const ingestion = new BatchIngestion(store, { consumer: 'test', ping: () => store.ping(), observer: recorder });
    const loop = new DurableConsumerLoop({
      nc: session.nc,
      js: session.js,
      jsm: session.jsm,
      // A short ack wait: an outage outlasts it many times over.
      consumer: { stream, durable: 'test', ackWaitMs: 1_000, maxAckPending: -1 },
      delivery: { kind: 'batch', batchSize: 8, lingerMs: 5, onFailure: nak(), handle: (batch, stopping) => ingestion.store(batch, stopping) },
    });
    running.push(loop);
    const info = () => session.jsm.consumers.info(stream, 'test');
    const pending = async (): Promise<number> => {
      const state = await info();
      return state.num_pending + state.num_ack_pending;
    };
    return { loop, pending, info, subject: `loop${String(streamNumber)}.x` };
  }

  it('acks what it stored, acks what needs no storing, terminates what can never be stored', async () => {
    const store = new SwitchableStore();
    const recorder = new Recorder();
    const texts = Array.from({ length: 40 }, (_, index) => `m${String(index)}`);
    const { loop, pending } = await loopOver([...texts.slice(0, 10), 'poison', 'skip', 'garbage', ...texts.slice(10)], store, recorder);
    await loop.start();
    await waitFor(async () => (await pending()) === 0, { description: 'every message to be settled' });
    await loop.stop();
    expect(store.stored).toEqual(texts);
    expect([...recorder.events].sort()).toEqual(['rejected garbage', 'rejected poison', 'skipped']);
    // Batched: far fewer transactions than messages.
    expect(store.commits).toBeLessThan(30);
  });

  it('holds everything while the store is away (no ack, no redelivery), reports it, and stores it all in order once it returns', async () => {
    const store = new SwitchableStore();
    const recorder = new Recorder();
    store.available = false;
    const texts = Array.from({ length: 30 }, (_, index) => `n${String(index)}`);
    const { loop, info } = await loopOver(texts, store, recorder);
    await loop.start();
    // The loop's own polls of the database measure the outage: several ack waits long.
    await waitFor(() => recorder.events.includes('unavailable') && store.pings >= 5, { description: 'an outage of several ack waits' });
    const held = await info();
    expect({ acked: held.ack_floor.stream_seq, held: held.num_ack_pending, redelivered: held.num_redelivered }).toEqual({ acked: 0, held: texts.length, redelivered: 0 });
    expect(store.stored).toEqual([]);
    store.available = true;
    await waitFor(async () => (await info()).ack_floor.stream_seq === texts.length, { description: 'everything to be stored after the outage' });
    await loop.stop();
    expect(store.stored).toEqual(texts);
    expect(recorder.events).toEqual(['unavailable', 'available']);
  });

  it('on stop, finishes the batch it commits and leaves the rest to JetStream', async () => {
    const store = new SwitchableStore();
    const recorder = new Recorder();
    const { loop, pending, subject } = await loopOver(['a', 'b', 'c'], store, recorder);
    await loop.start();
    await waitFor(() => store.stored.length === 3, { description: 'the first messages to be stored' });
    await loop.stop();
    await session.js.publish(subject, 'after stop');
    expect(await pending()).toBe(1);
  });
});
