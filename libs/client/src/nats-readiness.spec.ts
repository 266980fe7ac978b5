import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { startNatsServer, waitFor, type NatsServerHandle } from '@llm-stream/testing';
import { natsReadiness } from './nats-readiness.js';

describe('natsReadiness (real nats-server)', () => {
  let server: NatsServerHandle;

  beforeAll(async () => {
    server = await startNatsServer();
  });

  afterAll(async () => {
    await server.stop();
  });

  it('reports ok for both while the server and JetStream answer, closed once the connection is closed', async () => {
    const nc = await connect({ servers: server.url });
    const jsm = await jetstreamManager(nc);
    await expect(natsReadiness(nc, jsm)).resolves.toEqual({ nats: 'ok', jetstream: 'ok' });
    await nc.close();
    await expect(natsReadiness(nc, jsm)).resolves.toEqual({ nats: 'closed', jetstream: 'unknown' });
  });

  it('reports NATS unreachable during an outage (within the timeout) and ok again after the server is back', async () => {
    const nc = await connect({ servers: server.url, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
    try {
      const jsm = await jetstreamManager(nc);
      await server.kill();
      await expect(natsReadiness(nc, jsm, 200)).resolves.toEqual({ nats: 'unreachable', jetstream: 'unknown' });
      await server.restart();
      await waitFor(async () => (await natsReadiness(nc, jsm, 200)).jetstream === 'ok', { description: 'NATS and JetStream to answer again' });
    } finally {
      await nc.close();
    }
  });

  it('reports JetStream unreachable on a server that runs without it', async () => {
    const plain = await startNatsServer({ jetstream: false });
    const nc = await connect({ servers: plain.url });
    try {
      // checkAPI off: the manager is made without asking the server, which would refuse.
      const jsm = await jetstreamManager(nc, { checkAPI: false });
      await expect(natsReadiness(nc, jsm, 500)).resolves.toEqual({ nats: 'ok', jetstream: 'unreachable' });
    } finally {
      await nc.close();
      await plain.stop();
    }
  });
});
