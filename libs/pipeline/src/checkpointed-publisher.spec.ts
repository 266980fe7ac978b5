import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { HEADERS, STREAM_NAMES, eventsSubject } from '@llm-stream/contract';
import { startNatsServer, waitFor, type NatsServerHandle } from '@llm-stream/testing';
import { CheckpointedPublisher, storedMessageCount, type OutgoingMessage } from './checkpointed-publisher.js';
import { headerBlock } from './header-block.js';
import { toNatsHeaders } from './nats-headers.js';
import { ensurePipelineStreams } from './pipeline-streams.js';
import { storedPositions } from './stored-positions.js';

/** A real manager whose per-subject count for `subject` is `shortBy` below what the server answers. */
function miscountingManager(jsm: JetStreamManager, subject: string, shortBy: number): JetStreamManager {
  const streams = new Proxy(jsm.streams, {
    get(target, property, receiver) {
      if (property !== 'info') return Reflect.get(target, property, receiver) as unknown;
      return async (...args: Parameters<typeof target.info>) => {
        const info = await target.info(...args);
        const counted = info.state.subjects?.[subject];
        if (counted !== undefined) info.state.subjects = { ...info.state.subjects, [subject]: Math.max(0, counted - shortBy) };
        return info;
      };
    },
  });
  return new Proxy(jsm, { get: (target, property, receiver) => (property === 'streams' ? streams : (Reflect.get(target, property, receiver) as unknown)) });
}

function message(subject: string, n: number): OutgoingMessage {
  const msgId = `${subject}:${String(n)}`;
  return { msgId, position: n, headerBlock: headerBlock({ 'Nats-Msg-Id': msgId, [HEADERS.seq]: String(n) }), data: JSON.stringify({ n }) };
}

describe('CheckpointedPublisher (real nats-server with JetStream)', () => {
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

  it('stores every core-published message and proves it at finish, with nothing kept in memory', async () => {
    const subject = eventsSubject('acme', 'st_all');
    const publisher = new CheckpointedPublisher(nc, js, jsm, STREAM_NAMES.events, subject, { positionHeader: HEADERS.seq, checkpointEvery: 50 });
    for (let n = 1; n <= 1_000; n += 1) publisher.publish(message(subject, n));
    const result = await publisher.finish();
    expect(result).toEqual({ published: 1_000, stored: 1_000, republished: 0, provenBy: 'count' });
    expect(publisher.unconfirmedCount).toBe(0);
    expect(await storedMessageCount(jsm, STREAM_NAMES.events, subject)).toBe(1_000);
  });

  it('republishes what the stream never stored, and the ones it kept stay single (Nats-Msg-Id)', async () => {
    // A subject nobody captures yet: core publishes to it are dropped silently, like during a leader change.
    const subject = 'test.loss.st_lossy';
    const publisher = new CheckpointedPublisher(nc, js, jsm, 'TEST_LOSS', subject, { positionHeader: HEADERS.seq, checkpointEvery: 10_000 });
    for (let n = 1; n <= 5; n += 1) publisher.publish(message(subject, n));
    await nc.flush();
    await jsm.streams.add({ name: 'TEST_LOSS', subjects: ['test.loss.>'] });
    for (let n = 6; n <= 20; n += 1) publisher.publish(message(subject, n));
    const result = await publisher.finish();
    expect(result).toEqual({ published: 20, stored: 20, republished: 20, provenBy: 'count' });
    const stored: number[] = [];
    for (let seq = 1; seq <= 20; seq += 1) {
      const found = await jsm.streams.getMessage('TEST_LOSS', { seq });
      if (found) stored.push((found.json<{ n: number }>()).n);
    }
    expect(stored.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
  });

  it('republishes what a timed check finds missing while the subject is still being published, not only at its end', async () => {
    // Dropped like the core publishes of a JetStream leader change: the subject is captured only from 4 on.
    const subject = 'test.early.st_early';
    const publisher = new CheckpointedPublisher(nc, js, jsm, 'TEST_EARLY', subject, { positionHeader: HEADERS.seq, checkpointEvery: 10_000, repairAfterMs: 300 });
    for (let n = 1; n <= 3; n += 1) publisher.publish(message(subject, n));
    await nc.flush();
    await jsm.streams.add({ name: 'TEST_EARLY', subjects: ['test.early.>'] });
    publisher.publish(message(subject, 4));
    const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
    // A publish once the oldest unconfirmed message is 300 ms old runs a check, which republishes the old missing ones.
    for (let n = 5; n <= 12; n += 1) {
      await pause(120);
      publisher.publish(message(subject, n));
    }
    await waitFor(async () => (await storedMessageCount(jsm, 'TEST_EARLY', subject)) === 12, {
      timeoutMs: 5_000,
      description: 'the lost messages to be stored before the end of the subject',
    });
    expect(publisher.repairedEarly).toBeGreaterThanOrEqual(3);
    expect(await publisher.finish()).toEqual({ published: 12, stored: 12, republished: 0, provenBy: 'count' });
  });

  it('keeps trying to store what JetStream refuses until it is closed, then fails with a typed error', async () => {
    const subject = 'test.nowhere.st_x';
    const publisher = new CheckpointedPublisher(nc, js, jsm, 'TEST_LOSS', subject, { positionHeader: HEADERS.seq, retry: { firstMs: 10, maxMs: 20 } });
    publisher.publish(message(subject, 1));
    const finishing = publisher.finish();
    let settled = false;
    void finishing.catch(() => undefined).finally(() => (settled = true));
    // Still trying after several failed tries (each one a "no responders" answer from the server), where the
    // old publisher had long given up.
    for (let trip = 0; trip < 20; trip += 1) await nc.flush();
    expect(settled).toBe(false);
    publisher.close();
    await expect(finishing).rejects.toMatchObject({ name: 'PublishError' });
  });

  it('continues a subject that already holds messages (a takeover)', async () => {
    const subject = eventsSubject('acme', 'st_takeover');
    const first = new CheckpointedPublisher(nc, js, jsm, STREAM_NAMES.events, subject, { positionHeader: HEADERS.seq });
    for (let n = 1; n <= 10; n += 1) first.publish(message(subject, n));
    await first.finish();
    // The new owner repeats a few messages the old one stored: they are duplicates, not new messages.
    const second = new CheckpointedPublisher(nc, js, jsm, STREAM_NAMES.events, subject, { positionHeader: HEADERS.seq });
    for (let n = 8; n <= 15; n += 1) second.publish(message(subject, n));
    await expect(second.finish()).resolves.toMatchObject({ stored: 15 });
  });

  it('loses nothing when the server is killed (-9) and restarted in the middle: finish() waits, republishes and proves all stored', async () => {
    const subject = eventsSubject('acme', 'st_restart');
    const publisher = new CheckpointedPublisher(nc, js, jsm, STREAM_NAMES.events, subject, { positionHeader: HEADERS.seq, checkpointEvery: 100, retry: { firstMs: 20, maxMs: 200 } });
    for (let n = 1; n <= 300; n += 1) publisher.publish(message(subject, n));
    await server.kill('SIGKILL');
    // Published while the server is down: kept in memory, republished once it is back.
    for (let n = 301; n <= 600; n += 1) publisher.publish(message(subject, n));
    const finishing = publisher.finish();
    await server.restart();
    const result = await finishing;
    expect(result).toMatchObject({ published: 600, stored: 600 });
    expect(await storedMessageCount(jsm, STREAM_NAMES.events, subject)).toBe(600);
    expect(publisher.unconfirmedCount).toBe(0);
  });

  it('fails at once, naming them, when positions a count had confirmed are gone from the store and no longer kept', async () => {
    const subject = 'test.purged.st_purged';
    await jsm.streams.add({ name: 'TEST_PURGED', subjects: ['test.purged.>'] });
    const first = new CheckpointedPublisher(nc, js, jsm, 'TEST_PURGED', subject, { positionHeader: HEADERS.seq });
    for (let n = 1; n <= 10; n += 1) first.publish(message(subject, n));
    await first.finish();
    // The store loses positions 1-3 after they were confirmed (what a crash that loses written data does).
    await jsm.streams.purge('TEST_PURGED', { filter: subject, keep: 7 });
    const second = new CheckpointedPublisher(nc, js, jsm, 'TEST_PURGED', subject, { positionHeader: HEADERS.seq });
    for (let n = 8; n <= 15; n += 1) second.publish(message(subject, n));
    await expect(second.finish()).rejects.toMatchObject({
      name: 'PublishError',
      code: 'not_stored',
      message: expect.stringContaining('3 of 15 messages are not stored (positions 1, 2, 3): confirmed once and no longer kept') as unknown,
    });
  });

  it('proves the end by reading the subject when the server counts fewer messages than it holds, and stores nothing twice', async () => {
    // nats-server 2.9.10 after a kill -9 was seen counting 1,746 messages on a subject that held 1,804: the
    // count kept that shortfall whatever was republished. This manager reports the real count short by 5.
    const subject = eventsSubject('acme', 'st_miscounted');
    const miscounting = miscountingManager(jsm, subject, 5);
    const publisher = new CheckpointedPublisher(nc, js, miscounting, STREAM_NAMES.events, subject, { positionHeader: HEADERS.seq, checkpointEvery: 1_000 });
    for (let n = 1; n <= 40; n += 1) publisher.publish(message(subject, n));
    const result = await publisher.finish();
    expect(result).toEqual({ published: 40, stored: 40, republished: 40, provenBy: 'read' });
    // The acked republish was deduplicated, and the read republished nothing: each position is stored once.
    expect(await storedMessageCount(jsm, STREAM_NAMES.events, subject)).toBe(40);
    expect([...(await storedPositions(js, STREAM_NAMES.events, subject, HEADERS.seq))].sort((a, b) => a - b)).toEqual(
      Array.from({ length: 40 }, (_, index) => index + 1),
    );
  });

  /**
   * A gateway whose lease may have lapsed: a normalizer may have added gateway.lost (position 0) to its raw
   * trace. Position 5 is dropped (too large for the stream until it is raised) and the foreign message makes
   * the count come out right: 7 of the publisher's 8 plus 1.
   */
  async function dropFifthBehindForeign(stream: string, subject: string, publisher: CheckpointedPublisher): Promise<void> {
    await jsm.streams.add({ name: stream, subjects: [subject], max_msg_size: 512 });
    for (let n = 1; n <= 7; n += 1) publisher.publish(n === 5 ? { ...message(subject, n), data: JSON.stringify({ n, padding: 'x'.repeat(1_024) }) } : message(subject, n));
    // The core publishes go out after this turn; the acked one behind them is answered once they are processed.
    await new Promise((resolve) => setImmediate(resolve));
    await js.publish(subject, JSON.stringify({ foreign: true }), { msgID: `${subject}:foreign`, headers: toNatsHeaders({ [HEADERS.seq]: '0' }) });
    await jsm.streams.update(stream, { max_msg_size: -1 });
  }

  async function storedSorted(stream: string, subject: string): Promise<number[]> {
    return [...(await storedPositions(js, stream, subject, HEADERS.seq))].sort((a, b) => a - b);
  }

  it('is fooled by a message of another writer when told of none: the count comes out right with one lost', async () => {
    const subject = 'test.foreign_unknown.st_foreign';
    const publisher = new CheckpointedPublisher(nc, js, jsm, 'TEST_FOREIGN_UNKNOWN', subject, { positionHeader: HEADERS.seq, checkpointEvery: 1_000 });
    await dropFifthBehindForeign('TEST_FOREIGN_UNKNOWN', subject, publisher);
    publisher.publish(message(subject, 8));
    expect(await publisher.finish()).toEqual({ published: 8, stored: 8, republished: 0, provenBy: 'count' });
    expect(await storedSorted('TEST_FOREIGN_UNKNOWN', subject)).toEqual([1, 2, 3, 4, 6, 7, 8]);
  });

  it('proves the end by reading when another writer may have added to the subject, so its message cannot hide a lost one', async () => {
    const subject = 'test.foreign_end.st_foreign';
    const publisher = new CheckpointedPublisher(nc, js, jsm, 'TEST_FOREIGN_END', subject, { positionHeader: HEADERS.seq, checkpointEvery: 1_000, othersMayHaveWritten: () => true });
    await dropFifthBehindForeign('TEST_FOREIGN_END', subject, publisher);
    publisher.publish(message(subject, 8));
    expect(await publisher.finish()).toEqual({ published: 8, stored: 8, republished: 1, provenBy: 'read_shared' });
    expect(await storedSorted('TEST_FOREIGN_END', subject)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('repairs at a checkpoint, not only at the end, a loss that a message of another writer hides from the count', async () => {
    // The checkpoint after the 8th message counts 8 and would forget position 5 with the rest; it reads instead.
    const subject = 'test.foreign_checkpoint.st_foreign';
    const publisher = new CheckpointedPublisher(nc, js, jsm, 'TEST_FOREIGN_CHECKPOINT', subject, { positionHeader: HEADERS.seq, checkpointEvery: 8, othersMayHaveWritten: () => true });
    await dropFifthBehindForeign('TEST_FOREIGN_CHECKPOINT', subject, publisher);
    publisher.publish(message(subject, 8));
    await waitFor(() => publisher.repairedEarly === 1 && publisher.unconfirmedCount === 0, { timeoutMs: 10_000, description: 'the checkpoint to repair position 5' });
    expect(await storedSorted('TEST_FOREIGN_CHECKPOINT', subject)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    for (let n = 9; n <= 10; n += 1) publisher.publish(message(subject, n));
    expect(await publisher.finish()).toEqual({ published: 10, stored: 10, republished: 0, provenBy: 'read_shared' });
  });

  it('forgets nothing on a count that a message of another writer may have made whole, so the end can still repair the loss', async () => {
    // A timed check (every 50 ms here) counts 8 of 8 and, trusting it, would let position 5 go from memory:
    // the end would then find it missing and fail not_stored, unable to republish it.
    const subject = 'test.foreign_timed.st_foreign';
    const publisher = new CheckpointedPublisher(nc, js, jsm, 'TEST_FOREIGN_TIMED', subject, {
      positionHeader: HEADERS.seq,
      checkpointEvery: 1_000,
      repairAfterMs: 50,
      othersMayHaveWritten: () => true,
    });
    await dropFifthBehindForeign('TEST_FOREIGN_TIMED', subject, publisher);
    await new Promise((resolve) => setTimeout(resolve, 100));
    publisher.publish(message(subject, 8));
    // The timed check the 8th message started (a barrier and a count: a few ms on this server) is over.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(publisher.unconfirmedCount).toBe(8);
    expect(await publisher.finish()).toEqual({ published: 8, stored: 8, republished: 1, provenBy: 'read_shared' });
    expect(await storedSorted('TEST_FOREIGN_TIMED', subject)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  /** The per-subject counts (`stream info` requests on `stream`) made while `run` runs. */
  async function countsDuring(stream: string, run: () => Promise<void>): Promise<number> {
    const watcher = await connect({ servers: server.url });
    let counts = 0;
    watcher.subscribe(`$JS.API.STREAM.INFO.${stream}`, {
      callback: () => {
        counts += 1;
      },
    });
    await watcher.flush();
    try {
      await run();
      await nc.flush();
      await watcher.flush();
      return counts;
    } finally {
      await watcher.close();
    }
  }

  it("proves a quiet subject's few unconfirmed messages by their own acks at a timed check, with no count", async () => {
    // An idle stream: a heartbeat, and the next one a while later (here 100 ms; a check is due after 50 ms).
    await jsm.streams.add({ name: 'TEST_QUIET', subjects: ['test.quiet.>'] });
    const subject = 'test.quiet.st_idle';
    const publisher = new CheckpointedPublisher(nc, js, jsm, 'TEST_QUIET', subject, { positionHeader: HEADERS.seq, checkpointEvery: 1_000, repairAfterMs: 50 });
    const counts = await countsDuring('TEST_QUIET', async () => {
      publisher.publish(message(subject, 1));
      await new Promise((resolve) => setTimeout(resolve, 100));
      publisher.publish(message(subject, 2));
      await waitFor(() => publisher.unconfirmedCount === 0 || undefined, { timeoutMs: 5_000, description: 'the timed check to confirm both' });
    });
    expect(counts).toBe(0);
    expect(await storedSorted('TEST_QUIET', subject)).toEqual([1, 2]);
    // With more unconfirmed messages than that, a timed check is a barrier and a count, as before.
    const busier = 'test.quiet.st_busier';
    const other = new CheckpointedPublisher(nc, js, jsm, 'TEST_QUIET', busier, { positionHeader: HEADERS.seq, checkpointEvery: 1_000, repairAfterMs: 50 });
    const busierCounts = await countsDuring('TEST_QUIET', async () => {
      for (let n = 1; n <= 3; n += 1) other.publish(message(busier, n));
      await new Promise((resolve) => setTimeout(resolve, 100));
      other.publish(message(busier, 4));
      await waitFor(() => other.unconfirmedCount === 0 || undefined, { timeoutMs: 5_000, description: 'the timed check to confirm all four' });
    });
    expect(busierCounts).toBe(1);
  });

  it("repairs by those acks a quiet subject's message that the stream never stored", async () => {
    // Dropped like a core publish during a leader change: the subject is captured only from the second on.
    const subject = 'test.quiet_lost.st_idle';
    const publisher = new CheckpointedPublisher(nc, js, jsm, 'TEST_QUIET_LOST', subject, { positionHeader: HEADERS.seq, checkpointEvery: 1_000, repairAfterMs: 50 });
    publisher.publish(message(subject, 1));
    await nc.flush();
    await jsm.streams.add({ name: 'TEST_QUIET_LOST', subjects: ['test.quiet_lost.>'] });
    const counts = await countsDuring('TEST_QUIET_LOST', async () => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      publisher.publish(message(subject, 2));
      await waitFor(() => publisher.unconfirmedCount === 0 || undefined, { timeoutMs: 5_000, description: 'the timed check to store the lost one' });
    });
    expect(counts).toBe(0);
    expect(await storedSorted('TEST_QUIET_LOST', subject)).toEqual([1, 2]);
    expect(await publisher.finish()).toEqual({ published: 2, stored: 2, republished: 0, provenBy: 'count' });
  });

  it('reports overflowing once more messages than its bound wait for confirmation', () => {
    const subject = eventsSubject('acme', 'st_bound');
    const publisher = new CheckpointedPublisher(nc, js, jsm, STREAM_NAMES.events, subject, { positionHeader: HEADERS.seq, checkpointEvery: 1_000_000, maxBuffered: 10 });
    for (let n = 1; n <= 10; n += 1) publisher.publish(message(subject, n));
    expect(publisher.overflowing).toBe(false);
    publisher.publish(message(subject, 11));
    expect(publisher.overflowing).toBe(true);
  });
});
