import { spawn, type ChildProcess } from 'node:child_process';
import { chownSync, closeSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { postgresBinDir } from './binaries.js';
import { getFreePort } from './free-port.js';
import { logTail } from './log-tail.js';
import { waitForPortClosed } from './port-probe.js';
import { createDatabaseOn, type PostgresServer } from './postgres-database.js';
import { registerCleanup } from './process-cleanup.js';
import { childPids, hasProcessEnded } from './process-tree.js';
import { runCommand, runCommandOrThrow } from './run-command.js';
import { makeTempDir } from './temp-dir.js';
import { waitFor } from './wait-for.js';

/** Options of {@link startPostgres}. */
export interface StartPostgresOptions {
  /** Port on 127.0.0.1; default a free one. */
  readonly port?: number;
  /** Readiness timeout of each start (crash recovery included), default 30 000 ms. */
  readonly readyTimeoutMs?: number;
}

/** A private PostgreSQL cluster (trust auth, fsync off) that a test can crash and restart. */
export interface PostgresHandle extends PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  /** The server log, appended across restarts. */
  readonly logPath: string;
  /** Fast shutdown (SIGINT), then the cluster's temp dir is deleted. Final: no restart after it. */
  stop(): Promise<void>;
  /** A crash: SIGKILL the postmaster and its backends, wait until they are gone and the port is closed. */
  kill(): Promise<void>;
  /** Starts the server again on the same port and data dir (fast shutdown first if it runs); waits until pg_isready. */
  restart(): Promise<void>;
  isRunning(): boolean;
  /** The last `lineCount` (default 50) lines of the server log, for failure messages. */
  logTail(lineCount?: number): string;
}

/** The cluster could not be created or started, or the handle was used after stop. */
export class PostgresClusterError extends Error {
  override readonly name = 'PostgresClusterError';

  constructor(
    readonly code: 'POSTGRES_START_FAILED' | 'POSTGRES_STOPPED',
    message: string,
  ) {
    super(message);
  }
}

interface OsIdentity {
  readonly uid: number;
  readonly gid: number;
}

/**
 * initdb and postgres refuse to run as root. As root we run them as the `postgres` OS user through spawn's
 * uid/gid rather than runuser/pg_ctl: the postmaster is then our own child, so we signal it directly and reap it.
 * (An orphaned postmaster, as pg_ctl leaves it, stays a zombie where init does not reap, e.g. in containers, and
 * its zombie pid in postmaster.pid makes the next start fail with "lock file already exists".)
 */
async function serverIdentity(): Promise<OsIdentity | undefined> {
  if (process.getuid?.() !== 0) {
    return undefined;
  }
  const id = async (flag: string): Promise<number> =>
    Number((await runCommandOrThrow('id', [flag, 'postgres'])).stdout.trim());
  return { uid: await id('-u'), gid: await id('-g') };
}

interface Running {
  readonly child: ChildProcess;
  readonly exited: Promise<void>;
}

function isAlive(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null && child.pid !== undefined;
}

const BIND_ATTEMPTS = 5;
const STOP_TIMEOUT_MS = 15_000;

/**
 * Creates a private cluster in a new temp dir (initdb `--auth=trust --username=postgres --encoding=UTF8
 * --no-sync`), starts it on 127.0.0.1 with `fsync=off` and its socket in the temp dir, and waits until
 * `pg_isready` succeeds. The server is killed and its temp dir removed when the test process ends, if the test
 * did not stop it.
 */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<PostgresHandle> {
  const binDir = postgresBinDir();
  const identity = await serverIdentity();
  const asServerUser = identity === undefined ? {} : { uid: identity.uid, gid: identity.gid };
  const tempDir = makeTempDir('postgres');
  const dataDir = join(tempDir, 'data');
  const socketDir = join(tempDir, 'socket');
  const logPath = join(tempDir, 'postgres.log');
  const cleanup = registerCleanup({ removePaths: [tempDir] });
  mkdirSync(socketDir);
  if (identity !== undefined) {
    chownSync(tempDir, identity.uid, identity.gid);
    chownSync(socketDir, identity.uid, identity.gid);
  }
  const readyTimeoutMs = options.readyTimeoutMs ?? 30_000;
  let port = 0;
  let running: Running | undefined;

  const launch = async (): Promise<void> => {
    const logFd = openSync(logPath, 'a');
    let child: ChildProcess;
    try {
      const settings = ['-c', 'fsync=off', '-c', 'listen_addresses=127.0.0.1', '-p', String(port), '-k', socketDir];
      child = spawn(join(binDir, 'postgres'), ['-D', dataDir, ...settings], {
        ...asServerUser,
        cwd: tempDir,
        stdio: ['ignore', logFd, logFd],
      });
      // A forgotten server must not keep the test process alive (jest would hang); the cleanup kills it on exit.
      child.unref();
    } finally {
      closeSync(logFd);
    }
    const exited = new Promise<void>((resolve) => {
      child.once('exit', () => {
        resolve();
      });
      child.once('error', () => {
        resolve();
      });
    });
    running = { child, exited };
    cleanup.update({ removePaths: [tempDir], ...(child.pid === undefined ? {} : { pid: child.pid }) });
    const serverExited = new AbortController();
    void exited.then(() => {
      serverExited.abort(
        new PostgresClusterError('POSTGRES_START_FAILED', `postgres exited during startup; log:\n${logTail(logPath)}`),
      );
    });
    // pg_isready exits 0 only once connections are accepted (1 while starting or recovering, 2 without answer).
    // It asks through our own socket dir: on 127.0.0.1:<port> another server could answer (our bind may have failed).
    await waitFor(
      async () => (await runCommand(join(binDir, 'pg_isready'), ['-q', '-h', socketDir, '-p', String(port), '-t', '2'])).code === 0,
      {
        timeoutMs: readyTimeoutMs,
        description: `postgres on port ${port} to accept connections (log: ${logPath})`,
        signal: serverExited.signal,
      },
    );
  };

  const signalAndWait = async (signal: NodeJS.Signals): Promise<void> => {
    if (running === undefined || !isAlive(running.child)) {
      return;
    }
    const { child, exited } = running;
    child.kill(signal);
    try {
      await waitFor(() => !isAlive(child), { timeoutMs: STOP_TIMEOUT_MS, description: `postgres to exit on ${signal}` });
    } catch {
      child.kill('SIGKILL');
    }
    await exited;
  };

  try {
    await runCommandOrThrow(
      join(binDir, 'initdb'),
      ['-D', dataDir, '--auth=trust', '--username=postgres', '--encoding=UTF8', '--locale=C', '--no-sync'],
      { cwd: tempDir, ...asServerUser },
    );
    // A port that was free a moment ago can be taken by a parallel run: retry on fresh ports unless it was imposed.
    for (let attempt = 1; ; attempt++) {
      port = options.port ?? (await getFreePort());
      try {
        await launch();
        break;
      } catch (error: unknown) {
        const bindFailed = /could not (bind|create listen socket)/i.test(logTail(logPath, 20));
        if (!bindFailed || options.port !== undefined || attempt >= BIND_ATTEMPTS) {
          throw error;
        }
      }
    }
  } catch (error: unknown) {
    await signalAndWait('SIGKILL');
    cleanup.release();
    rmSync(tempDir, { recursive: true, force: true });
    throw error;
  }

  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let stopped = false;
  const assertNotStopped = (): void => {
    if (stopped) {
      throw new PostgresClusterError('POSTGRES_STOPPED', `postgres on port ${port} was stopped; start a new one`);
    }
  };

  return {
    url,
    port,
    dataDir,
    logPath,
    createDatabase: (name?: string) => {
      assertNotStopped();
      return createDatabaseOn(url, name);
    },
    stop: async () => {
      if (stopped) {
        return;
      }
      // SIGINT is PostgreSQL's fast shutdown: sessions are disconnected, no waiting for clients.
      await signalAndWait('SIGINT');
      stopped = true;
      cleanup.release();
      rmSync(tempDir, { recursive: true, force: true });
    },
    kill: async () => {
      assertNotStopped();
      if (running === undefined || !isAlive(running.child)) {
        return;
      }
      const postmaster = running.child;
      const postmasterPid = postmaster.pid ?? -1;
      // Freeze the postmaster so it forks no backend we would miss, then kill the whole server at once, like a
      // crashed machine. Backends that outlived it would keep the shared memory attached and block the restart.
      process.kill(postmasterPid, 'SIGSTOP');
      const backends = childPids(postmasterPid);
      for (const pid of backends) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // It ended between the listing and the kill.
        }
      }
      await signalAndWait('SIGKILL');
      await waitFor(() => backends.every(hasProcessEnded), { description: 'the killed postgres backends to be gone' });
      await waitForPortClosed('127.0.0.1', port);
    },
    restart: async () => {
      assertNotStopped();
      await signalAndWait('SIGINT');
      await launch();
    },
    isRunning: () => !stopped && running !== undefined && isAlive(running.child),
    logTail: (lineCount = 50) => logTail(logPath, lineCount),
  };
}
