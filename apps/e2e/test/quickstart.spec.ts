import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { STREAM_NAMES } from '@llm-stream/contract';
import { parseNatsCredentials } from '@llm-stream/pipeline';
import {
  descendantPids,
  findExecutable,
  getFreePort,
  hasProcessEnded,
  isPortOpen,
  repoRoot,
  startNatsServer,
  startProcess,
  waitFor,
  type ManagedProcess,
  type NatsServerHandle,
  type ProcessExit,
} from '@llm-stream/testing';

/**
 * `npm start` as a new user meets it: it fails fast with the cause (and the failing service's last log lines),
 * keeps every service's log in a file, binds 127.0.0.1, checks JetStream, and removes what it created on a NATS
 * server it did not start when asked (`npm run quickstart:reset`).
 */
const PORT_VARIABLES = ['GATEWAY_PORT', 'NORMALIZER_PORT', 'AUDIT_PORT', 'REPLAY_PORT'] as const;
type Ports = Record<(typeof PORT_VARIABLES)[number], number>;

async function freePorts(): Promise<Ports> {
  const ports: Partial<Ports> = {};
  for (const variable of PORT_VARIABLES) ports[variable] = await getFreePort();
  return ports as Ports;
}

function portEnv(ports: Ports): Record<string, string> {
  return Object.fromEntries(Object.entries(ports).map(([variable, port]) => [variable, String(port)]));
}

function launch(name: string, script: 'start.mjs' | 'reset.mjs', env: Record<string, string | undefined>): ManagedProcess {
  return startProcess(process.execPath, [join(repoRoot(), 'tools/start', script)], { name, cwd: repoRoot(), env: { QUICKSTART_VERBOSE: undefined, ...env } });
}

/** `npm start` as the README says, from the repository root: npm runs the script through `sh -c`. */
function launchNpmStart(env: Record<string, string | undefined>): ManagedProcess {
  const npm = findExecutable('npm');
  if (npm === undefined) throw new Error('npm is not on PATH');
  return startProcess(npm, ['start'], { name: 'npm start', cwd: repoRoot(), env: { QUICKSTART_VERBOSE: undefined, ...env } });
}

/** The command line of a running process ('' when it is gone). */
function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${String(pid)}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

/** Kills what a test saw started and is still running, and whatever those started meanwhile. */
function killLeftovers(pids: readonly number[]): void {
  const running = pids.filter((pid) => !hasProcessEnded(pid));
  for (const pid of [...running, ...running.flatMap(descendantPids)]) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port }, () => {
      resolve(server);
    });
  });
}

async function streamNames(url: string): Promise<string[]> {
  const nc = await connect({ servers: url });
  try {
    const jsm = await jetstreamManager(nc);
    return (await jsm.streams.names().next()).sort();
  } finally {
    await nc.close();
  }
}

describe('the quick start', () => {
  let state: string;
  let nats: NatsServerHandle | undefined;

  beforeEach(() => {
    state = mkdtempSync(join(tmpdir(), 'llm-stream-quickstart-'));
  });

  afterEach(async () => {
    await nats?.stop();
    nats = undefined;
    rmSync(state, { recursive: true, force: true });
  });

  it('refuses a taken port before starting anything, naming the port and the variable that moves it', async () => {
    const ports = await freePorts();
    const holder = await listen(ports.GATEWAY_PORT);
    try {
      const start = launch('quickstart', 'start.mjs', { ...portEnv(ports), QUICKSTART_DIR: state, NATS_URL: `nats://127.0.0.1:${String(await getFreePort())}` });
      expect(await start.waitForExit(60_000)).toEqual({ code: 1, signal: null });
      expect(start.lines).toContain(
        `[start] port ${String(ports.GATEWAY_PORT)} on 127.0.0.1 (gateway) is already in use: stop what holds it, or set GATEWAY_PORT to a free port`,
      );
      expect(existsSync(join(state, 'nats'))).toBe(false);
    } finally {
      holder.close();
    }
  }, 90_000);

  it('refuses a NATS server without JetStream', async () => {
    nats = await startNatsServer({ jetstream: false });
    const start = launch('quickstart', 'start.mjs', { ...portEnv(await freePorts()), QUICKSTART_DIR: state, NATS_URL: nats.url });
    expect(await start.waitForExit(60_000)).toEqual({ code: 1, signal: null });
    expect(start.lines).toContain(`[start] the NATS server at ${nats.url} has no JetStream: start it with -js (nats-server -js), or set NATS_URL to one that has`);
  }, 90_000);

  it('stops everything when a service exits, printing why and the service’s last log lines', async () => {
    nats = await startNatsServer();
    const ports = await freePorts();
    // Only the gateway reads UPSTREAM_MAX_ATTEMPTS: it refuses to start, the other services are stopped.
    const start = launch('quickstart', 'start.mjs', { ...portEnv(ports), QUICKSTART_DIR: state, NATS_URL: nats.url, UPSTREAM_MAX_ATTEMPTS: '0' });
    expect(await start.waitForExit(90_000)).toEqual({ code: 1, signal: null });
    const output = start.lines.join('\n');
    expect(output).toMatch(/\[start\] gateway exited with code 1: invalid configuration: UPSTREAM_MAX_ATTEMPTS/);
    expect(output).toContain(`[start] last lines of gateway (all of them: ${join(state, 'logs', 'gateway.log')}):`);
    expect(output).toMatch(/^ {2}\{"level":"error","service":"gateway".*"variable":"UPSTREAM_MAX_ATTEMPTS"\}$/m);
    for (const port of Object.values(ports)) {
      const probe = await listen(port); // every service the quick start had started is gone
      probe.close();
    }
  }, 120_000);

  it('starts its own NATS with authorization on, provisioned, and prints how a backend of the demo tenant connects', async () => {
    const natsUrl = `nats://127.0.0.1:${String(await getFreePort())}`;
    const start = launch('quickstart', 'start.mjs', { ...portEnv(await freePorts()), QUICKSTART_DIR: state, NATS_URL: natsUrl });
    let stopped: ProcessExit | undefined;
    try {
      await start.waitForLine(/^\[start\] ready \(services on 127\.0\.0\.1; logs in /, 120_000);
      await start.waitForLine(/as user backend-demo, its$/, 10_000);
      // The console address it prints is served: the built page, under its strict policy.
      const consoleLine = await start.waitForLine(/diagnostics console .* (http:\/\/\S+\/console\/)$/, 10_000);
      const consoleUrl = /(http:\/\/\S+\/console\/)$/.exec(consoleLine)?.[1] ?? '';
      const page = await fetch(consoleUrl);
      expect({ status: page.status, type: page.headers.get('content-type'), csp: page.headers.get('content-security-policy') }).toMatchObject({
        status: 200,
        type: expect.stringMatching(/^text\/html/),
        csp: expect.stringContaining("default-src 'self'"),
      });
      // Its own build of the console, in its state directory: a fresh clone has no apps/console/dist.
      const script = /src="\/console\/(assets\/[^"]+\.js)"/.exec(await page.text())?.[1] ?? '';
      expect(existsSync(join(state, 'console', script))).toBe(true);
      expect((await fetch(new URL(script, consoleUrl))).status).toBe(200);
      await expect(connect({ servers: natsUrl, reconnect: false })).rejects.toThrow(/Authorization Violation/);
      const credentials = parseNatsCredentials(readFileSync(join(state, 'nats-credentials.json'), 'utf8'));
      if (!credentials.ok) throw new Error(credentials.error.message);
      const backend = credentials.value.tenants['demo']?.backend;
      if (backend === undefined) throw new Error('no credentials of the demo tenant');
      const nc = await connect({ servers: natsUrl, user: backend.user, pass: backend.password });
      try {
        const info = await (await jetstreamManager(nc)).streams.info(STREAM_NAMES.events);
        // The demo tenant's copy of its events, sourced from the platform's stream.
        expect(info.config.sources?.map(({ name, filter_subject }) => ({ name, filter_subject }))).toEqual([{ name: STREAM_NAMES.events, filter_subject: 'llm.events.demo.>' }]);
      } finally {
        await nc.close();
      }
    } finally {
      // Asserted after the block: an expectation here would replace the error that failed the test.
      stopped = await start.stop('SIGINT', 20_000);
    }
    expect({ exit: stopped, output: start.describe() }).toEqual({ exit: { code: 0, signal: null }, output: expect.any(String) });
    expect(readFileSync(join(state, 'logs', 'nats-server.log'), 'utf8')).not.toMatch(/Violation - User "(gateway|normalizer|audit-log)"/);
  }, 180_000);

  it('stops everything it started, ports freed, within 10 s of a SIGTERM to the pid of `npm start` (a supervisor, `kill $!`)', async () => {
    const ports = await freePorts();
    const natsPort = await getFreePort();
    const start = launchNpmStart({ ...portEnv(ports), QUICKSTART_DIR: state, NATS_URL: `nats://127.0.0.1:${String(natsPort)}` });
    let started: number[] = [];
    try {
      await start.waitForLine(/^\[start\] ready \(services on 127\.0\.0\.1; logs in /, 120_000);
      // The quick start, nats-server, the replay provider, the normalizer, the audit log and the gateway.
      started = descendantPids(start.pid);
      expect(started.length).toBeGreaterThanOrEqual(6);
      const held = [...Object.values(ports), natsPort];
      process.kill(start.pid, 'SIGTERM');
      await waitFor(async () => started.every(hasProcessEnded) && (await Promise.all(held.map((port) => isPortOpen('127.0.0.1', port)))).every((open) => !open), {
        timeoutMs: 10_000,
        intervalMs: 100,
        description: `every process npm start started to end and ports ${held.join(', ')} to be freed`,
      });
      expect(await start.waitForExit(10_000)).toEqual({ code: 0, signal: null });
      for (const port of held) (await listen(port)).close();
    } finally {
      killLeftovers(started);
      await start.stop('SIGKILL', 5_000);
    }
  }, 180_000);

  it('stops within 10 s of a SIGINT to the pid of `npm start` while it builds, starting nothing after', async () => {
    const start = launchNpmStart({ ...portEnv(await freePorts()), QUICKSTART_DIR: state, NATS_URL: `nats://127.0.0.1:${String(await getFreePort())}` });
    const seen = new Set<number>();
    try {
      await start.waitForLine(/^\[start\] building/, 60_000);
      await waitFor(
        () => {
          for (const pid of descendantPids(start.pid)) seen.add(pid);
          return [...seen].some((pid) => /typescript\/bin\/tsc|vite\/bin\/vite/.test(commandLine(pid)));
        },
        { timeoutMs: 30_000, intervalMs: 20, description: 'the build (tsc or vite) to run' },
      );
      process.kill(start.pid, 'SIGINT');
      await waitFor(() => [...seen].every(hasProcessEnded) && hasProcessEnded(start.pid), {
        timeoutMs: 10_000,
        intervalMs: 100,
        description: 'npm start, the quick start and its build to end',
      });
      expect(await start.waitForExit(1_000)).toEqual({ code: 0, signal: null });
      expect(start.lines.filter((line) => line.startsWith('[start] ') && !line.startsWith('[start] building'))).toEqual([]);
      expect(readdirSync(join(state, 'logs'))).toEqual([]);
    } finally {
      killLeftovers([...seen]);
      await start.stop('SIGKILL', 5_000);
    }
  }, 120_000);

  it('runs on an existing NATS, keeps logs in files, and quickstart:reset removes the streams it created', async () => {
    nats = await startNatsServer();
    const ports = await freePorts();
    const start = launch('quickstart', 'start.mjs', { ...portEnv(ports), QUICKSTART_DIR: state, NATS_URL: nats.url });
    let stopped: ProcessExit | undefined;
    try {
      await start.waitForLine(/^\[start\] ready \(services on 127\.0\.0\.1; logs in /, 120_000);
    } finally {
      stopped = await start.stop('SIGINT', 20_000);
    }
    expect({ exit: stopped, output: start.describe() }).toEqual({ exit: { code: 0, signal: null }, output: expect.any(String) });
    expect(start.lines.join('\n')).toContain(`[start] using the NATS server at ${nats.url}`);
    expect(readdirSync(join(state, 'logs')).sort()).toEqual(['audit-log.log', 'gateway.log', 'normalizer.log', 'replay-provider.log']);
    expect(await streamNames(nats.url)).toEqual(['LLM_EVENTS', 'LLM_RAW', 'LLM_WORK']);

    const reset = launch('reset', 'reset.mjs', { QUICKSTART_DIR: state });
    expect(await reset.waitForExit(30_000)).toEqual({ code: 0, signal: null });
    expect(reset.lines).toContain(`[reset] ${nats.url}: removed stream LLM_RAW, stream LLM_EVENTS, stream LLM_WORK`);
    expect(await streamNames(nats.url)).toEqual([]);
  }, 180_000);
});
