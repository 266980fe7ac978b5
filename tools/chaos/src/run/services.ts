import { join } from 'node:path';
import { startProcess, type ManagedProcess } from '@llm-stream/testing';

type Env = Readonly<Record<string, string>>;

/** One service of the system as a child process on a fixed port, restartable on that port after a crash. */
export interface Service {
  readonly name: string;
  readonly url: string;
  readonly port: number;
  /** The current process (a restart replaces it). */
  current(): ManagedProcess;
  /** kill -9, wait for the exit. */
  kill(): Promise<void>;
  /** Starts the process again (same port, same env with `env` over it) and waits for its ready line. */
  start(env?: Env): Promise<void>;
  stop(): Promise<void>;
}

export interface ServiceSpec {
  readonly root: string;
  readonly app: 'gateway' | 'normalizer' | 'audit-log' | 'replay-provider';
  readonly name: string;
  readonly port: number;
  readonly portVariable: string;
  readonly readyLine: RegExp;
  readonly env: Env;
  /** The directory of `<name>.log`, the service's whole log across restarts; null: only the last lines are kept. */
  readonly logDir: string | null;
}

const READY_TIMEOUT_MS = 60_000;

/** Starts the built `apps/<app>/dist/main.js` of `root` with Node of this process (Node 24 under npm run). */
export async function startService(spec: ServiceSpec): Promise<Service> {
  const main = join(spec.root, 'apps', spec.app, 'dist', 'main.js');
  let process_: ManagedProcess | undefined;
  const start = async (env: Env = {}): Promise<void> => {
    const child = startProcess(process.execPath, [main], {
      name: spec.name,
      env: { [spec.portVariable]: String(spec.port), ...spec.env, ...env },
      maxLines: 2_000,
      cwd: spec.root,
      ...(spec.logDir === null ? {} : { logFile: join(spec.logDir, `${spec.name}.log`) }),
    });
    process_ = child;
    await child.waitForLine(spec.readyLine, READY_TIMEOUT_MS);
  };
  await start();
  const current = (): ManagedProcess => {
    if (process_ === undefined) throw new Error(`${spec.name} was never started`);
    return process_;
  };
  return {
    name: spec.name,
    url: `http://127.0.0.1:${spec.port}`,
    port: spec.port,
    current,
    kill: async () => {
      await current().kill();
    },
    start,
    stop: async () => {
      await current().stop('SIGTERM', 10_000);
    },
  };
}
