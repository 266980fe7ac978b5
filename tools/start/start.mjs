// `npm start`: the whole system on one machine, on its embedded defaults. It builds, starts NATS (unless one
// answers at NATS_URL), the replay provider (recorded provider streams), the normalizer, the audit log (SQLite
// file) and the gateway, waits until each is ready, and prints curl lines to try. Ctrl-C stops everything.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../..');
const state = join(root, 'tmp', 'quickstart');
mkdirSync(state, { recursive: true });
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const ports = { gateway: 8080, normalizer: 8081, audit: 8082, replay: 8787 };
const demoKey = 'demo-key';
const apiKeys = JSON.stringify([{ sha256: createHash('sha256').update(demoKey).digest('hex'), tenant: 'demo', reasoning: true }]);
const children = [];

function log(message) {
  process.stdout.write(`[start] ${message}\n`);
}

function fail(message) {
  process.stderr.write(`[start] ${message}\n`);
  stopAll(1);
}

function stopAll(code) {
  for (const child of children.reverse()) if (child.exitCode === null) child.kill('SIGTERM');
  process.exitCode = code;
}

function reachable(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 4222) }, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
    socket.setTimeout(1_000, () => {
      socket.destroy();
      resolve(false);
    });
  });
}

async function waitUntil(description, probe, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  fail(`${description} did not become ready within ${timeoutMs / 1000} s (logs: ${state})`);
  throw new Error('not ready');
}

async function httpOk(url) {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

function run(name, command, args, env) {
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const prefix = name.padEnd(15);
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = '';
    stream.on('data', (chunk) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop();
      if (process.env.QUICKSTART_VERBOSE) for (const line of lines) process.stdout.write(`${prefix}| ${line}\n`);
    });
  }
  child.on('exit', (code, signal) => {
    if (code !== 0 && signal === null && process.exitCode === undefined) fail(`${name} exited with code ${code} (QUICKSTART_VERBOSE=1 shows its logs)`);
  });
  return child;
}

function findNatsServer() {
  for (const candidate of [process.env.NATS_SERVER_BIN, '/usr/sbin/nats-server', '/usr/local/bin/nats-server', '/usr/bin/nats-server']) {
    if (candidate && existsSync(candidate)) return candidate;
  }
  const which = spawnSync('sh', ['-c', 'command -v nats-server'], { encoding: 'utf8' });
  return which.status === 0 ? which.stdout.trim() : undefined;
}

process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

log('building (tsc -b)');
const build = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) fail('the build failed');

if (await reachable(natsUrl)) {
  log(`using the NATS server at ${natsUrl}`);
} else {
  const binary = findNatsServer();
  if (!binary) {
    fail(`no NATS server answers at ${natsUrl} and nats-server is not installed: install it (Debian: apt-get install nats-server) or set NATS_URL`);
  } else {
    const { port } = new URL(natsUrl);
    log(`starting nats-server with JetStream on port ${port || 4222} (store: ${join(state, 'nats')})`);
    run('nats-server', binary, ['-js', '-a', '127.0.0.1', '-p', String(port || 4222), '-sd', join(state, 'nats')], {});
    await waitUntil('nats-server', () => reachable(natsUrl));
  }
}

const upstream = `http://127.0.0.1:${ports.replay}`;
run('replay-provider', process.execPath, ['apps/replay-provider/dist/main.js'], { REPLAY_PORT: String(ports.replay) });
run('normalizer', process.execPath, ['apps/normalizer/dist/main.js'], { NATS_URL: natsUrl, HTTP_PORT: String(ports.normalizer) });
run('audit-log', process.execPath, ['apps/audit-log/dist/main.js'], {
  NATS_URL: natsUrl,
  HTTP_PORT: String(ports.audit),
  GATEWAY_API_KEYS: apiKeys,
  AUDIT_SQLITE_PATH: join(state, 'audit.sqlite'),
});
run('gateway', process.execPath, ['apps/gateway/dist/main.js'], {
  NATS_URL: natsUrl,
  HTTP_PORT: String(ports.gateway),
  GATEWAY_API_KEYS: apiKeys,
  OPENAI_BASE_URL: upstream,
  ANTHROPIC_BASE_URL: upstream,
  GEMINI_BASE_URL: upstream,
  OPENAI_API_KEY: 'replay',
  ANTHROPIC_API_KEY: 'replay',
  GEMINI_API_KEY: 'replay',
});
await waitUntil('the replay provider', () => httpOk(`${upstream}/_replay/health`));
await waitUntil('the normalizer', () => httpOk(`http://127.0.0.1:${ports.normalizer}/health/ready`));
await waitUntil('the audit log', () => httpOk(`http://127.0.0.1:${ports.audit}/health/ready`));
await waitUntil('the gateway', () => httpOk(`http://127.0.0.1:${ports.gateway}/health/ready`));

log('ready. Stream a demo answer with a tool call (recorded Anthropic transcript "multi_block"):');
process.stdout.write(`
  curl -N http://127.0.0.1:${ports.gateway}/v1/streams/anthropic \\
    -H 'Authorization: Bearer ${demoKey}' -H 'content-type: application/json' \\
    -d '{"model":"multi_block","max_tokens":512,"messages":[{"role":"user","content":"What should I wear in Krakow?"}]}'

  Then look it up in the audit log (use the stream id from the x-stream-id header or any event):
  curl -s http://127.0.0.1:${ports.audit}/v1/streams -H 'Authorization: Bearer ${demoKey}'

Other recorded answers: model = any file name in conformance/transcripts/<provider>/ (openai-chat, openai-responses,
anthropic, gemini; for gemini put the model in the body). Ctrl-C stops everything.
`);
