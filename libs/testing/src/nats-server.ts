import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { natsServerBinary } from './binaries.js';
import { getFreePort } from './free-port.js';
import { httpStatus } from './http-probe.js';
import { logTail } from './log-tail.js';
import { isProcessStopped } from './process-tree.js';
import { registerCleanup, type CleanupRegistration } from './process-cleanup.js';
import { makeTempDir } from './temp-dir.js';
import { waitFor } from './wait-for.js';

/** Options of {@link startNatsServer}. */
export interface StartNatsServerOptions {
  /** Run with JetStream (`-js`); default true. */
  readonly jetstream?: boolean;
  /** Client port; default a free one. */
  readonly port?: number;
  /** JetStream store directory, kept on stop; default a directory inside the server's temp dir (removed on stop). */
  readonly storeDir?: string;
  /** Readiness timeout of each start, default 15 000 ms. */
  readonly readyTimeoutMs?: number;
  /**
   * A configuration file's text (accounts, users, TLS: e.g. `natsAuthServerConfig` of @llm-stream/pipeline),
   * written to the server's temp dir and passed with `-c`; the options above still set the ports and store.
   */
  readonly config?: string;
  /**
   * Run once after the first start, before the handle is returned (the operator step: provisioning the streams
   * of an authorized server); when it fails the server is stopped and the error rethrown.
   */
  readonly provision?: (url: string) => Promise<unknown>;
}

/** A nats-server child process on 127.0.0.1. */
export interface NatsServerHandle {
  /** `nats://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** HTTP monitoring port (/healthz, /varz, /jsz). */
  readonly monitorPort: number;
  readonly storeDir: string;
  /** The server's stdout and stderr, appended across restarts. */
  readonly logPath: string;
  /** Pid of the current server process (a restart changes it). */
  readonly pid: number;
  /** SIGTERM, wait for the exit (SIGKILL after 10 s), then remove the temp dir. Final: no restart after it. */
  stop(): Promise<void>;
  /** Sends `signal` (default SIGKILL, a crash) and waits for the exit; store and port stay for {@link restart}. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /**
   * SIGSTOP, resolved once every thread has stopped: the process freezes (sockets stay open, nothing is answered)
   * until {@link resume}; a pause, not a crash.
   */
  pause(): Promise<void>;
  /** SIGCONT after {@link pause}. */
  resume(): void;
  /** Starts the server again on the same ports and store dir (stopping it gracefully first if it runs), then waits until ready. */
  restart(): Promise<void>;
  isRunning(): boolean;
  /** The last `lineCount` (default 50) lines of the server log, for failure messages. */
  logTail(lineCount?: number): string;
}

/** The server could not be started, or the handle was used after {@link NatsServerHandle.stop}. */
export class NatsServerError extends Error {
  override readonly name = 'NatsServerError';

  constructor(
    readonly code: 'NATS_START_FAILED' | 'NATS_STOPPED',
    message: string,
  ) {
    super(message);
  }
}

const BIND_ATTEMPTS = 5;
const EXIT_TIMEOUT_MS = 10_000;

interface Running {
  readonly child: ChildProcess;
  readonly exited: Promise<void>;
}

function spawnServer(args: readonly string[], logPath: string): Running {
  // The child writes its log straight to the file: no pipe for us to drain, and the log survives a SIGKILL of the test.
  const logFd = openSync(logPath, 'a');
  try {
    const child = spawn(natsServerBinary(), args, { stdio: ['ignore', logFd, logFd] });
    // A forgotten server must not keep the test process alive (jest would hang); the cleanup kills it on exit.
    child.unref();
    const exited = new Promise<void>((resolve) => {
      child.once('exit', () => {
        resolve();
      });
      child.once('error', () => {
        resolve();
      });
    });
    return { child, exited };
  } finally {
    closeSync(logFd);
  }
}

function isAlive(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null && child.pid !== undefined;
}

/**
 * Resolves when the monitoring endpoint reports healthy (with JetStream: `js-enabled-only=true`, which 2.9
 * supports, so the JetStream subsystem is up, not just the client port), or rejects when the server exits first.
 */
async function waitUntilReady(running: Running, healthUrl: string, timeoutMs: number, logPath: string): Promise<void> {
  const serverExited = new AbortController();
  void running.exited.then(() => {
    serverExited.abort(new NatsServerError('NATS_START_FAILED', `nats-server exited during startup; log:\n${logTail(logPath)}`));
  });
  await waitFor(async () => (await httpStatus(healthUrl)) === 200, {
    timeoutMs,
    intervalMs: 25,
    description: `nats-server to answer ${healthUrl} with 200 (log: ${logPath})`,
    signal: serverExited.signal,
  });
}

/**
 * Starts a private `nats-server` (JetStream on by default) on free ports of 127.0.0.1 with its store in a new
 * temp dir, and waits until /healthz answers 200. The handle can crash (kill), restart and stop it. The server
 * is killed and its temp dir removed when the test process ends, if the test did not stop it.
 */
export async function startNatsServer(options: StartNatsServerOptions = {}): Promise<NatsServerHandle> {
  const jetstream = options.jetstream ?? true;
  const readyTimeoutMs = options.readyTimeoutMs ?? 15_000;
  const tempDir = makeTempDir('nats');
  const storeDir = options.storeDir ?? join(tempDir, 'store');
  const logPath = join(tempDir, 'nats-server.log');
  const configPath = join(tempDir, 'nats-server.conf');
  if (options.config !== undefined) writeFileSync(configPath, options.config, { mode: 0o600 });
  const cleanup: CleanupRegistration = registerCleanup({ removePaths: [tempDir] });

  let port = 0;
  let monitorPort = 0;
  let running: Running | undefined;
  const argsFor = (): string[] => [
    ...(options.config === undefined ? [] : ['-c', configPath]),
    ...['--addr', '127.0.0.1', '--port', String(port), '--http_port', String(monitorPort)],
    ...(jetstream ? ['--jetstream', '--store_dir', storeDir] : []),
  ];
  const healthUrl = (): string =>
    `http://127.0.0.1:${monitorPort}/healthz${jetstream ? '?js-enabled-only=true' : ''}`;
  const launch = async (): Promise<void> => {
    const next = spawnServer(argsFor(), logPath);
    running = next;
    cleanup.update({ removePaths: [tempDir], ...(next.child.pid === undefined ? {} : { pid: next.child.pid }) });
    await waitUntilReady(next, healthUrl(), readyTimeoutMs, logPath);
  };

  try {
    // A port that was free a moment ago can be taken by a parallel run: retry on fresh ports unless it was imposed.
    for (let attempt = 1; ; attempt++) {
      port = options.port ?? (await getFreePort());
      monitorPort = await getFreePort();
      try {
        await launch();
        break;
      } catch (error: unknown) {
        const bindFailed = logTail(logPath).includes('address already in use');
        if (!bindFailed || options.port !== undefined || attempt >= BIND_ATTEMPTS) {
          throw error;
        }
      }
    }
    await options.provision?.(`nats://127.0.0.1:${String(port)}`);
  } catch (error: unknown) {
    if (running !== undefined && isAlive(running.child)) {
      running.child.kill('SIGKILL');
      await running.exited;
    }
    cleanup.release();
    rmSync(tempDir, { recursive: true, force: true });
    throw error;
  }

  let stopped = false;
  const current = (): Running => {
    if (running === undefined || stopped) {
      throw new NatsServerError('NATS_STOPPED', `nats-server on port ${port} was stopped; start a new one`);
    }
    return running;
  };
  const signalAndWait = async (signal: NodeJS.Signals): Promise<void> => {
    const { child, exited } = current();
    if (!isAlive(child)) {
      return;
    }
    child.kill(signal);
    try {
      await waitFor(() => !isAlive(child), { timeoutMs: EXIT_TIMEOUT_MS, description: `nats-server to exit on ${signal}` });
    } catch (error: unknown) {
      if (signal === 'SIGKILL') {
        throw error;
      }
      child.kill('SIGKILL');
    }
    await exited;
  };

  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    monitorPort,
    storeDir,
    logPath,
    get pid() {
      return running?.child.pid ?? -1;
    },
    stop: async () => {
      if (stopped) {
        return;
      }
      await signalAndWait('SIGTERM');
      stopped = true;
      cleanup.release();
      rmSync(tempDir, { recursive: true, force: true });
    },
    kill: (signal: NodeJS.Signals = 'SIGKILL') => signalAndWait(signal),
    pause: async () => {
      const { child } = current();
      if (!isAlive(child) || child.pid === undefined) return;
      const pid = child.pid;
      child.kill('SIGSTOP');
      await waitFor(() => isProcessStopped(pid), { intervalMs: 1, description: 'nats-server to stop on SIGSTOP' });
    },
    resume: () => {
      const { child } = current();
      if (isAlive(child)) child.kill('SIGCONT');
    },
    restart: async () => {
      await signalAndWait('SIGTERM');
      await launch();
    },
    isRunning: () => running !== undefined && !stopped && isAlive(running.child),
    logTail: (lineCount = 50) => logTail(logPath, lineCount),
  };
}
