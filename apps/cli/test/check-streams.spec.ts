import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseNatsCredentials, type NatsCredentials } from '@llm-stream/pipeline';
import { getFreePort, repoRoot, startNatsServer, waitFor, type NatsServerHandle } from '@llm-stream/testing';

const root = repoRoot(__dirname);
const cli = join(root, 'apps/cli/dist/main.js');

interface Finished {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(args: readonly string[], env: NodeJS.ProcessEnv = {}): Finished {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, ...env } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The CLI as a running process: its output so far, and its end. */
function start(args: readonly string[], env: NodeJS.ProcessEnv): { stderr: () => string; finished: Promise<Finished> } {
  const child = spawn(process.execPath, [cli, ...args], { cwd: root, env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const finished = new Promise<Finished>((resolve) => child.on('close', (status) => {
      resolve({ status, stdout, stderr });
    }));
  return { stderr: () => stderr, finished };
}

/** What a service pod's init container runs before the service: it waits for the provisioning Job, and creates nothing. */
describe('llm-stream check-streams', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'llm-stream-cli-check-'));
  const credentialsFile = join(scratch, 'credentials.json');
  let credentials: NatsCredentials;
  let server: NatsServerHandle;
  const asService = (identity: 'gateway' | 'normalizer' | 'audit-log'): NodeJS.ProcessEnv => ({
    NATS_URL: server.url,
    NATS_USER: identity,
    NATS_PASSWORD: credentials.platform[identity].password,
  });

  beforeAll(async () => {
    const generated = run(['nats-credentials', '--tenants', 'acme']);
    writeFileSync(credentialsFile, generated.stdout, { mode: 0o600 });
    const parsed = parseNatsCredentials(generated.stdout);
    if (!parsed.ok) throw new Error(parsed.error.message);
    credentials = parsed.value;
    server = await startNatsServer({ config: run(['nats-config', '--credentials', credentialsFile]).stdout });
  });

  afterAll(async () => {
    await server.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('before provisioning: exit 1 naming the missing streams, and nothing is created by asking', () => {
    const first = run(['check-streams'], asService('gateway'));
    expect(first.status).toBe(1);
    expect(first.stderr).toBe('llm-stream: the JetStream streams LLM_RAW, LLM_EVENTS, LLM_WORK do not exist yet (the operator step `llm-stream provision` creates them)\n');
    expect(run(['check-streams'], asService('normalizer')).stderr).toBe(first.stderr);
  });

  it('a wrong password fails at once, even when told to wait', () => {
    const result = run(['check-streams', '--wait', '600'], { ...asService('audit-log'), NATS_PASSWORD: 'not-the-password-of-audit-log' });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^llm-stream: NATS refuses the connection: .*check NATS_USER and NATS_PASSWORD/);
  });

  it('with --wait: waits for the provisioning, says why once, then exits 0 for every service', async () => {
    const waiting = start(['check-streams', '--wait', '120'], asService('normalizer'));
    await waitFor(() => waiting.stderr().includes('waiting: the JetStream streams LLM_RAW, LLM_EVENTS, LLM_WORK do not exist yet'), {
      timeoutMs: 30_000,
      description: 'check-streams to report the missing streams',
    });
    expect(run(['provision', '--credentials', credentialsFile], { NATS_URL: server.url }).status).toBe(0);
    const result = await waiting.finished;
    expect(result).toEqual({
      status: 0,
      stdout: `the JetStream streams LLM_RAW, LLM_EVENTS, LLM_WORK exist on ${server.url}\n`,
      stderr: 'llm-stream: waiting: the JetStream streams LLM_RAW, LLM_EVENTS, LLM_WORK do not exist yet (the operator step `llm-stream provision` creates them)\n',
    });
    for (const identity of ['gateway', 'audit-log'] as const) expect(run(['check-streams'], asService(identity)).status).toBe(0);
  }, 60_000);

  it('no server: exit 1, NATS does not answer', async () => {
    const result = run(['check-streams'], { NATS_URL: `nats://127.0.0.1:${String(await getFreePort())}` });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^llm-stream: NATS does not answer: /);
  });

  it.each([['abc'], ['1.5'], ['86401']])('--wait %s is a usage error (exit 2)', (wait) => {
    const result = run(['check-streams', '--wait', wait], { NATS_URL: 'nats://127.0.0.1:1' });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/--wait must be a number of seconds/);
  });
});
