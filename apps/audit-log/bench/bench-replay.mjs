// Replay-check benchmark: how fast stored raw traces are re-normalized with this build's adapters and compared
// with their stored outcome. Prints figures and ratios; asserts nothing.
//
//   npm run bench:replay [-- options]
//
// Options:
//   --streams <n>       streams sent through the real pipeline into the store (default 4000)
//   --concurrent <n>    streams sent at once while filling (default 32)
//   --backend <name>    sqlite or postgres (default sqlite)
//   BENCH_CPU_PROF_DIR=<dir>   writes a V8 CPU profile of the audit log and the CLI there when they stop
//
// The store is filled by the real pipeline: replay provider -> gateway -> NATS -> normalizer -> audit log, with
// the conformance transcripts of every provider in turn (text, tools, reasoning, errors, cuts). Once the audit
// log holds every event and raw record JetStream holds, the same stored streams are replayed three ways:
//   - in process: the audit log's ReplayService over the same store, page by page (what the route runs);
//   - the route: GET /v1/replay page by page over HTTP (the audit log's CPU);
//   - the CLI: `llm-stream replay` over the audit API (two requests per stream; the CLI's and the audit log's CPU).
// Baseline of the same run: the in-process reads alone (list pages, each stream's events and raw records,
// JSON.parse of the events) without normalizing or comparing: the ratio says what the replay adds to reading.
// Target (issue 13): at least 10,000 stored streams per minute on the 2-core machine.
// The audit log's classes load @llm-stream/service-kit, whose config classes need the metadata API.
import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { createProviderAdapter } from '@llm-stream/adapters';
import { STREAM_NAMES } from '@llm-stream/contract';
import { getFreePort, listTranscripts, repoRoot, runCommand, startNatsServer, startPostgres, startProcess, waitFor } from '@llm-stream/testing';
import { auditCounters } from './audit-counters.mjs';
import { cpuPerItem, cpuSeconds, cpuSnapshot, ownCpuSeconds } from './process-cpu.mjs';

const { values } = parseArgs({
  options: {
    streams: { type: 'string', default: '4000' },
    concurrent: { type: 'string', default: '32' },
    backend: { type: 'string', default: 'sqlite' },
  },
});
const STREAMS = Number(values.streams);
const CONCURRENT = Math.max(1, Number(values.concurrent));
const BACKEND = values.backend;
if (BACKEND !== 'sqlite' && BACKEND !== 'postgres') throw new Error(`--backend must be sqlite or postgres, got ${BACKEND}`);

const root = repoRoot();
const dist = (path) => join(root, 'apps/audit-log/dist', path);
const { ReplayService } = await import(dist('replay/replay.service.js'));
const { openRepository } = await import(dist('store/open-repository.js'));

const TENANT = 'bench';
const KEY = 'bench-replay-key';
const API_KEYS = JSON.stringify([{ sha256: createHash('sha256').update(KEY).digest('hex'), tenant: TENANT, scopes: ['streams', 'audit:full'] }]);
const PROFILE = process.env.BENCH_CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`] : [];
const PAGE = 500;
const log = (text) => process.stderr.write(`${text}\n`);

// ---- the pipeline ----------------------------------------------------------------------------------------
const dir = mkdtempSync(join(tmpdir(), 'bench-replay-'));
const nats = await startNatsServer();
const postgres = BACKEND === 'postgres' ? await startPostgres() : undefined;
const store = postgres === undefined ? { sqlitePath: join(dir, 'audit.sqlite'), databaseUrl: '' } : { sqlitePath: '', databaseUrl: await postgres.createDatabase() };
const ports = { replay: await getFreePort(), gateway: await getFreePort(), normalizer: await getFreePort(), audit: await getFreePort() };
const service = (app, env, profile = []) =>
  startProcess(process.execPath, [...profile, join(root, `apps/${app}/dist/main.js`)], {
    name: app,
    cwd: root,
    env: { NATS_URL: nats.url, HTTP_HOST: '127.0.0.1', LOG_LEVEL: 'warn', TRACE_EXPORTER: 'none', GATEWAY_API_KEYS: API_KEYS, ...env },
  });
const replayProvider = service('replay-provider', { REPLAY_PORT: String(ports.replay), REPLAY_HOST: '127.0.0.1', REPLAY_REQUEST_LOG_LIMIT: '100' });
const normalizer = service('normalizer', { HTTP_PORT: String(ports.normalizer) });
const upstream = `http://127.0.0.1:${ports.replay}`;
// One attempt: a transcript of a 429 or a 5xx is stored as the provider answered, without retry delays.
const gateway = service('gateway', { HTTP_PORT: String(ports.gateway), OPENAI_BASE_URL: upstream, ANTHROPIC_BASE_URL: upstream, GEMINI_BASE_URL: upstream, UPSTREAM_MAX_ATTEMPTS: '1' });
const audit = service(
  'audit-log',
  { HTTP_PORT: String(ports.audit), ...(store.databaseUrl === '' ? { AUDIT_SQLITE_PATH: store.sqlitePath } : { AUDIT_DATABASE_URL: store.databaseUrl }) },
  PROFILE,
);
const answers = async (url) => {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
};
await waitFor(() => answers(`${upstream}/_replay/health`), { timeoutMs: 60_000, description: 'replay provider' });
for (const port of [ports.normalizer, ports.gateway, ports.audit]) await waitFor(() => answers(`http://127.0.0.1:${port}/health/ready`), { timeoutMs: 60_000, description: `service on ${port}` });
const gatewayUrl = `http://127.0.0.1:${ports.gateway}`;
const auditUrl = `http://127.0.0.1:${ports.audit}`;

/** The provider's own request for a transcript (the replay provider picks it by model name). */
function requestBody(provider, model) {
  switch (provider) {
    case 'gemini':
      return { model, contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
    case 'openai-responses':
      return { model, input: 'hi' };
    default:
      return { model, max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] };
  }
}

// ---- fill ------------------------------------------------------------------------------------------------
const transcripts = listTranscripts();
log(`filling the ${BACKEND} store with ${STREAMS} streams through the pipeline (${transcripts.length} conformance transcripts in turn, ${CONCURRENT} at once)...`);
const fillStarted = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: CONCURRENT }, async () => {
    for (let index = next++; index < STREAMS; index = next++) {
      const transcript = transcripts[index % transcripts.length];
      const response = await fetch(`${gatewayUrl}/v1/streams/${transcript.provider}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(requestBody(transcript.provider, transcript.name)),
      });
      await response.text();
      if (response.status !== 200) throw new Error(`${transcript.provider}/${transcript.name}: gateway answered ${response.status}`);
    }
  }),
);
const sentSeconds = (performance.now() - fillStarted) / 1000;
const nc = await connect({ servers: nats.url });
const jsm = await jetstreamManager(nc);
const held = async () => ({ events: (await jsm.streams.info(STREAM_NAMES.events)).state.messages, raw: (await jsm.streams.info(STREAM_NAMES.raw)).state.messages });
await waitFor(
  async () => {
    const [inNats, stored] = await Promise.all([held(), auditCounters(auditUrl)]);
    return stored.events >= inNats.events && stored.raw >= inNats.raw;
  },
  { timeoutMs: 600_000, intervalMs: 500, description: 'the audit log to store every event and raw record' },
);
const totals = await held();
const fillSeconds = (performance.now() - fillStarted) / 1000;
log(`stored: ${totals.events} events, ${totals.raw} raw records; sent in ${sentSeconds.toFixed(1)} s, stored after ${fillSeconds.toFixed(1)} s`);
await nc.close();

// ---- replay ----------------------------------------------------------------------------------------------
const repository = openRepository({ ...store, poolSize: 4, onIdleError: () => undefined });

/** Runs `work` and measures its wall time and the CPU of the given process groups. */
async function measured(groups, work) {
  const before = cpuSnapshot(groups);
  const started = performance.now();
  const result = await work();
  const seconds = (performance.now() - started) / 1000;
  return { result, seconds, before, after: cpuSnapshot(groups) };
}

const summary = (name, run, streams) => ({ name, seconds: run.seconds, streams, perMinute: (streams * 60) / run.seconds, cpu: cpuPerItem(run.before, run.after, streams, 'stream'), result: run.result });

async function pages(read) {
  const counts = { replayed: 0, changed: 0, unreplayable: 0 };
  for (let cursor = null, first = true; first || cursor !== null; first = false) {
    const report = await read(cursor);
    counts.replayed += report.counts.replayed;
    counts.changed += report.counts.changed;
    counts.unreplayable += report.counts.unreplayable;
    cursor = report.next_cursor;
  }
  return counts;
}

const own = { bench: ownCpuSeconds };
const auditCpu = { 'audit-log': () => cpuSeconds(audit.pid) };
const runs = [];

// Baseline: the same reads, no normalizing.
{
  const run = await measured(own, async () => {
    let streams = 0;
    let after;
    do {
      const page = await repository.listStreams(TENANT, {}, { limit: PAGE, ...(after && { after }) });
      const read = await Promise.all(page.streams.map(async (stream) => [await repository.events(stream.stream_id), await repository.rawRecords(stream.stream_id)]));
      for (const [events] of read) events.map((row) => JSON.parse(row.body));
      streams += page.streams.length;
      after = page.next;
    } while (after !== undefined);
    return streams;
  });
  runs.push(summary('baseline: the same reads, no replay (in process)', run, run.result));
}
const streamsStored = runs[0].streams;

const inProcess = new ReplayService(repository, createProviderAdapter);
{
  const run = await measured(own, () => pages((cursor) => inProcess.page(TENANT, { limit: String(PAGE), ...(cursor !== null && { cursor }) })));
  runs.push(summary('in process: ReplayService over the store', run, streamsStored));
}
{
  const run = await measured(auditCpu, () =>
    pages(async (cursor) => (await fetch(`${auditUrl}/v1/replay?limit=${PAGE}${cursor === null ? '' : `&cursor=${cursor}`}`, { headers: { authorization: `Bearer ${KEY}` } })).json()),
  );
  runs.push(summary('the route: GET /v1/replay over HTTP', run, streamsStored));
}
{
  // This process's /proc figures include its reaped children's: the CLI's CPU, once it has exited (the bench
  // itself only waits meanwhile).
  const groups = { ...auditCpu, cli: () => cpuSeconds(process.pid) };
  const run = await measured(groups, () => runCommand(process.execPath, [...PROFILE, join(root, 'apps/cli/dist/main.js'), 'replay', '--audit', auditUrl, '--key', KEY], { timeoutMs: 3_600_000 }));
  runs.push({ ...summary('the CLI: llm-stream replay over the audit API', { ...run, result: run.result.stdout.trim().split('\n').at(-1) }, streamsStored), exit: run.result.code });
}

await repository.close();
await Promise.all([audit.stop('SIGTERM', 20_000), gateway.stop('SIGTERM', 10_000), normalizer.stop('SIGTERM', 10_000), replayProvider.stop('SIGTERM', 10_000)]);
await nats.stop();
await postgres?.stop();
rmSync(dir, { recursive: true, force: true });

// ---- report ----------------------------------------------------------------------------------------------
const rate = (perMinute) => `${Math.round(perMinute).toLocaleString('en-US')} streams/min`;
console.log(`\nreplay benchmark (${BACKEND}; ${streamsStored} stored streams from ${transcripts.length} conformance transcripts, ${(totals.events / streamsStored).toFixed(1)} events + ${(totals.raw / streamsStored).toFixed(1)} raw records per stream; fill ${(STREAMS / fillSeconds).toFixed(0)} streams/s through the pipeline)`);
const baseline = runs[0];
for (const run of runs) {
  const ratio = run === baseline ? '' : `; ${(baseline.perMinute / run.perMinute).toFixed(2)}x the baseline's time`;
  console.log(`  ${run.name}: ${rate(run.perMinute)} (${run.seconds.toFixed(2)} s), CPU ${run.cpu.text}${ratio}`);
  if (typeof run.result === 'object') console.log(`    ${JSON.stringify(run.result)}`);
  if (typeof run.result === 'string') console.log(`    ${run.result} (exit ${run.exit})`);
}
console.log('  target: >= 10,000 stored streams per minute');
