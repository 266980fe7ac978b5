import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { AckPolicy, jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager, type JsMsg } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { startNatsServer, waitFor, type NatsServerHandle } from '@llm-stream/testing';
import { ackSubjectOf } from './ack-subject.js';
import { WorkProgressKeeper, isHeldElsewhere } from './work-progress-keeper.js';
import type { ToProgressThread, WorkProgressThreadData } from './work-progress-protocol.js';

/** The built thread script (npm test type-checks, which builds, before the suites run): what a service starts. */
const THREAD = pathToFileURL(join(__dirname, '../../dist/progress/work-progress-thread.js'));

/** Blocks this thread (the service's main event loop in the test's place) for `ms`. */
function blockMainThread(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

const ACK_WAIT_MS = 1_000;

describe('work progress told from a worker thread (real nats-server)', () => {
  let server: NatsServerHandle;
  let nc: NatsConnection;
  let js: JetStreamClient;
  let jsm: JetStreamManager;

  beforeAll(async () => {
    server = await startNatsServer();
    nc = await connect({ servers: server.url });
    js = jetstream(nc);
    jsm = await jetstreamManager(nc);
    await jsm.streams.add({ name: 'WORK', subjects: ['work.>'] });
  });

  afterAll(async () => {
    await nc.close();
    await server.stop();
  });

  const cleanups: (() => Promise<void>)[] = [];
  function onTestEnd(cleanup: () => Promise<void>): void {
    cleanups.push(cleanup);
  }
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  function keeper(mainStallMs: number): WorkProgressKeeper {
    return new WorkProgressKeeper({
      servers: [server.url],
      name: 'test-normalizer',
      intervalMs: ACK_WAIT_MS / 3,
      mainStallMs,
      holderQueries: 'test.holder.*',
      threadFile: THREAD,
    });
  }

  /** A fresh consumer with one item on it, delivered once. */
  async function deliveredItem(name: string): Promise<JsMsg> {
    await js.publish(`work.${name}`, name);
    await jsm.consumers.add('WORK', { durable_name: name, filter_subject: `work.${name}`, ack_policy: AckPolicy.Explicit, ack_wait: ACK_WAIT_MS * 1e6 });
    const consumer = await js.consumers.get('WORK', name);
    const message = await consumer.next({ expires: 2_000 });
    if (message === null) throw new Error('the item was not delivered');
    return message;
  }

  async function redelivered(name: string, withinMs: number): Promise<boolean> {
    const message = await (await js.consumers.get('WORK', name)).next({ expires: withinMs });
    return message !== null;
  }

  it('keeps a held item in progress while the main thread is blocked for three ack waits, and answers holder queries', async () => {
    const progress = keeper(10_000);
    await progress.start();
    onTestEnd(() => progress.stop());
    const item = await deliveredItem('busy');
    progress.hold('st_busy', ackSubjectOf(item));
    await nc.flush();
    blockMainThread(3 * ACK_WAIT_MS);
    expect(await isHeldElsewhere(nc, 'test.holder.st_busy', 1_000)).toBe(true);
    expect(await isHeldElsewhere(nc, 'test.holder.st_other', 300)).toBe(false);
    expect(await redelivered('busy', 1_500)).toBe(false);
    expect((await jsm.consumers.info('WORK', 'busy')).num_redelivered).toBe(0);
    progress.release('st_busy');
    await item.ackAck();
    expect(await isHeldElsewhere(nc, 'test.holder.st_busy', 300)).toBe(false);
    await progress.stop();
  });

  it('tells the progress of items held before the thread was up', async () => {
    const progress = keeper(10_000);
    const item = await deliveredItem('early');
    progress.hold('st_early', ackSubjectOf(item));
    await progress.start();
    onTestEnd(() => progress.stop());
    blockMainThread(3 * ACK_WAIT_MS);
    expect(await redelivered('early', 1_500)).toBe(false);
    await item.ackAck();
  });

  it('keeps the item in progress through the reply subject of an earlier delivery', async () => {
    const item = await deliveredItem('earlier');
    // No progress: JetStream delivers it again; the holder keeps telling progress on the first delivery's subject.
    const second = await (await js.consumers.get('WORK', 'earlier')).next({ expires: 3 * ACK_WAIT_MS });
    expect(second?.info.deliveryCount).toBe(2);
    const progress = keeper(10_000);
    await progress.start();
    onTestEnd(() => progress.stop());
    progress.hold('st_earlier', ackSubjectOf(item));
    expect(await redelivered('earlier', 3 * ACK_WAIT_MS)).toBe(false);
    await item.ackAck();
    await progress.stop();
    expect((await jsm.consumers.info('WORK', 'earlier')).num_ack_pending).toBe(0);
  });

  it('lets the item go back to JetStream when the main thread stalls past its limit', async () => {
    const progress = keeper(ACK_WAIT_MS);
    await progress.start();
    try {
      const item = await deliveredItem('stuck');
      progress.hold('st_stuck', ackSubjectOf(item));
      await nc.flush();
      // Silent for the stall limit, then one ack wait without progress: JetStream gives the item back.
      blockMainThread(3 * ACK_WAIT_MS);
      const again = await (await js.consumers.get('WORK', 'stuck')).next({ expires: 2 * ACK_WAIT_MS });
      expect(again?.info.deliveryCount).toBe(2);
    } finally {
      await progress.stop();
    }
  });

  it('answers holder queries only while the main thread beats', async () => {
    // The thread driven directly: one hold, then no beat at all.
    const thread = new Worker(THREAD, {
      workerData: { servers: [server.url], name: 'test-silent', intervalMs: 200, mainStallMs: 1_000, holderQueries: 'test.silent.*' } satisfies WorkProgressThreadData,
    });
    try {
      await new Promise<void>((resolve, reject) => {
        thread.once('message', () => {
          resolve();
        });
        thread.once('error', reject);
      });
      const hold: ToProgressThread = { kind: 'hold', key: 'st_silent', reply: '$JS.ACK.WORK.none.1.1.1.1.0' };
      thread.postMessage(hold);
      await waitFor(() => isHeldElsewhere(nc, 'test.silent.st_silent', 300), { timeoutMs: 2_000, description: 'the first answer' });
      await new Promise((resolve) => setTimeout(resolve, 1_300));
      expect(await isHeldElsewhere(nc, 'test.silent.st_silent', 500)).toBe(false);
    } finally {
      await thread.terminate();
    }
  });
});
