// `npm start`: the whole system on one machine, on its embedded defaults. It builds, starts NATS with
// JetStream and the shipped authorization (unless one answers at NATS_URL: that server is used as it is,
// anonymously), provisions its streams (the operator step), then the replay provider (recorded provider streams), the normalizer,
// the audit log (SQLite file) and the gateway, waits until each is ready, and prints curl lines to try.
// It fails fast: the first problem (a bad setting, a taken port, NATS without JetStream, a service that exits)
// stops everything at once and prints the cause with the failing service's last log lines. Ctrl-C stops it, and
// so does a SIGINT or SIGTERM to `npm start`'s pid (npm forwards it to this process: the script execs node, so
// no shell stands between them to swallow it).
// Settings: QUICKSTART_HOST (127.0.0.1), GATEWAY_PORT, NORMALIZER_PORT, AUDIT_PORT, REPLAY_PORT, NATS_URL,
// QUICKSTART_DIR (tmp/quickstart: logs/<service>.log, the NATS store, the audit database), QUICKSTART_VERBOSE.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createdSince, natsAnswers, pipelineInventory } from './nats-check.mjs';
import { portIsFree } from './port-check.mjs';
import { readSettings, SettingError } from './quickstart-settings.mjs';
import { startService } from './service-process.mjs';

const root = join(import.meta.dirname, '../..');
const demoKey = 'demo-key';
const demoTenant = 'demo';
const apiKeys = JSON.stringify([{ sha256: createHash('sha256').update(demoKey).digest('hex'), tenant: demoTenant, reasoning: true }]);
const services = [];
/** The build step running now (tsc, then vite), stopped like a service. */
let buildStep = null;
let stopping = false;

const log = (message) => process.stdout.write(`[start] ${message}\n`);

async function stopAll() {
  stopping = true;
  await Promise.all(
    [...services, ...(buildStep === null ? [] : [buildStep])].reverse().map(async (service) => {
      const kill = setTimeout(() => void service.stop('SIGKILL'), 5_000);
      await service.stop('SIGTERM');
      clearTimeout(kill);
    }),
  );
}

/** Stops everything and exits 1, with the cause and, for a service, its last log lines. */
async function fail(message, service) {
  // Already stopping (a signal, an earlier failure): that stop ends the process, and the caller goes no further.
  if (stopping) return new Promise(() => {});
  process.stderr.write(`[start] ${message}\n`);
  if (service !== undefined) {
    process.stderr.write(`[start] last lines of ${service.name} (all of them: ${service.logFile}):\n`);
    for (const line of service.lastLines()) process.stderr.write(`  ${line}\n`);
  }
  await stopAll();
  process.exit(1);
}

function describeExit({ code, signal, error }) {
  if (error !== null) return `could not be started: ${error.message}`;
  return signal === null ? `exited with code ${code}` : `was killed by ${signal}`;
}

/** The message of the last error-level JSON log line, which names the cause when a service refuses to start. */
function lastError(service) {
  for (const line of service.lastLines().reverse()) {
    try {
      const entry = JSON.parse(line);
      if (entry.level === 'error' || entry.level === 'fatal') return entry.variable && !String(entry.msg).includes(entry.variable) ? `${entry.msg} (${entry.variable})` : entry.msg;
    } catch {
      // not a JSON log line
    }
  }
  return undefined;
}

function run(settings, name, command, args, env) {
  // Once stopping, nothing new starts: what is started now would outlive the quick start.
  if (stopping) return;
  const service = startService({ name, command, args, env: { ...process.env, ...env }, cwd: root, logs: settings.logs, verbose: settings.verbose });
  services.push(service);
  void service.exited.then((exit) => {
    const cause = lastError(service);
    return fail(`${name} ${describeExit(exit)}${cause ? `: ${cause}` : ''}`, service);
  });
}

/** Runs one build step to its end, its output on the terminal; resolves whether it succeeded. */
async function build(args) {
  if (stopping) return false;
  const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
  const exited = new Promise((resolve) => {
    child.on('error', () => resolve(false));
    child.on('exit', (code) => resolve(code === 0));
  });
  buildStep = {
    stop: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  const succeeded = await exited;
  buildStep = null;
  return succeeded;
}

/** A SIGINT or SIGTERM (Ctrl-C, a supervisor, `kill` of `npm start`'s pid): stops everything once, exits 0. */
function stopOnSignal() {
  if (stopping) return;
  void stopAll().then(() => process.exit(0));
}

/** Polls `probe` until it answers true; a service that exits meanwhile fails the start at once (see run). */
async function waitUntil(description, probe, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await fail(`${description} did not become ready within ${timeoutMs / 1000} s (logs: ${settings.logs})`);
}

async function httpOk(url) {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
}

function findNatsServer() {
  for (const candidate of [process.env.NATS_SERVER_BIN, '/usr/sbin/nats-server', '/usr/local/bin/nats-server', '/usr/bin/nats-server']) {
    if (candidate && existsSync(candidate)) return candidate;
  }
  const which = spawnSync('sh', ['-c', 'command -v nats-server'], { encoding: 'utf8' });
  return which.status === 0 ? which.stdout.trim() : undefined;
}

function readSettingsOrExit() {
  try {
    return readSettings(process.env, root);
  } catch (error) {
    if (!(error instanceof SettingError)) throw error;
    process.stderr.write(`[start] ${error.message}\n`);
    process.exit(1);
  }
}

/** Records what the quick start created on a NATS server it did not start, for `npm run quickstart:reset`. */
function recordCreated(settings, created) {
  const file = join(settings.state, 'created-on-nats.json');
  const recorded = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const previous = recorded[settings.natsUrl] ?? { streams: [], consumers: [] };
  const key = (consumer) => `${consumer.stream}/${consumer.name}`;
  recorded[settings.natsUrl] = {
    streams: [...new Set([...previous.streams, ...created.streams])],
    consumers: [...new Map([...previous.consumers, ...created.consumers].map((consumer) => [key(consumer), consumer])).values()],
  };
  writeFileSync(file, `${JSON.stringify(recorded, null, 2)}\n`);
}

const settings = readSettingsOrExit();
mkdirSync(settings.state, { recursive: true });
rmSync(settings.logs, { recursive: true, force: true });
mkdirSync(settings.logs, { recursive: true });
process.on('SIGINT', stopOnSignal);
process.on('SIGTERM', stopOnSignal);

log('building (tsc -b, and the diagnostics console with vite)');
// Asynchronous, so that a signal is handled during the build too.
if (!(await build([join(root, 'node_modules/typescript/bin/tsc'), '-b', 'tsconfig.build.json']))) await fail('the build failed (tsc -b tsconfig.build.json)');
// The console this quick start serves is built here, into its own state directory (a fresh clone has no
// apps/console/dist, and a build left there by another command may be older than the tree).
const consoleDir = join(settings.state, 'console');
if (!(await build([join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'apps/console/vite.config.mjs', '--logLevel', 'warn', '--outDir', consoleDir, '--emptyOutDir']))) await fail('the console build failed (vite build --config apps/console/vite.config.mjs)');
const { STREAM_NAMES } = await import('@llm-stream/contract');
const pipeline = await import('@llm-stream/pipeline');

/**
 * The NATS credentials of the quick start's own server: made once (kept with the server's store, so the
 * tenant streams and the users stay the same across restarts), the server configuration rendered from them.
 */
function natsAuthFiles() {
  const credentialsFile = join(settings.state, 'nats-credentials.json');
  let credentials;
  if (existsSync(credentialsFile)) {
    const parsed = pipeline.parseNatsCredentials(readFileSync(credentialsFile, 'utf8'));
    if (parsed.ok && parsed.value.tenants[demoTenant] !== undefined) credentials = parsed.value;
  }
  if (credentials === undefined) {
    credentials = pipeline.generateNatsCredentials([demoTenant]);
    writeFileSync(credentialsFile, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  }
  const configFile = join(settings.state, 'nats-server.conf');
  writeFileSync(configFile, pipeline.natsAuthServerConfig({ credentials }), { mode: 0o600 });
  return { credentials, credentialsFile, configFile };
}

for (const [service, port] of Object.entries(settings.ports)) {
  if (!(await portIsFree(settings.host, port))) {
    await fail(`port ${port} on ${settings.host} (${service}) is already in use: stop what holds it, or set ${settings.portVariables[service]} to a free port`);
  }
}

let existingNats = null;
/** Per service: NATS_USER and NATS_PASSWORD on the quick start's own server, nothing on an existing one. */
let natsUserEnv = () => ({});
let natsAuth = null;
if (await natsAnswers(settings.natsHost, settings.natsPort)) {
  const before = await pipelineInventory(settings.natsUrl, Object.values(STREAM_NAMES)).catch((error) => fail(`the NATS server at ${settings.natsUrl} does not answer as NATS: ${error.message}`));
  if (before === null) await fail(`the NATS server at ${settings.natsUrl} has no JetStream: start it with -js (nats-server -js), or set NATS_URL to one that has`);
  existingNats = before;
  log(`using the NATS server at ${settings.natsUrl}: the services create the streams ${Object.values(STREAM_NAMES).join(', ')} and their durable consumers there when missing; \`npm run quickstart:reset\` removes what this quick start created`);
} else {
  const binary = findNatsServer();
  if (!binary) await fail(`no NATS server answers at ${settings.natsUrl} and nats-server is not installed: install it (Debian: apt-get install nats-server) or set NATS_URL`);
  const store = join(settings.state, 'nats');
  natsAuth = natsAuthFiles();
  log(`starting nats-server with JetStream and authorization on ${settings.natsHost}:${settings.natsPort} (store: ${store}, configuration: ${natsAuth.configFile})`);
  run(settings, 'nats-server', binary, ['-c', natsAuth.configFile, '-js', '-a', settings.natsHost, '-p', String(settings.natsPort), '-sd', store], {});
  await waitUntil('nats-server', () => natsAnswers(settings.natsHost, settings.natsPort));
  log('provisioning the streams (the operator step: llm-stream provision)');
  const report = await pipeline.provisionPipeline({ servers: [settings.natsUrl], credentials: natsAuth.credentials }).catch((error) => fail(`provisioning the NATS streams failed: ${error.message}`));
  for (const tenant of report?.recreatedCopies ?? []) log(`recreated the ${tenant} tenant's copy of its events as a sourced stream (the store was made by an earlier release)`);
  const { platform } = natsAuth.credentials;
  natsUserEnv = (identity) => ({ NATS_USER: identity, NATS_PASSWORD: platform[identity].password });
}

const local = (port) => `http://127.0.0.1:${port}`;
const http = { HTTP_HOST: settings.host };
const upstream = local(settings.ports['replay-provider']);
run(settings, 'replay-provider', process.execPath, ['apps/replay-provider/dist/main.js'], { REPLAY_HOST: settings.host, REPLAY_PORT: String(settings.ports['replay-provider']) });
run(settings, 'normalizer', process.execPath, ['apps/normalizer/dist/main.js'], { ...http, NATS_URL: settings.natsUrl, ...natsUserEnv('normalizer'), HTTP_PORT: String(settings.ports.normalizer) });
run(settings, 'audit-log', process.execPath, ['apps/audit-log/dist/main.js'], {
  ...http,
  NATS_URL: settings.natsUrl,
  ...natsUserEnv('audit-log'),
  HTTP_PORT: String(settings.ports['audit-log']),
  GATEWAY_API_KEYS: apiKeys,
  AUDIT_SQLITE_PATH: join(settings.state, 'audit.sqlite'),
  AUDIT_CONSOLE_DIR: consoleDir,
});
run(settings, 'gateway', process.execPath, ['apps/gateway/dist/main.js'], {
  ...http,
  NATS_URL: settings.natsUrl,
  ...natsUserEnv('gateway'),
  HTTP_PORT: String(settings.ports.gateway),
  GATEWAY_API_KEYS: apiKeys,
  OPENAI_BASE_URL: upstream,
  ANTHROPIC_BASE_URL: upstream,
  GEMINI_BASE_URL: upstream,
  OPENAI_API_KEY: 'replay',
  ANTHROPIC_API_KEY: 'replay',
  GEMINI_API_KEY: 'replay',
});
await waitUntil('the replay provider', () => httpOk(`${upstream}/_replay/health`));
await waitUntil('the normalizer', () => httpOk(`${local(settings.ports.normalizer)}/health/ready`));
await waitUntil('the audit log', () => httpOk(`${local(settings.ports['audit-log'])}/health/ready`));
await waitUntil('the gateway', () => httpOk(`${local(settings.ports.gateway)}/health/ready`));
if (existingNats !== null) {
  recordCreated(settings, createdSince(existingNats, (await pipelineInventory(settings.natsUrl, Object.values(STREAM_NAMES))) ?? {}));
}

// Where a curl on this machine reaches the services: the bound host, or loopback when bound to every interface.
const shown = (port) => `http://${settings.host === '0.0.0.0' ? '127.0.0.1' : settings.host}:${port}`;
const gateway = shown(settings.ports.gateway);
const audit = shown(settings.ports['audit-log']);
log(`ready (services on ${settings.host}; logs in ${settings.logs}). Stream a demo answer with a tool call (recorded Anthropic transcript "multi_block"):`);
process.stdout.write(`
  curl -N ${gateway}/v1/streams/anthropic \\
    -H 'Authorization: Bearer ${demoKey}' -H 'content-type: application/json' \\
    -d '{"model":"multi_block","max_tokens":512,"messages":[{"role":"user","content":"What should I wear in Krakow?"}]}'

  Then look it up in the audit log (use the stream id from the x-stream-id header or any event):
  curl -s ${audit}/v1/streams -H 'Authorization: Bearer ${demoKey}'

  Or open the diagnostics console in a browser and sign in with the key ${demoKey}: ${audit}/console/

Other recorded answers: model = any file name in conformance/transcripts/<provider>/ (openai-chat, openai-responses,
anthropic, gemini, gemini-interactions; for gemini put the model in the body). Ctrl-C stops everything.
`);
if (natsAuth !== null) {
  const backend = natsAuth.credentials.tenants[demoTenant].backend;
  process.stdout.write(`
  A backend of tenant "${demoTenant}" reads its events from NATS (${settings.natsUrl}) as user ${backend.user}, its
  password in ${natsAuth.credentialsFile} (tenants.${demoTenant}.backend): see LlmStreamClient in libs/client.
`);
}
