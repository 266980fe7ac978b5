// Audit-log benchmark: sustained ingestion (JetStream -> audit-log -> database) and query latency over
// 1,000,000 stored streams, for PostgreSQL and SQLite. Prints figures and ratios; asserts nothing.
//
//   npx tsc -b tsconfig.build.json && node apps/audit-log/bench/bench-audit.mjs [options]
//
// Options (or environment variables):
//   --pipeline-peak <events/s>   (PIPELINE_PEAK_EVENTS_PER_S) the pipeline's peak from bench:e2e, for the ratio
//   --streams <n>                streams preloaded into JetStream for the ingestion run (default 1000)
//   --deltas <n>                 text deltas per stream (default 200: ~205 events and ~207 raw records)
//   --synthetic <n>              synthetic stream rows for the query run (default 1000000)
//   --queries <n>                requests per query kind (default 400)
//   --concurrent <n>             streams published interleaved, as that many open streams would (default 200)
//   --runs <n>                   ingestion runs per backend, each on a fresh database (default 1; the median is printed)
//   --backends <list>            postgres,sqlite (default both)
//   --audit-main <file>          the audit-log build to run (default apps/audit-log/dist/main.js): another
//                                build (the previous write path) is measured the same way, for a before/after
//   BENCH_CPU_PROF_DIR=<dir>     writes a V8 CPU profile of each audit-log run there when it stops
//
// --queries 0 skips the query run (and the synthetic rows).
//
// Ingestion: every stream's events and raw records are published into JetStream first, then the built
// audit-log starts on an empty database and drains both consumers; the rate is measured from its first stored
// message to its last (process start excluded), events/s counting contract events while the raw trace is
// ingested alongside. CPU per event is read from /proc (audit-log, nats-server, PostgreSQL's processes), the
// raw trace's share included. The baseline of the same run (plain-insert-baseline.mjs) writes the same rows
// with a plain INSERT loop: the ratio says how much of the database's plain write rate ingestion reaches with
// JetStream, decoding, redaction, the hash chain, stream rows and acks on top. Queries: 1,000,000 synthetic stream rows are added to the same tenant by SQL, the
// service restarts (fresh planner statistics), and requests go through its HTTP API with an API key.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import Database from 'better-sqlite3';
import pg from 'pg';
import { connect } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { normalizeTranscript } from '@llm-stream/adapters';
import { encodeEventMessage, ensurePipelineStreams, toNatsHeaders } from '@llm-stream/pipeline';
import { STREAM_NAMES, encodeTraceRecord, rawSubject } from '@llm-stream/contract';
import { auditCounters } from './audit-counters.mjs';
import { plainInsertPostgres, plainInsertSqlite } from './plain-insert-baseline.mjs';
import { childrenNamed, cpuPerItem, cpuSeconds, cpuSnapshot, ownCpuSeconds, treeCpuSeconds } from './process-cpu.mjs';
import { getFreePort, repoRoot, startNatsServer, startPostgres, startProcess, waitFor } from '@llm-stream/testing';

const { values } = parseArgs({
  options: {
    'pipeline-peak': { type: 'string' },
    streams: { type: 'string', default: '1000' },
    deltas: { type: 'string', default: '200' },
    synthetic: { type: 'string', default: '1000000' },
    queries: { type: 'string', default: '400' },
    concurrent: { type: 'string', default: '200' },
    runs: { type: 'string', default: '1' },
    backends: { type: 'string', default: 'postgres,sqlite' },
    'audit-main': { type: 'string' },
  },
});
const STREAMS = Number(values.streams);
const DELTAS = Number(values.deltas);
const SYNTHETIC = Number(values.synthetic);
const QUERIES = Number(values.queries);
const CONCURRENT = Math.max(1, Number(values.concurrent));
const RUNS = Math.max(1, Number(values.runs));
const BACKENDS = values.backends.split(',');
const BATCH_SIZE = 2000;
const peakText = values['pipeline-peak'] ?? process.env.PIPELINE_PEAK_EVENTS_PER_S;
const PIPELINE_PEAK = peakText === undefined || peakText === '' ? undefined : Number(peakText);

const TENANT = 'bench';
const KEY = 'bench-key';
const API_KEYS = JSON.stringify([{ sha256: createHash('sha256').update(KEY).digest('hex'), tenant: TENANT }]);
const AUDIT_MAIN = values['audit-main'] ?? join(repoRoot(), 'apps/audit-log/dist/main.js');
const PROFILE = process.env.BENCH_CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`] : [];

const log = (text) => process.stderr.write(`${text}\n`);

/** An OpenAI chat completion stream of DELTAS text deltas, usage and [DONE], as the provider sends it. */
function chatBody() {
  const chunk = (delta, finish, extra = '') =>
    `data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1,"model":"gpt-bench","choices":[{"index":0,"delta":${delta},"finish_reason":${finish}}]${extra}}\n\n`;
  const parts = [chunk('{"role":"assistant","content":""}', 'null')];
  for (let i = 0; i < DELTAS; i += 1) parts.push(chunk(`{"content":"token ${i} of a fairly ordinary answer "}`, 'null'));
  parts.push(chunk('{}', '"stop"'));
  parts.push('data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1,"model":"gpt-bench","choices":[],"usage":{"prompt_tokens":10,"completion_tokens":200,"total_tokens":210}}\n\n');
  parts.push('data: [DONE]\n\n');
  return parts.join('');
}

/**
 * Publishes STREAMS streams (events and raw records) with JetStream acks, CONCURRENT at a time interleaved
 * record by record as open streams would be; returns their ids, counts and the rows for the baseline.
 */
async function preload(js) {
  const body = chatBody();
  const ids = [];
  const rows = { events: [], raw: [] };
  let inflight = [];
  const publish = async (subject, data, msgID, headers) => {
    inflight.push(js.publish(subject, data, { msgID, headers: toNatsHeaders(headers) }));
    if (inflight.length >= 4_000) {
      await Promise.all(inflight);
      inflight = [];
    }
  };
  const started = performance.now();
  for (let first = 0; first < STREAMS; first += CONCURRENT) {
    const group = [];
    for (let s = first; s < Math.min(STREAMS, first + CONCURRENT); s += 1) {
      const streamId = `st_bench_${s}`;
      ids.push(streamId);
      let clock = Date.now();
      const normalized = normalizeTranscript('openai-chat', body, { streamId, tenant: TENANT, model: 'gpt-bench', clock: () => clock++ });
      const info = { stream_id: streamId, tenant: TENANT, provider: 'openai-chat', model: 'gpt-bench' };
      group.push({ streamId, raw: normalized.records.map((record) => ({ record, encoded: encodeTraceRecord(record, info) })), events: normalized.events });
    }
    for (let index = 0; group.some((stream) => index < stream.raw.length || index < stream.events.length); index += 1) {
      for (const { streamId, raw, events } of group) {
        if (index < raw.length) {
          const { record, encoded } = raw[index];
          await publish(rawSubject(TENANT, streamId), encoded.data, encoded.headers['Nats-Msg-Id'], encoded.headers);
          const attempt = 'attempt' in record ? record.attempt : 0;
          rows.raw.push({ stream_id: streamId, attempt, raw_seq: record.raw_seq, kind: record.kind, ts: record.ts, js_seq: rows.raw.length + 1, body: encoded.data, body_encoding: 'text', redacted: 0 });
        }
        const event = events[index];
        if (event !== undefined) {
          const message = encodeEventMessage(event, TENANT);
          await publish(message.subject, message.data, message.msgId, message.headers);
          const hash = createHash('sha256').update(message.data).digest('hex');
          rows.events.push({ stream_id: streamId, seq: event.seq, type: event.type, ts: event.ts, body: message.data, content_hash: hash, prev_hash: hash, chain_hash: hash, unknown_type: null });
        }
      }
    }
  }
  await Promise.all(inflight);
  log(`preloaded ${STREAMS} streams (${CONCURRENT} interleaved): ${rows.events.length} events, ${rows.raw.length} raw records in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { ids, events: rows.events.length, raw: rows.raw.length, rows };
}

async function startAudit(env) {
  const port = await getFreePort();
  const child = startProcess(process.execPath, [...PROFILE, AUDIT_MAIN], {
    name: 'audit-log',
    cwd: repoRoot(),
    env: { HTTP_PORT: String(port), HTTP_HOST: '127.0.0.1', GATEWAY_API_KEYS: API_KEYS, LOG_LEVEL: 'warn', TRACE_EXPORTER: 'none', ...env },
  });
  await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/health/live`)).ok, { timeoutMs: 120_000, intervalMs: 100, description: 'audit-log to answer' });
  return { url: `http://127.0.0.1:${port}`, child };
}

/** PostgreSQL's CPU (the postmaster the bench started, with its backends); SQLite runs inside the writer. */
function databaseCpu(env) {
  if (env.AUDIT_DATABASE_URL === undefined) return {};
  return { postgres: () => childrenNamed('postgres').reduce((sum, pid) => sum + treeCpuSeconds(pid), 0) };
}

async function measureIngestion(env, totals) {
  const audit = await startAudit(env);
  // The database's CPU is the audit log's too: SQLite runs in its process, PostgreSQL in the postmaster's tree.
  const groups = { 'audit-log': () => cpuSeconds(audit.child.pid), 'nats-server': () => cpuSeconds(nats.pid), ...databaseCpu(env) };
  let first;
  let last;
  for (;;) {
    const now = performance.now();
    const cpu = cpuSnapshot(groups);
    const seen = await auditCounters(audit.url);
    if (first === undefined && seen.events + seen.raw > 0) first = { at: now, cpu, ...seen };
    if (seen.events >= totals.events && seen.raw >= totals.raw) {
      last = { at: now, cpu, ...seen };
      break;
    }
    await delay(200);
  }
  await audit.child.stop('SIGTERM', 20_000);
  const seconds = (last.at - first.at) / 1000;
  const events = totals.events - first.events;
  return {
    seconds,
    eventsPerSecond: events / seconds,
    messagesPerSecond: (totals.events + totals.raw - first.events - first.raw) / seconds,
    // Per contract event, the raw trace ingested alongside included (what one event of the pipeline costs).
    cpu: cpuPerItem(first.cpu, last.cpu, events, 'event'),
  };
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function latencies(urls) {
  const times = [];
  for (const url of urls) {
    const started = performance.now();
    const response = await fetch(url, { headers: { authorization: `Bearer ${KEY}` } });
    await response.arrayBuffer();
    times.push(performance.now() - started);
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p90: percentile(times, 90), p99: percentile(times, 99), max: times.at(-1) };
}

async function measureQueries(env, ids) {
  const audit = await startAudit(env);
  const base = audit.url;
  const pick = (i) => ids[(i * 7919) % ids.length];
  // Warm-up: connections, JIT, caches.
  await latencies(Array.from({ length: 50 }, (_, i) => `${base}/v1/streams/${pick(i)}`));
  const single = await latencies(Array.from({ length: QUERIES }, (_, i) => `${base}/v1/streams/${pick(i + 50)}`));
  const from = Date.now() - SYNTHETIC * 100;
  const firstPage = await (await fetch(`${base}/v1/streams?status=completed&provider=anthropic&limit=50`, { headers: { authorization: `Bearer ${KEY}` } })).json();
  const filters = [
    '?status=failed&limit=50',
    '?provider=gemini&model=model-7&limit=50',
    `?error_category=rate_limited&from=${from + SYNTHETIC * 25}&to=${from + SYNTHETIC * 75}&limit=50`,
    `?status=completed&provider=anthropic&limit=50${firstPage.next_cursor === null ? '' : `&cursor=${firstPage.next_cursor}`}`,
  ];
  await latencies(filters.map((filter) => `${base}/v1/streams${filter}`));
  const listing = await latencies(Array.from({ length: QUERIES }, (_, i) => `${base}/v1/streams${filters[i % filters.length]}`));
  const stats = await latencies(Array.from({ length: 5 }, () => `${base}/v1/stats`));
  await audit.child.stop('SIGTERM', 20_000);
  return { single, listing, stats };
}

const SYNTHETIC_COLUMNS =
  'stream_id, tenant, provider, model, gateway_id, status, error_category, stop_reason, provider_stop_reason, input_tokens, output_tokens, trace_id, started_at, ended_at, terminal_seq, event_count, raw_count, chain_seq, chain_hash, first_seen_at, updated_at';

async function addSyntheticPostgres(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const from = Date.now() - SYNTHETIC * 100;
  await client.query(`INSERT INTO audit_streams (${SYNTHETIC_COLUMNS})
    SELECT 'syn_' || g, '${TENANT}', (ARRAY['openai-chat','openai-responses','anthropic','gemini'])[1 + g % 4], 'model-' || (g % 20), 'gw-bench',
      CASE WHEN g % 20 = 0 THEN 'failed' WHEN g % 20 = 1 THEN 'interrupted' ELSE 'completed' END,
      CASE WHEN g % 20 = 0 THEN (ARRAY['rate_limited','upstream_overloaded','upstream_error'])[1 + (g / 20) % 3] WHEN g % 20 = 1 THEN 'transport_interrupted' END,
      CASE WHEN g % 20 > 1 THEN 'end_turn' END, CASE WHEN g % 20 > 1 THEN 'stop' END, 100, 200, md5(g::text),
      ${from} + g * 100, ${from} + g * 100 + 5000, 200, 200, 203, 200, repeat('0', 64), ${from}, ${from}
    FROM generate_series(1, ${SYNTHETIC}) AS g`);
  await client.query('VACUUM ANALYZE audit_streams');
  await client.end();
}

function addSyntheticSqlite(path) {
  const db = new Database(path);
  const from = Date.now() - SYNTHETIC * 100;
  db.exec(`WITH RECURSIVE seq(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM seq WHERE g < ${SYNTHETIC})
    INSERT INTO audit_streams (${SYNTHETIC_COLUMNS})
    SELECT 'syn_' || g, '${TENANT}',
      CASE g % 4 WHEN 0 THEN 'openai-chat' WHEN 1 THEN 'openai-responses' WHEN 2 THEN 'anthropic' ELSE 'gemini' END, 'model-' || (g % 20), 'gw-bench',
      CASE WHEN g % 20 = 0 THEN 'failed' WHEN g % 20 = 1 THEN 'interrupted' ELSE 'completed' END,
      CASE WHEN g % 20 = 0 THEN CASE (g / 20) % 3 WHEN 0 THEN 'rate_limited' WHEN 1 THEN 'upstream_overloaded' ELSE 'upstream_error' END WHEN g % 20 = 1 THEN 'transport_interrupted' END,
      CASE WHEN g % 20 > 1 THEN 'end_turn' END, CASE WHEN g % 20 > 1 THEN 'stop' END, 100, 200, lower(hex(randomblob(16))),
      ${from} + g * 100, ${from} + g * 100 + 5000, 200, 200, 203, 200, '${'0'.repeat(64)}', ${from}, ${from}
    FROM seq`);
  db.exec('ANALYZE');
  db.close();
}

/** A fresh database for one ingestion run, and fresh durable consumers: it gets every message again. */
async function freshTarget(backend, postgres, dir, run, jsm) {
  for (const [stream, consumer] of [[STREAM_NAMES.events, 'audit-events'], [STREAM_NAMES.raw, 'audit-raw']]) {
    await jsm.consumers.delete(stream, consumer).catch(() => undefined);
  }
  const env = { NATS_URL: nats.url, AUDIT_BATCH_SIZE: String(BATCH_SIZE) };
  if (backend === 'postgres') return { ...env, AUDIT_DATABASE_URL: await postgres.createDatabase(`bench_${run}`) };
  return { ...env, AUDIT_SQLITE_PATH: join(dir, `audit-${run}.sqlite`) };
}

const median = (runs, key) => [...runs].sort((a, b) => key(a) - key(b))[Math.floor(runs.length / 2)];

async function benchBackend(backend, jsm, preloaded) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-audit-'));
  const postgres = backend === 'postgres' ? await startPostgres() : undefined;
  const runs = [];
  let env;
  for (let run = 1; run <= RUNS; run += 1) {
    env = await freshTarget(backend, postgres, dir, run, jsm);
    log(`${backend}: ingesting (run ${run} of ${RUNS})...`);
    runs.push(await measureIngestion(env, preloaded));
  }
  log(`${backend}: plain INSERT loop baseline...`);
  const cpu = () => cpuSnapshot({ 'bench (node)': ownCpuSeconds, ...databaseCpu(env) });
  const baseline =
    backend === 'postgres'
      ? await plainInsertPostgres(env.AUDIT_DATABASE_URL, preloaded.rows, BATCH_SIZE, cpu)
      : await plainInsertSqlite(env.AUDIT_SQLITE_PATH, join(dir, 'baseline.sqlite'), preloaded.rows, BATCH_SIZE, cpu);
  baseline.cpu = cpuPerItem(baseline.cpu.before, baseline.cpu.after, preloaded.events, 'event');
  let queries;
  if (QUERIES > 0) {
    log(`${backend}: adding ${SYNTHETIC} synthetic streams...`);
    const started = performance.now();
    if (backend === 'postgres') await addSyntheticPostgres(env.AUDIT_DATABASE_URL);
    else addSyntheticSqlite(env.AUDIT_SQLITE_PATH);
    log(`${backend}: synthetic rows added in ${((performance.now() - started) / 1000).toFixed(1)} s; querying...`);
    queries = await measureQueries(env, preloaded.ids);
  }
  await postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
  return { backend, ingestion: median(runs, (run) => run.eventsPerSecond), runs, baseline, queries };
}

const nats = await startNatsServer();
const nc = await connect({ servers: nats.url });
const jsm = await jetstreamManager(nc);
await ensurePipelineStreams(jsm);
const preloaded = await preload(jetstream(nc));
const results = [];
for (const backend of BACKENDS) results.push(await benchBackend(backend, jsm, preloaded));
await nc.close();
await nats.stop();

const ms = (value) => `${value.toFixed(1)} ms`;
const rate = (value) => `${Math.round(value).toLocaleString('en-US')}/s`;
console.log(`\naudit-log benchmark (${AUDIT_MAIN}; ${STREAMS} streams, ${CONCURRENT} interleaved, x ${preloaded.events / STREAMS} events + ${preloaded.raw / STREAMS} raw records; batch ${BATCH_SIZE}; ${QUERIES > 0 ? `${SYNTHETIC.toLocaleString('en-US')} synthetic streams for queries` : 'no queries'})`);
console.log(`pipeline peak (bench:e2e): ${PIPELINE_PEAK === undefined ? 'not given (--pipeline-peak <events/s> or PIPELINE_PEAK_EVENTS_PER_S)' : rate(PIPELINE_PEAK)}`);
for (const { backend, ingestion, runs, baseline, queries } of results) {
  const ratio = PIPELINE_PEAK === undefined ? '' : `, ${(ingestion.eventsPerSecond / PIPELINE_PEAK).toFixed(2)}x the pipeline peak`;
  console.log(`\n${backend}`);
  console.log(`  ingestion: ${rate(ingestion.eventsPerSecond)} events (with their raw trace: ${rate(ingestion.messagesPerSecond)} messages)${RUNS > 1 ? ` median of ${RUNS} runs: ${runs.map((run) => rate(run.eventsPerSecond)).join(', ')}` : ''}`);
  console.log(`  CPU: ${ingestion.cpu.text}${RUNS > 1 ? ` (runs: ${runs.map((run) => run.cpu.total.toFixed(1)).join(', ')})` : ''}, from /proc, the raw trace's share included`);
  console.log(`  plain INSERT loop of the same rows (baseline, same run): ${rate(baseline.eventsPerSecond)} events (${rate(baseline.messagesPerSecond)} rows), CPU ${baseline.cpu.text}`);
  console.log(`  ratio: ingestion = ${(ingestion.eventsPerSecond / baseline.eventsPerSecond).toFixed(2)}x the plain INSERT loop${ratio}`);
  if (queries === undefined) continue;
  console.log(`  single stream GET /v1/streams/{id} (${preloaded.events / STREAMS} events, assembled): p50 ${ms(queries.single.p50)}, p90 ${ms(queries.single.p90)}, p99 ${ms(queries.single.p99)} (target p99 < 20 ms), max ${ms(queries.single.max)}`);
  console.log(`  filtered listing over ${(SYNTHETIC + STREAMS).toLocaleString('en-US')} streams: p50 ${ms(queries.listing.p50)}, p90 ${ms(queries.listing.p90)}, p99 ${ms(queries.listing.p99)}, max ${ms(queries.listing.max)}`);
  console.log(`  stats over all streams: p50 ${ms(queries.stats.p50)}`);
}
