import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NatsConnection } from '@nats-io/transport-node';
import { connectNatsUser, generateNatsCredentials, natsAuthServerConfig, provisionPipeline, type NatsCredentials, type NatsUserCredentials, type ServiceIdentity } from '@llm-stream/pipeline';
import { getFreePort, registerCleanup, startNatsServer, startPostgres, type NatsServerHandle, type PostgresHandle } from '@llm-stream/testing';
import { startService, type Service } from './services.js';

/** The tenants of a run and their keys (reasoning allowed, so a client's seqs have no projection holes). */
export const TENANTS = [
  { tenant: 'acme', key: 'chaos-key-acme-5d1e' },
  { tenant: 'globex', key: 'chaos-key-globex-9a7c' },
] as const;

const PROVIDER_KEY = 'sk-chaos-provider-key';

export interface ChaosSystem {
  readonly nats: NatsServerHandle;
  /** The NATS users of the run (the shipped authorization, fresh passwords). */
  readonly credentials: NatsCredentials;
  /** A connection as `user` that outlives NATS restarts (the checker as the provisioner, a backend as its tenant's user). */
  connectAs(user: NatsUserCredentials, name: string): Promise<NatsConnection>;
  readonly postgres: PostgresHandle | null;
  readonly replay: Service;
  /** `gatewayId` is the instance's current GATEWAY_ID (a replacement gets a new one). */
  readonly gateways: readonly (Service & { gatewayId: string })[];
  readonly normalizers: readonly Service[];
  readonly audit: Service;
  readonly servedLogPath: string;
  readonly workDir: string;
  stop(): Promise<void>;
}

export interface SystemOptions {
  /** The worktree whose built apps run (`--root`). */
  readonly root: string;
  readonly store: 'sqlite' | 'postgres';
  /** Keeps each service's whole log there (`<name>.log`, appended across restarts) and nats-server's at the stop. */
  readonly logDir: string | null;
}

function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/**
 * The whole system as processes with the shipped settings (leases, ack waits, grace, timeouts at their
 * defaults): a private nats-server with a file store and the shipped authorization (provisioned first, each
 * service as its own NATS user), the replay provider (served-body log on), two
 * gateways, two normalizers and the audit log on SQLite or a private PostgreSQL cluster.
 */
export async function startSystem(options: SystemOptions): Promise<ChaosSystem> {
  const workDir = mkdtempSync(join(tmpdir(), 'llm-stream-chaos-'));
  if (options.logDir !== null) mkdirSync(options.logDir, { recursive: true });
  const servedLogPath = join(workDir, 'served.ndjson');
  // Removed also when the run is interrupted (Ctrl-C): the children are killed by their own cleanups.
  const cleanup = registerCleanup({ removePaths: [workDir] });
  // A restart under load recovers the JetStream store while the machine is saturated: allow it time.
  const credentials = generateNatsCredentials(TENANTS.map(({ tenant }) => tenant));
  const nats = await startNatsServer({
    storeDir: join(workDir, 'nats-store'),
    readyTimeoutMs: 120_000,
    config: natsAuthServerConfig({ credentials }),
    provision: (url) => provisionPipeline({ servers: [url], credentials }),
  });
  const postgres = options.store === 'postgres' ? await startPostgres() : null;
  const apiKeys = JSON.stringify(TENANTS.map(({ tenant, key }) => ({ sha256: sha256(key), tenant, reasoning: true })));
  // Shipped settings, LOG_LEVEL included (info): only addresses, keys and ids are set.
  const common = (identity: ServiceIdentity): Record<string, string> => ({
    HTTP_HOST: '127.0.0.1',
    NATS_URL: nats.url,
    NATS_USER: identity,
    NATS_PASSWORD: credentials.platform[identity].password,
  });
  const started: Service[] = [];
  try {
    const replay = await startService({
      root: options.root,
      logDir: options.logDir,
      app: 'replay-provider',
      name: 'replay-provider',
      port: await getFreePort(),
      portVariable: 'REPLAY_PORT',
      readyLine: /"msg":"listening"/,
      env: { REPLAY_HOST: '127.0.0.1', REPLAY_SERVED_LOG: servedLogPath, REPLAY_REQUIRE_API_KEY: PROVIDER_KEY, REPLAY_REQUEST_LOG_LIMIT: '1000' },
    });
    started.push(replay);
    const audit = await startService({
      root: options.root,
      logDir: options.logDir,
      app: 'audit-log',
      name: 'audit-log',
      port: await getFreePort(),
      portVariable: 'HTTP_PORT',
      readyLine: /"msg":"audit-log ready"/,
      env: {
        ...common('audit-log'),
        GATEWAY_API_KEYS: apiKeys,
        ...(postgres === null ? { AUDIT_SQLITE_PATH: join(workDir, 'audit.sqlite') } : { AUDIT_DATABASE_URL: postgres.url }),
      },
    });
    started.push(audit);
    const normalizers: Service[] = [];
    for (const n of [1, 2]) {
      const normalizer = await startService({
        root: options.root,
      logDir: options.logDir,
        app: 'normalizer',
        name: `normalizer-${n}`,
        port: await getFreePort(),
        portVariable: 'HTTP_PORT',
        readyLine: /"msg":"normalizer ready"/,
        env: common('normalizer'),
      });
      started.push(normalizer);
      normalizers.push(normalizer);
    }
    const gateways: (Service & { gatewayId: string })[] = [];
    for (const n of [1, 2]) {
      const gatewayId = `gw-chaos-${n}`;
      const gateway = await startService({
        root: options.root,
      logDir: options.logDir,
        app: 'gateway',
        name: gatewayId,
        port: await getFreePort(),
        portVariable: 'HTTP_PORT',
        readyLine: /"msg":"gateway ready"/,
        env: {
          ...common('gateway'),
          GATEWAY_ID: gatewayId,
          GATEWAY_API_KEYS: apiKeys,
          OPENAI_API_KEY: PROVIDER_KEY,
          ANTHROPIC_API_KEY: PROVIDER_KEY,
          GEMINI_API_KEY: PROVIDER_KEY,
          OPENAI_BASE_URL: replay.url,
          ANTHROPIC_BASE_URL: replay.url,
          GEMINI_BASE_URL: replay.url,
        },
      });
      started.push(gateway);
      gateways.push(Object.assign(gateway, { gatewayId }));
    }
    return {
      nats,
      credentials,
      connectAs: (user, name) => connectNatsUser({ servers: [nats.url], name, user }),
      postgres,
      replay,
      gateways,
      normalizers,
      audit,
      servedLogPath,
      workDir,
      stop: async () => {
        await Promise.all(started.map((service) => service.stop()));
        if (options.logDir !== null) copyFileSync(nats.logPath, join(options.logDir, 'nats-server.log'));
        await nats.stop();
        await postgres?.stop();
        rmSync(workDir, { recursive: true, force: true });
        cleanup.release();
      },
    };
  } catch (error: unknown) {
    await Promise.all(started.map((service) => service.kill()));
    await nats.stop();
    await postgres?.stop();
    rmSync(workDir, { recursive: true, force: true });
    cleanup.release();
    throw error;
  }
}
