import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { connectNatsUser, generateNatsCredentials, natsAuthServerConfig, provisionPipeline, type NatsCredentials } from '@llm-stream/pipeline';
import { startNatsServer, waitFor, type NatsServerHandle } from '@llm-stream/testing';
import type { LeaseWorkerData, MainThreadBeat } from '../src/streams/lease-worker-protocol.js';

/** The built worker (npm test type-checks, which builds, before the suites run): what the gateway starts. */
const WORKER = join(__dirname, '../dist/streams/lease-worker.js');

/** Blocks this thread (the gateway's main event loop in the test's place) for `ms`. */
function blockMainThread(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * On the shipped authorization configuration: the worker publishes its leases as the gateway's NATS user (a
 * publish its permissions refused would store no lease); the test's stream and reads are the provisioner's.
 */
describe('the gateway lease worker (real nats-server, authorization on)', () => {
  let server: NatsServerHandle;
  let credentials: NatsCredentials;
  let nc: NatsConnection;
  let jsm: JetStreamManager;

  beforeAll(async () => {
    credentials = generateNatsCredentials([]);
    server = await startNatsServer({
      config: natsAuthServerConfig({ credentials }),
      provision: (url) => provisionPipeline({ servers: [url], credentials }),
    });
    nc = await connectNatsUser({ servers: [server.url], name: 'test-provisioner', user: credentials.platform.provisioner });
    jsm = await jetstreamManager(nc);
    // The leases are core messages; a stream keeps them here with the server's receive time.
    await jsm.streams.add({ name: 'LEASES', subjects: ['llm.gateways.lease.>'] });
  });

  afterAll(async () => {
    await nc.close();
    await server.stop();
  });

  async function start(subject: string, mainStallMs: number): Promise<Worker> {
    const gateway = credentials.platform.gateway;
    const data: LeaseWorkerData = { servers: [server.url], auth: { user: gateway.user, password: gateway.password }, name: 'test-gateway', subject, intervalMs: 200, mainStallMs };
    const worker = new Worker(WORKER, { workerData: data });
    await new Promise<void>((resolve, reject) => {
      worker.once('message', () => {
        resolve();
      });
      worker.once('error', reject);
    });
    return worker;
  }

  /** Server receive times (ms) of the leases stored for `subject`. */
  async function leaseTimes(subject: string): Promise<number[]> {
    const info = await jsm.streams.info('LEASES', { subjects_filter: subject });
    const times: number[] = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq += 1) {
      const message = await jsm.streams.getMessage('LEASES', { seq }).catch(() => null);
      if (message?.subject === subject) times.push(message.time.getTime());
    }
    return times;
  }

  it('renews the lease while the main thread is busy for seconds, as long as it beats again', async () => {
    const subject = 'llm.gateways.lease.gw-busy@00000001';
    const worker = await start(subject, 10_000);
    const beat: MainThreadBeat = { openStreams: 5_000 };
    worker.postMessage(beat);
    const blockedAt = Date.now();
    blockMainThread(3_000);
    const unblockedAt = Date.now();
    await worker.terminate();
    const during = (await leaseTimes(subject)).filter((at) => at > blockedAt + 200 && at < unblockedAt - 200);
    // One every 200 ms while the main thread could not run a single timer.
    expect(during.length).toBeGreaterThanOrEqual(10);
  });

  it('lets the lease lapse when the main thread stops beating for longer than its stall limit', async () => {
    const subject = 'llm.gateways.lease.gw-stuck@00000002';
    const worker = await start(subject, 1_000);
    const startedAt = Date.now();
    blockMainThread(3_000);
    await waitFor(async () => (await leaseTimes(subject)).length > 0, { description: 'the first leases' });
    const times = await leaseTimes(subject);
    await worker.terminate();
    expect(Math.max(...times)).toBeLessThan(startedAt + 1_500);
  });
});
