import { jetstreamManager } from '@nats-io/jetstream';
import { nanos, type NatsConnection } from '@nats-io/nats-core';
import { STREAM_NAMES } from '@llm-stream/contract';
import { startNatsServer, waitFor, type NatsServerHandle } from '@llm-stream/testing';
import { connectPipeline } from './connect-pipeline.js';
import { DEFAULT_STREAM_OPTIONS } from './pipeline-streams.js';

interface Connz {
  readonly num_connections: number;
  readonly connections: readonly { readonly name?: string }[];
}

/** The server's view of its client connections (monitoring endpoint). */
async function connz(server: NatsServerHandle): Promise<Connz> {
  const response = await fetch(`http://127.0.0.1:${String(server.monitorPort)}/connz`);
  return (await response.json()) as Connz;
}

const HOUR_MS = 3_600_000;

describe('connectPipeline (real nats-server)', () => {
  let server: NatsServerHandle;
  const open: NatsConnection[] = [];

  beforeAll(async () => {
    server = await startNatsServer();
  });

  afterEach(async () => {
    for (const nc of open.splice(0)) if (!nc.isClosed()) await nc.close();
  });

  afterAll(async () => {
    await server.stop();
  });

  it('connects under the given name and creates the three streams with the given limits', async () => {
    const nc = await connectPipeline({
      servers: [server.url],
      name: 'llm-stream-test',
      streams: { replicas: 1, rawMaxAgeMs: 2 * HOUR_MS, eventsMaxAgeMs: 3 * HOUR_MS, duplicateWindowMs: 90_000 },
    });
    open.push(nc);
    const jsm = await jetstreamManager(nc);
    const raw = await jsm.streams.info(STREAM_NAMES.raw);
    const events = await jsm.streams.info(STREAM_NAMES.events);
    const work = await jsm.streams.info(STREAM_NAMES.work);
    expect(raw.config.max_age).toBe(nanos(2 * HOUR_MS));
    expect(events.config.max_age).toBe(nanos(3 * HOUR_MS));
    expect(work.config.max_age).toBe(nanos(3 * HOUR_MS));
    expect(events.config.duplicate_window).toBe(nanos(90_000));
    expect((await connz(server)).connections.map((connection) => connection.name)).toContain('llm-stream-test');
  });

  it('brings the limits of existing streams up to date, and unset limits take the defaults', async () => {
    open.push(await connectPipeline({ servers: [server.url], name: 'first', streams: { rawMaxAgeMs: 5 * HOUR_MS } }));
    const nc = await connectPipeline({ servers: [server.url], name: 'second', streams: { rawMaxAgeMs: 7 * HOUR_MS } });
    open.push(nc);
    const jsm = await jetstreamManager(nc);
    const raw = await jsm.streams.info(STREAM_NAMES.raw);
    expect(raw.config.max_age).toBe(nanos(7 * HOUR_MS));
    expect(raw.config.duplicate_window).toBe(nanos(DEFAULT_STREAM_OPTIONS.duplicateWindowMs));
    expect((await jsm.streams.info(STREAM_NAMES.events)).config.max_age).toBe(nanos(DEFAULT_STREAM_OPTIONS.eventsMaxAgeMs));
  });

  it('closes its connection when the streams cannot be ensured (no JetStream), then rejects', async () => {
    const plain = await startNatsServer({ jetstream: false });
    try {
      await expect(connectPipeline({ servers: [plain.url], name: 'no-jetstream' })).rejects.toThrow();
      await waitFor(async () => (await connz(plain)).num_connections === 0, { description: 'the failed connection to be closed' });
    } finally {
      await plain.stop();
    }
  });
});
