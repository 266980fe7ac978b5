import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { HEADERS, STREAM_NAMES, eventsSubject } from '@llm-stream/contract';
import { startNatsServer, waitFor, type NatsServerHandle } from '@llm-stream/testing';
import { headerBlock } from '../header-block.js';
import { ensurePipelineStreams } from '../pipeline-streams.js';
import { storedMessageCount } from '../stored-message-count.js';
import { AckedPublisher } from './acked-publisher.js';
import type { OutgoingMessage } from './outgoing-message.js';

function message(subject: string, n: number): OutgoingMessage {
  const msgId = `${subject}:${String(n)}`;
  return { msgId, position: n, headerBlock: headerBlock({ 'Nats-Msg-Id': msgId, [HEADERS.seq]: String(n) }), data: JSON.stringify({ n }) };
}

/** The positions the stream holds for `subject`, in stored order. */
async function storedOrder(js: JetStreamClient, stream: string, subject: string): Promise<number[]> {
  const consumer = await js.consumers.get(stream, { filter_subjects: subject });
  const order: number[] = [];
  const total = (await consumer.info()).num_pending;
  if (total === 0) return order;
  const messages = await consumer.fetch({ max_messages: total, expires: 2_000 });
  for await (const each of messages) {
    order.push(each.json<{ n: number }>().n);
    if (each.info.pending === 0) break;
  }
  return order;
}

describe('AckedPublisher (real nats-server with JetStream)', () => {
  let server: NatsServerHandle;
  let nc: NatsConnection;
  let js: JetStreamClient;
  let jsm: JetStreamManager;

  beforeAll(async () => {
    server = await startNatsServer();
    nc = await connect({ servers: server.url, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
    js = jetstream(nc);
    jsm = await jetstreamManager(nc);
    await ensurePipelineStreams(jsm);
  });

  afterAll(async () => {
    await nc.close();
    await server.stop();
  });

  it('stores every message, proven by its own ack, in order, and keeps nothing once acked', async () => {
    const subject = eventsSubject('acme', 'st_all');
    const publisher = new AckedPublisher(nc, js, STREAM_NAMES.events, subject, { positionHeader: HEADERS.seq });
    const progress: number[] = [];
    publisher.onProgress((through) => progress.push(through));
    for (let n = 1; n <= 1_000; n += 1) publisher.publish(message(subject, n));
    expect(publisher.unackedCount).toBe(1_000);
    expect(await publisher.finish()).toEqual({ published: 1_000, resent: 0, settledByRead: 0, fenced: 0 });
    expect(publisher.unackedCount).toBe(0);
    expect(publisher.ackedThrough).toBe(1_000);
    expect(progress.at(-1)).toBe(1_000);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(await storedOrder(js, STREAM_NAMES.events, subject)).toEqual(Array.from({ length: 1_000 }, (_, index) => index + 1));
  });

  it('resolves publishAndWait at the ack, and rejects it with a typed error when no ack comes in time (the message stays in flight)', async () => {
    const subject = eventsSubject('acme', 'st_wait');
    const publisher = new AckedPublisher(nc, js, STREAM_NAMES.events, subject, { positionHeader: HEADERS.seq });
    await publisher.publishAndWait(message(subject, 1), 5_000);
    expect(publisher.ackedThrough).toBe(1);
    const nowhere = new AckedPublisher(nc, js, 'TEST_NOWHERE', 'test.nowhere.st_wait', { positionHeader: HEADERS.seq, ackTimeoutMs: 100 });
    await expect(nowhere.publishAndWait(message('test.nowhere.st_wait', 1), 300)).rejects.toMatchObject({ name: 'PublishError', code: 'not_stored' });
    expect(nowhere.unackedCount).toBe(1);
    nowhere.close();
  });

  it('sends again what JetStream never stored until it is, and the ones it stored stay single (Nats-Msg-Id)', async () => {
    // A subject nobody captures yet: publishes to it get "no responders", as while a stream has no leader.
    const subject = 'test.loss.st_lossy';
    const publisher = new AckedPublisher(nc, js, 'TEST_LOSS', subject, { positionHeader: HEADERS.seq, ackTimeoutMs: 200 });
    for (let n = 1; n <= 5; n += 1) publisher.publish(message(subject, n));
    // Publishes go out at the end of the event loop turn (deferred-publishes.ts); then the refusals come back.
    await new Promise((resolve) => setImmediate(resolve));
    await nc.flush();
    await jsm.streams.add({ name: 'TEST_LOSS', subjects: ['test.loss.>'] });
    for (let n = 6; n <= 20; n += 1) publisher.publish(message(subject, n));
    const result = await publisher.finish();
    expect(result.published).toBe(20);
    expect(result.resent).toBeGreaterThanOrEqual(5);
    expect((await storedOrder(js, 'TEST_LOSS', subject)).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
  });

  it('keeps trying until closed, then fails whoever waits with a typed error', async () => {
    const subject = 'test.never.st_x';
    const publisher = new AckedPublisher(nc, js, 'TEST_NEVER', subject, { positionHeader: HEADERS.seq, ackTimeoutMs: 50 });
    publisher.publish(message(subject, 1));
    const finishing = publisher.finish();
    let settled = false;
    void finishing.catch(() => undefined).finally(() => (settled = true));
    await waitFor(() => publisher.resentCount >= 3, { timeoutMs: 5_000, description: 'several sends again' });
    expect(settled).toBe(false);
    publisher.close();
    await expect(finishing).rejects.toMatchObject({ name: 'PublishError', code: 'not_stored' });
  });

  it('fails whoever waits with a typed error when its connection closes for good', async () => {
    const own = await connect({ servers: server.url });
    const publisher = new AckedPublisher(own, jetstream(own), 'TEST_CLOSED', 'test.closed.st_x', { positionHeader: HEADERS.seq });
    publisher.publish(message('test.closed.st_x', 1));
    const finishing = publisher.finish();
    await own.close();
    await expect(finishing).rejects.toMatchObject({ name: 'PublishError', code: 'not_stored' });
  });

  it('continues a subject that already holds messages (a takeover): repeated positions are duplicates, not new messages', async () => {
    const subject = eventsSubject('acme', 'st_takeover');
    const first = new AckedPublisher(nc, js, STREAM_NAMES.events, subject, { positionHeader: HEADERS.seq });
    for (let n = 1; n <= 10; n += 1) first.publish(message(subject, n));
    await first.finish();
    const second = new AckedPublisher(nc, js, STREAM_NAMES.events, subject, { positionHeader: HEADERS.seq });
    for (let n = 8; n <= 15; n += 1) second.publish(message(subject, n));
    await second.finish();
    expect(await storedMessageCount(jsm, STREAM_NAMES.events, subject)).toBe(15);
  });

  it('loses nothing when the server is killed (-9) and restarted in the middle, and stores nothing twice', async () => {
    const subject = eventsSubject('acme', 'st_restart');
    const publisher = new AckedPublisher(nc, js, STREAM_NAMES.events, subject, { positionHeader: HEADERS.seq });
    for (let n = 1; n <= 300; n += 1) publisher.publish(message(subject, n));
    await server.kill('SIGKILL');
    // Published while the server is down: kept until acked, sent again at the reconnect.
    for (let n = 301; n <= 600; n += 1) publisher.publish(message(subject, n));
    const finishing = publisher.finish();
    await server.restart();
    await finishing;
    const order = await storedOrder(js, STREAM_NAMES.events, subject);
    expect(order).toHaveLength(600);
    expect(new Set(order).size).toBe(600);
    expect(publisher.unackedCount).toBe(0);
  });

  it('sends again what a paused server did not ack, once it answers, and stores nothing twice', async () => {
    const subject = eventsSubject('acme', 'st_pause');
    const publisher = new AckedPublisher(nc, js, STREAM_NAMES.events, subject, { positionHeader: HEADERS.seq, ackTimeoutMs: 300 });
    for (let n = 1; n <= 50; n += 1) publisher.publish(message(subject, n));
    await publisher.finish();
    await server.pause();
    for (let n = 51; n <= 100; n += 1) publisher.publish(message(subject, n));
    const finishing = publisher.finish();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    server.resume();
    const result = await finishing;
    expect(result.resent).toBeGreaterThan(0);
    const order = await storedOrder(js, STREAM_NAMES.events, subject);
    expect(order.sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, index) => index + 1));
  });

  it('settles a message older than the resend window by reading the subject first: one stored is not sent again', async () => {
    // A stream that stores without answering (no_ack) and forgets message ids after 100 ms: a blind second
    // copy of an unacked message would be stored twice.
    await jsm.streams.add({ name: 'TEST_SETTLE', subjects: ['test.settle.>'], no_ack: true, duplicate_window: 100_000_000 });
    const subject = 'test.settle.st_old';
    const publisher = new AckedPublisher(nc, js, 'TEST_SETTLE', subject, { positionHeader: HEADERS.seq, ackTimeoutMs: 300, resendWithinMs: 0 });
    publisher.publish(message(subject, 1));
    publisher.publish(message(subject, 2));
    const result = await publisher.finish();
    expect(result).toEqual({ published: 2, resent: 0, settledByRead: 2, fenced: 0 });
    expect(await storedOrder(js, 'TEST_SETTLE', subject)).toEqual([1, 2]);
  });

  it('fences a message: refused when another writer added to the subject since, which the owner hears; the trace stays whole', async () => {
    const subject = eventsSubject('acme', 'st_fence');
    const publisher = new AckedPublisher(nc, js, STREAM_NAMES.events, subject, { positionHeader: HEADERS.seq });
    let fenced = 0;
    publisher.onFenced(() => (fenced += 1));
    for (let n = 1; n <= 3; n += 1) publisher.publish(message(subject, n));
    await publisher.finish();
    publisher.fenceNext();
    publisher.publish(message(subject, 4));
    await publisher.finish();
    expect(fenced).toBe(0);
    // Another writer (a normalizer's gateway.lost) adds a message.
    await js.publish(subject, JSON.stringify({ n: 0 }), { msgID: `${subject}:other` });
    publisher.fenceNext();
    for (let n = 5; n <= 7; n += 1) publisher.publish(message(subject, n));
    expect(publisher.ackedThrough).toBe(4);
    expect(await publisher.finish()).toMatchObject({ fenced: 2 });
    expect(fenced).toBe(1);
    expect(await storedOrder(js, STREAM_NAMES.events, subject)).toEqual([1, 2, 3, 4, 0, 5, 6, 7]);
  });

  it('reports overflowing once more messages than its bound wait for acks', () => {
    const subject = 'test.overflow.st_x';
    const publisher = new AckedPublisher(nc, js, 'TEST_OVERFLOW', subject, { positionHeader: HEADERS.seq, maxUnacked: 3 });
    for (let n = 1; n <= 3; n += 1) publisher.publish(message(subject, n));
    expect(publisher.overflowing).toBe(false);
    publisher.publish(message(subject, 4));
    expect(publisher.overflowing).toBe(true);
    publisher.close();
  });
});

