import { rmSync } from 'node:fs';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { startNatsServer, type NatsServerHandle } from '@llm-stream/testing';
import { TenantEventLog, connectNats } from './nats-taps.js';
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
 * The whole pipeline as processes: a private nats-server with JetStream, the replay provider standing in for
 * every provider, N normalizers and M gateways (built dist/main.js, test-friendly timeouts), plus a NATS
 * connection for the test and a backend's view of both tenants' events.
 */
export interface Pipeline {
  readonly nats: NatsServerHandle;
  readonly nc: NatsConnection;
  readonly jsm: JetStreamManager;
  readonly replay: RunningService;
  readonly transcriptsDir: string;
  readonly gateways: RunningService[];
  readonly normalizers: RunningService[];
  /** Every contract event of tenant `acme` / `globex`, as a backend subscribed to `llm.events.<tenant>.*` sees it. */
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
  const nats = await startNatsServer();
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
        env: { ...options.normalizerEnv, ...env },
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
        env: { ...options.gatewayEnv, ...env },
      });
      started.push(service);
      gateways.push(service);
      return service;
    };
    // Started together; each lands in `normalizers` / `gateways` (in start order) as it becomes ready.
    await Promise.all(Array.from({ length: options.normalizers ?? 1 }, () => addNormalizer()));
    await Promise.all(Array.from({ length: options.gateways ?? 1 }, () => addGateway()));
    const nc = await connectNats(nats.url);
    const jsm = await jetstreamManager(nc);
    const acmeEvents = TenantEventLog.start(nc, 'acme');
    const globexEvents = TenantEventLog.start(nc, 'globex');
    const first = gateways[0];
    if (!first) throw new Error('a pipeline needs at least one gateway');
    return {
      nats,
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
        await nc.close();
        await Promise.all(started.map((service) => service.process.stop('SIGTERM', 5_000)));
        await nats.stop();
        rmSync(transcriptsDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await Promise.all(started.map((service) => service.process.kill()));
    await nats.stop();
    rmSync(transcriptsDir, { recursive: true, force: true });
    throw error;
  }
}
