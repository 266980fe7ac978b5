import { readFileSync, rmSync } from 'node:fs';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { ServiceIdentity } from '@llm-stream/pipeline';
import type { NatsServerHandle } from '@llm-stream/testing';
import { TenantEventLog } from './nats-taps.js';
import { startSecuredNats } from './secured-nats.js';
import { startGateway, startNormalizer, startReplayProvider, type RunningService } from './services.js';
import { prepareTranscriptsDir } from './transcripts.js';

type Env = Readonly<Record<string, string>>;

export interface PipelineOptions {
  /** Normalizer replicas (default 1). */
  readonly normalizers?: number;
  /** Gateway instances (default 1). */
  readonly gateways?: number;
  /** Settings over GATEWAY_TEST_ENV for every gateway. */
  readonly gatewayEnv?: Env;
  /** Settings over NORMALIZER_TEST_ENV for every normalizer. */
  readonly normalizerEnv?: Env;
}

/**
 * The whole pipeline as processes: a private nats-server with JetStream and the shipped authorization
 * (provisioned, each service connected as its own NATS user), the replay provider standing in for every
 * provider, N normalizers and M gateways (built dist/main.js, test-friendly timeouts), plus a NATS connection
 * for the test (as the provisioner: everything in the platform account) and a backend's view of both
 * tenants' events (as each tenant's backend user, from its own account).
 */
export interface Pipeline {
  readonly nats: NatsServerHandle;
  /** NATS_URL, NATS_USER and NATS_PASSWORD for another service process of the test. */
  natsEnv(identity: ServiceIdentity): Env;
  readonly nc: NatsConnection;
  readonly jsm: JetStreamManager;
  readonly replay: RunningService;
  readonly transcriptsDir: string;
  readonly gateways: RunningService[];
  readonly normalizers: RunningService[];
  /** Every contract event of tenant `acme` / `globex`, as the tenant's backend reads them from its account. */
  readonly acmeEvents: TenantEventLog;
  readonly globexEvents: TenantEventLog;
  /** The first gateway's base URL. */
  readonly gatewayUrl: string;
  addGateway(env?: Env): Promise<RunningService>;
  addNormalizer(env?: Env): Promise<RunningService>;
  /** Every service started so far (killed ones included), for log checks. */
  services(): RunningService[];
  stop(): Promise<void>;
}

export async function startPipeline(options: PipelineOptions = {}): Promise<Pipeline> {
  const secured = await startSecuredNats();
  const nats = secured.server;
  const transcriptsDir = prepareTranscriptsDir();
  const started: RunningService[] = [];
  const normalizers: RunningService[] = [];
  const gateways: RunningService[] = [];
  let gatewayCount = 0;
  let normalizerCount = 0;
  try {
    const replay = await startReplayProvider(transcriptsDir);
    started.push(replay);
    const addNormalizer = async (env: Env = {}): Promise<RunningService> => {
      normalizerCount += 1;
      const service = await startNormalizer({
        natsUrl: nats.url,
        name: `normalizer-${String(normalizerCount)}`,
        env: { ...secured.serviceEnv('normalizer'), ...options.normalizerEnv, ...env },
      });
      started.push(service);
      normalizers.push(service);
      return service;
    };
    const addGateway = async (env: Env = {}): Promise<RunningService> => {
      gatewayCount += 1;
      const service = await startGateway({
        natsUrl: nats.url,
        providerUrl: replay.url,
        gatewayId: `gw-e2e-${String(gatewayCount)}`,
        env: { ...secured.serviceEnv('gateway'), ...options.gatewayEnv, ...env },
      });
      started.push(service);
      gateways.push(service);
      return service;
    };
    // Started together; each lands in `normalizers` / `gateways` (in start order) as it becomes ready.
    await Promise.all(Array.from({ length: options.normalizers ?? 1 }, () => addNormalizer()));
    await Promise.all(Array.from({ length: options.gateways ?? 1 }, () => addGateway()));
    const nc = await secured.connectAs(secured.credentials.platform.provisioner, 'e2e-tests');
    const jsm = await jetstreamManager(nc);
    const backend = async (tenant: string): Promise<NatsConnection> => {
      const users = secured.credentials.tenants[tenant];
      if (users === undefined) throw new Error(`no NATS credentials for tenant ${tenant}`);
      return secured.connectAs(users.backend, `e2e-backend-${tenant}`);
    };
    const backends = [await backend('acme'), await backend('globex')] as const;
    const acmeEvents = TenantEventLog.start(backends[0], 'acme');
    const globexEvents = TenantEventLog.start(backends[1], 'globex');
    const first = gateways[0];
    if (!first) throw new Error('a pipeline needs at least one gateway');
    return {
      nats,
      natsEnv: (identity) => secured.serviceEnv(identity),
      nc,
      jsm,
      replay,
      transcriptsDir,
      gateways,
      normalizers,
      acmeEvents,
      globexEvents,
      gatewayUrl: first.url,
      addGateway,
      addNormalizer,
      services: () => [...started],
      stop: async () => {
        await acmeEvents.close();
        await globexEvents.close();
        await Promise.all(backends.map((connection) => connection.close()));
        await nc.close();
        await Promise.all(started.map((service) => service.process.stop('SIGTERM', 5_000)));
        // Every identity is allowed exactly what it does: a refusal in a suite is a missing or a wrong permission.
        const violations = readFileSync(nats.logPath, 'utf8').split('\n').filter((line) => line.includes('Violation'));
        await nats.stop();
        rmSync(transcriptsDir, { recursive: true, force: true });
        if (violations.length > 0) throw new Error(`nats-server refused operations of the suite's identities:\n${violations.slice(0, 20).join('\n')}`);
      },
    };
  } catch (error) {
    await Promise.all(started.map((service) => service.process.kill()));
    await nats.stop();
    rmSync(transcriptsDir, { recursive: true, force: true });
    throw error;
  }
}
