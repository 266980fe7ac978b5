import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { natsRequest } from '../test/nats-wire.js';
import { httpStatus } from './http-probe.js';
import { startNatsServer, type NatsServerHandle } from './nats-server.js';
import { isPortOpen } from './port-probe.js';
import { isProcessStopped } from './process-tree.js';

interface JszStream {
  readonly name: string;
  readonly state: { readonly messages: number };
}

interface Jsz {
  readonly config: { readonly store_dir: string };
  readonly streams: number;
  readonly messages: number;
  readonly account_details?: readonly { readonly stream_detail?: readonly JszStream[] }[];
}

async function jsz(server: NatsServerHandle): Promise<Jsz> {
  const response = await fetch(`http://127.0.0.1:${server.monitorPort}/jsz?streams=true`);
  return (await response.json()) as Jsz;
}

function streamNames(state: Jsz): string[] {
  return (state.account_details ?? []).flatMap((account) => (account.stream_detail ?? []).map((stream) => stream.name));
}

describe('startNatsServer', () => {
  const started: NatsServerHandle[] = [];
  const start = async (...args: Parameters<typeof startNatsServer>): Promise<NatsServerHandle> => {
    const server = await startNatsServer(...args);
    started.push(server);
    return server;
  };

  afterAll(async () => {
    await Promise.all(started.map((server) => server.stop()));
  });

  it('starts a JetStream server that answers healthz on its monitoring port and accepts clients', async () => {
    const server = await start();

    expect(server.url).toBe(`nats://127.0.0.1:${server.port}`);
    expect(server.isRunning()).toBe(true);
    expect(await httpStatus(`http://127.0.0.1:${server.monitorPort}/healthz?js-enabled-only=true`)).toBe(200);
    expect(await isPortOpen('127.0.0.1', server.port)).toBe(true);
    const state = await jsz(server);
    expect(state.config.store_dir).toBe(join(server.storeDir, 'jetstream'));
    expect(server.logTail()).toContain('Server is ready');
  });

  it('survives SIGKILL: restarts on the same port with its JetStream streams and messages', async () => {
    const server = await start();
    const created = JSON.parse(
      await natsRequest(server.port, '$JS.API.STREAM.CREATE.ORDERS', JSON.stringify({ name: 'ORDERS', subjects: ['orders.>'], storage: 'file' })),
    ) as { error?: unknown };
    expect(created.error).toBeUndefined();
    const ack = JSON.parse(await natsRequest(server.port, 'orders.created', '{"id":1}')) as { stream: string; seq: number };
    expect(ack).toEqual({ stream: 'ORDERS', seq: 1 });
    const firstPid = server.pid;

    await server.kill('SIGKILL');

    expect(server.isRunning()).toBe(false);
    expect(await isPortOpen('127.0.0.1', server.port)).toBe(false);
    await expect(httpStatus(`http://127.0.0.1:${server.monitorPort}/healthz`)).rejects.toThrow();

    await server.restart();

    expect(server.isRunning()).toBe(true);
    expect(server.pid).not.toBe(firstPid);
    expect(await httpStatus(`http://127.0.0.1:${server.monitorPort}/healthz?js-enabled-only=true`)).toBe(200);
    const state = await jsz(server);
    expect(streamNames(state)).toEqual(['ORDERS']);
    expect(state.messages).toBe(1);
    expect(readdirSync(join(server.storeDir, 'jetstream'))).not.toHaveLength(0);
    // A publish after the restart continues the stream's sequence: the old state was recovered, not recreated.
    const next = JSON.parse(await natsRequest(server.port, 'orders.created', '{"id":2}')) as { seq: number };
    expect(next.seq).toBe(2);
  });

  it('pauses with SIGSTOP (nothing is answered, the process lives) and answers again after resume', async () => {
    const server = await start();
    await server.pause();
    try {
      expect(isProcessStopped(server.pid)).toBe(true);
      await expect(natsRequest(server.port, '$JS.API.INFO', '', 500)).rejects.toThrow(/no reply/);
      expect(server.isRunning()).toBe(true);
    } finally {
      server.resume();
    }
    const info = JSON.parse(await natsRequest(server.port, '$JS.API.INFO', '')) as { type?: string };
    expect(info.type).toBe('io.nats.jetstream.api.v1.account_info_response');
  });

  it('gives servers started in parallel different ports and store directories', async () => {
    const [a, b] = await Promise.all([start(), start()]);

    expect(new Set([a.port, a.monitorPort, b.port, b.monitorPort]).size).toBe(4);
    expect(a.storeDir).not.toBe(b.storeDir);
    expect(await httpStatus(`http://127.0.0.1:${a.monitorPort}/healthz`)).toBe(200);
    expect(await httpStatus(`http://127.0.0.1:${b.monitorPort}/healthz`)).toBe(200);
  });

  it('removes its temp dir on stop but keeps a store dir it was given', async () => {
    const storeDir = mkdtempSync(join(tmpdir(), 'nats-spec-store-'));
    try {
      const server = await startNatsServer({ storeDir });
      const ownTempDir = join(server.logPath, '..');

      await server.stop();

      expect(server.isRunning()).toBe(false);
      expect(existsSync(ownTempDir)).toBe(false);
      expect(existsSync(join(storeDir, 'jetstream'))).toBe(true);
      await expect(server.restart()).rejects.toMatchObject({ code: 'NATS_STOPPED' });
    } finally {
      rmSync(storeDir, { recursive: true, force: true });
    }
  });

  it('runs without JetStream when asked', async () => {
    const server = await start({ jetstream: false });

    const response = await fetch(`http://127.0.0.1:${server.monitorPort}/varz`);
    const varz = (await response.json()) as { jetstream?: { config?: unknown } };

    expect(varz.jetstream?.config).toBeUndefined();
  });

  it('fails with the server log when the imposed port is taken', async () => {
    const first = await start({ jetstream: false });

    await expect(startNatsServer({ jetstream: false, port: first.port })).rejects.toThrow(/address already in use/);
  });
});
