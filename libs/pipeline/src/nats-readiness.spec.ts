import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { startNatsServer, waitFor, type NatsServerHandle } from '@llm-stream/testing';
import { NatsReadinessProbe } from './nats-readiness.js';

describe('NatsReadinessProbe (real nats-server)', () => {
  let server: NatsServerHandle;

  beforeAll(async () => {
    server = await startNatsServer();
  });

  afterAll(async () => {
    await server.stop();
  });

  it('reports ok for both while the server and JetStream answer, closed once the connection is closed', async () => {
    const nc = await connect({ servers: server.url });
    const probe = new NatsReadinessProbe(nc, await jetstreamManager(nc));
    await expect(probe.check()).resolves.toEqual({ nats: 'ok', jetstream: 'ok' });
    await nc.close();
    await expect(probe.check()).resolves.toEqual({ nats: 'closed', jetstream: 'unknown' });
  });

  it('reports NATS unreachable during an outage (within the timeout) and ok again after the server is back', async () => {
    const nc = await connect({ servers: server.url, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
    try {
      const probe = new NatsReadinessProbe(nc, await jetstreamManager(nc), 200);
      await server.kill();
      await expect(probe.check()).resolves.toEqual({ nats: 'unreachable', jetstream: 'unknown' });
      await server.restart();
      await waitFor(async () => (await probe.check()).jetstream === 'ok', { description: 'NATS and JetStream to answer again' });
    } finally {
      await nc.close();
    }
  });

  it('reports JetStream unreachable on a server that runs without it', async () => {
    const plain = await startNatsServer({ jetstream: false });
    const nc = await connect({ servers: plain.url });
    try {
      // checkAPI off: the manager is made without asking the server, which would refuse.
      const probe = new NatsReadinessProbe(nc, await jetstreamManager(nc, { checkAPI: false }), 500);
      await expect(probe.check()).resolves.toEqual({ nats: 'ok', jetstream: 'unreachable' });
    } finally {
      await nc.close();
      await plain.stop();
    }
  });
});
