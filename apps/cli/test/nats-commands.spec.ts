import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { STREAM_NAMES } from '@llm-stream/contract';
import { parseNatsCredentials, type NatsCredentials } from '@llm-stream/pipeline';
import { repoRoot, startNatsServer, type NatsServerHandle } from '@llm-stream/testing';

const root = repoRoot(__dirname);
const cli = join(root, 'apps/cli/dist/main.js');

function run(args: readonly string[], env: NodeJS.ProcessEnv = {}): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, ...env } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The operator's NATS steps as a quick start or a Kubernetes Job runs them: credentials, server configuration, provisioning. */
describe('llm-stream nats-credentials, nats-config, provision', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'llm-stream-cli-nats-'));
  const credentialsFile = join(scratch, 'credentials.json');
  let credentials: NatsCredentials;
  let server: NatsServerHandle;

  beforeAll(async () => {
    const generated = run(['nats-credentials', '--tenants', 'acme,globex']);
    expect({ status: generated.status, stderr: generated.stderr }).toEqual({ status: 0, stderr: '' });
    writeFileSync(credentialsFile, generated.stdout, { mode: 0o600 });
    const parsed = parseNatsCredentials(generated.stdout);
    if (!parsed.ok) throw new Error(parsed.error.message);
    credentials = parsed.value;
    const config = run(['nats-config', '--credentials', credentialsFile]);
    expect(config.status).toBe(0);
    server = await startNatsServer({ config: config.stdout });
  });

  afterAll(async () => {
    await server.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('provision creates the platform streams and each tenant stream, with the limits of the environment; again is a no-op', async () => {
    const env = { NATS_URL: server.url, RAW_RETENTION_HOURS: '2' };
    const first = run(['provision', '--credentials', credentialsFile], env);
    expect(first).toEqual({ status: 0, stderr: '', stdout: `provisioned LLM_RAW, LLM_EVENTS, LLM_WORK and the LLM_EVENTS of acme, globex on ${server.url}\n` });
    expect(run(['provision', '--credentials', credentialsFile], env)).toMatchObject({ status: 0, stdout: first.stdout });
    const { user, password } = credentials.platform.provisioner;
    const nc = await connect({ servers: server.url, user, pass: password, inboxPrefix: '_INBOX_provisioner' });
    const jsm = await jetstreamManager(nc);
    expect((await jsm.streams.info(STREAM_NAMES.raw)).config.max_age).toBe(2 * 3_600_000 * 1_000_000);
    await nc.close();
    const backend = credentials.tenants['globex']!.backend;
    const tenant = await connect({ servers: server.url, user: backend.user, pass: backend.password });
    const copy = (await (await jetstreamManager(tenant)).streams.info(STREAM_NAMES.events)).config;
    expect(copy.sources?.map(({ name, filter_subject }) => ({ name, filter_subject }))).toEqual([{ name: STREAM_NAMES.events, filter_subject: 'llm.events.globex.>' }]);
    await tenant.close();
  });

  it('nats-config --output writes the same configuration to a file only its owner reads (the NATS pods\' init container)', () => {
    const output = join(scratch, 'authorization.conf');
    expect(run(['nats-config', '--credentials', credentialsFile, '--output', output])).toEqual({ status: 0, stdout: '', stderr: '' });
    expect(readFileSync(output, 'utf8')).toBe(run(['nats-config', '--credentials', credentialsFile]).stdout);
    expect(statSync(output).mode & 0o777).toBe(0o600);
  });

  it.each([
    [['nats-credentials'], /missing --tenants/],
    [['nats-credentials', '--tenants', 'a.b'], /"a\.b" is not a valid tenant/],
    [['nats-config'], /missing --credentials/],
    [['nats-config', '--credentials', '/nonexistent/credentials.json'], /cannot read/],
    [['nats-config', '--credentials', credentialsFile, '--tls-ca', 'ca.pem'], /--tls-ca needs --tls-cert/],
  ])('%j is a usage error (exit 2)', (args, message) => {
    const result = run(args);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});
