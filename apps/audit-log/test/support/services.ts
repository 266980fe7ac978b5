import { join } from 'node:path';
import { getFreePort, repoRoot, startProcess, type ManagedProcess } from '@llm-stream/testing';

/** A built app running as a child process. */
export interface Service {
  readonly url: string;
  readonly process: ManagedProcess;
  /** SIGTERM (graceful), SIGKILL after 15 s. */
  stop(): Promise<void>;
  /** SIGKILL: a crash. */
  kill(): Promise<void>;
}

const STARTUP_TIMEOUT_MS = 60_000;

async function startService(app: string, env: Readonly<Record<string, string>>, ready: RegExp, portVariable: string): Promise<Service> {
  const port = await getFreePort();
  const child = startProcess(process.execPath, [join(repoRoot(), 'apps', app, 'dist', 'main.js')], {
    name: app,
    cwd: repoRoot(),
    env: { [portVariable]: String(port), HTTP_HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
  });
  await child.waitForLine(ready, STARTUP_TIMEOUT_MS);
  return {
    url: `http://127.0.0.1:${String(port)}`,
    process: child,
    stop: async () => {
      await child.stop('SIGTERM', 15_000);
    },
    kill: async () => {
      await child.kill();
    },
  };
}

export function startAudit(env: Readonly<Record<string, string>>): Promise<Service> {
  return startService('audit-log', env, /"msg":"audit-log ready"/, 'HTTP_PORT');
}

export function startGateway(env: Readonly<Record<string, string>>): Promise<Service> {
  return startService('gateway', env, /"msg":"gateway ready"/, 'HTTP_PORT');
}

export function startNormalizer(env: Readonly<Record<string, string>>): Promise<Service> {
  return startService('normalizer', env, /"msg":"normalizer ready"/, 'HTTP_PORT');
}

export function startReplayProvider(env: Readonly<Record<string, string>> = {}): Promise<Service> {
  return startService('replay-provider', { REPLAY_HOST: '127.0.0.1', ...env }, /"msg":"listening"/, 'REPLAY_PORT');
}
