import { join } from 'node:path';
import { getFreePort, repoRoot, startProcess, type ManagedProcess } from '@llm-stream/testing';
import { PROVIDER_KEY_CANARY, gatewayApiKeysEnv } from './api-keys.js';

/** A built service running as a child process, with the base URL of its HTTP port. */
export interface RunningService {
  readonly name: string;
  readonly url: string;
  readonly process: ManagedProcess;
}

type Env = Readonly<Record<string, string>>;

/** Lines kept per service: the canary and log-field checks read every line a suite produced. */
const MAX_LINES = 200_000;

function mainOf(app: string): string {
  return join(repoRoot(), 'apps', app, 'dist', 'main.js');
}

async function launch(app: string, name: string, env: Env, readyLine: RegExp, portVariable: string): Promise<RunningService> {
  const port = await getFreePort();
  const child = startProcess(process.execPath, [mainOf(app)], {
    name,
    env: { [portVariable]: String(port), ...env },
    maxLines: MAX_LINES,
  });
  await child.waitForLine(readyLine, 20_000);
  return { name, url: `http://127.0.0.1:${String(port)}`, process: child };
}

/** Settings that make the timeouts of the services short enough for tests (each overridable). */
export const GATEWAY_TEST_ENV: Env = {
  HTTP_HOST: '127.0.0.1',
  GATEWAY_API_KEYS: gatewayApiKeysEnv(),
  OPENAI_API_KEY: PROVIDER_KEY_CANARY,
  ANTHROPIC_API_KEY: PROVIDER_KEY_CANARY,
  GEMINI_API_KEY: PROVIDER_KEY_CANARY,
  UPSTREAM_MAX_ATTEMPTS: '3',
  RETRY_BASE_DELAY_MS: '20',
  RETRY_MAX_DELAY_MS: '3000',
  UPSTREAM_CONNECT_TIMEOUT_MS: '3000',
  UPSTREAM_IDLE_TIMEOUT_MS: '4000',
  UPSTREAM_PROGRESS_TIMEOUT_MS: '3000',
  // Longer than any test stream's quiet time, so heartbeats never differ between runs.
  HEARTBEAT_INTERVAL_MS: '60000',
  CLIENT_GRACE_MS: '1000',
  LEASE_INTERVAL_MS: '200',
  SHUTDOWN_DRAIN_MS: '2000',
  LOG_LEVEL: 'debug',
};

export const NORMALIZER_TEST_ENV: Env = {
  HTTP_HOST: '127.0.0.1',
  WORK_ACK_WAIT_MS: '1500',
  GATEWAY_LEASE_TIMEOUT_MS: '1000',
  SHUTDOWN_DRAIN_MS: '2000',
  LOG_LEVEL: 'debug',
};

export interface GatewayOptions {
  readonly natsUrl: string;
  readonly providerUrl: string;
  readonly gatewayId: string;
  readonly env?: Env;
}

export function startGateway(options: GatewayOptions): Promise<RunningService> {
  const env: Env = {
    ...GATEWAY_TEST_ENV,
    NATS_URL: options.natsUrl,
    GATEWAY_ID: options.gatewayId,
    OPENAI_BASE_URL: options.providerUrl,
    ANTHROPIC_BASE_URL: options.providerUrl,
    GEMINI_BASE_URL: options.providerUrl,
    ...options.env,
  };
  return launch('gateway', options.gatewayId, env, /"msg":"gateway ready"/, 'HTTP_PORT');
}

export function startNormalizer(options: { readonly natsUrl: string; readonly name: string; readonly env?: Env }): Promise<RunningService> {
  const env: Env = { ...NORMALIZER_TEST_ENV, NATS_URL: options.natsUrl, ...options.env };
  return launch('normalizer', options.name, env, /"msg":"normalizer ready"/, 'HTTP_PORT');
}

/**
 * The replay provider, requiring the canary key so a gateway that forgets the provider key is caught (another
 * key and name for a second upstream of the routes suite).
 */
export async function startReplayProvider(transcriptsDir: string, requiredKey: string = PROVIDER_KEY_CANARY, name = 'replay-provider'): Promise<RunningService> {
  return launch(
    'replay-provider',
    name,
    { REPLAY_HOST: '127.0.0.1', REPLAY_TRANSCRIPTS_DIR: transcriptsDir, REPLAY_REQUIRE_API_KEY: requiredKey },
    /"msg":"listening"/,
    'REPLAY_PORT',
  );
}

/** The audit log (built dist), storing in `env`'s AUDIT_DATABASE_URL or AUDIT_SQLITE_PATH. */
export function startAuditLog(options: { readonly natsEnv: Env; readonly env: Env }): Promise<RunningService> {
  const env: Env = { HTTP_HOST: '127.0.0.1', GATEWAY_API_KEYS: gatewayApiKeysEnv(), LOG_LEVEL: 'debug', ...options.natsEnv, ...options.env };
  return launch('audit-log', 'audit-log', env, /"msg":"audit-log ready"/, 'HTTP_PORT');
}
