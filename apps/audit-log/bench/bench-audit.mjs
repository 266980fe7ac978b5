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
//   --backends <list>            postgres,sqlite (default both)
//
// Ingestion: every stream's events and raw records are published into JetStream first, then the built
// audit-log starts on an empty database and drains both consumers; the rate is measured from its first stored
// message to its last (process start excluded), events/s counting contract events while the raw trace is
// ingested alongside. Queries: 1,000,000 synthetic stream rows are added to the same tenant by SQL, the
// service restarts (fresh planner statistics), and requests go through its HTTP API with an API key.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
import { getFreePort, repoRoot, startNatsServer, startPostgres, startProcess, waitFor } from '@llm-stream/testing';

const { values } = parseArgs({
  options: {
    'pipeline-peak': { type: 'string' },
    streams: { type: 'string', default: '1000' },
    deltas: { type: 'string', default: '200' },
    synthetic: { type: 'string', default: '1000000' },
    queries: { type: 'string', default: '400' },
    backends: { type: 'string', default: 'postgres,sqlite' },
  },
});
const STREAMS = Number(values.streams);
const DELTAS = Number(values.deltas);
const SYNTHETIC = Number(values.synthetic);
const QUERIES = Number(values.queries);
const BACKENDS = values.backends.split(',');
const peakText = values['pipeline-peak'] ?? process.env.PIPELINE_PEAK_EVENTS_PER_S;
const PIPELINE_PEAK = peakText === undefined || peakText === '' ? undefined : Number(peakText);

const TENANT = 'bench';
const KEY = 'bench-key';
const API_KEYS = JSON.stringify([{ sha256: createHash('sha256').update(KEY).digest('hex'), tenant: TENANT }]);
// AUDIT_MAIN: another build of the service (an older commit's), for a before/after run in the same session.
const AUDIT_MAIN = process.env.AUDIT_MAIN ?? join(repoRoot(), 'apps/audit-log/dist/main.js');

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

/** Publishes STREAMS streams (events and raw records) with JetStream acks; returns their ids and counts. */
async function preload(js) {
  const body = chatBody();
  const ids = [];
  let events = 0;
  let raw = 0;
  let inflight = [];
  const started = performance.now();
  for (let s = 0; s < STREAMS; s += 1) {
    const streamId = `st_bench_${s}`;
    ids.push(streamId);
    let clock = Date.now();
    const normalized = normalizeTranscript('openai-chat', body, { streamId, tenant: TENANT, model: 'gpt-bench', clock: () => clock++ });
    const info = { stream_id: streamId, tenant: TENANT, provider: 'openai-chat', model: 'gpt-bench' };
    for (const record of normalized.records) {
      const encoded = encodeTraceRecord(record, info);
      inflight.push(js.publish(rawSubject(TENANT, streamId), encoded.data, { msgID: encoded.headers['Nats-Msg-Id'], headers: toNatsHeaders(encoded.headers) }));
      raw += 1;
    }
    for (const event of normalized.events) {
      const message = encodeEventMessage(event, TENANT);
      inflight.push(js.publish(message.subject, message.data, { msgID: message.msgId, headers: toNatsHeaders(message.headers) }));
      events += 1;
    }
    if (inflight.length >= 4_000) {
      await Promise.all(inflight);
      inflight = [];
    }
  }
  await Promise.all(inflight);
  log(`preloaded ${STREAMS} streams: ${events} events, ${raw} raw records in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { ids, events, raw };
}

async function startAudit(env) {
  const port = await getFreePort();
  const child = startProcess(process.execPath, [AUDIT_MAIN], {
    name: 'audit-log',
    cwd: repoRoot(),
    env: { HTTP_PORT: String(port), HTTP_HOST: '127.0.0.1', GATEWAY_API_KEYS: API_KEYS, LOG_LEVEL: 'warn', TRACE_EXPORTER: 'none', ...env },
  });
  await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/health/live`)).ok, { timeoutMs: 120_000, intervalMs: 100, description: 'audit-log to answer' });
  return { url: `http://127.0.0.1:${port}`, child };
}

async function counters(url) {
  const text = await (await fetch(`${url}/metrics`)).text();
  const read = (consumer) => {
    let total = 0;
    for (const outcome of ['stored', 'duplicate']) {
      const match = new RegExp(`^llm_audit_messages_total\\{consumer="${consumer}",outcome="${outcome}"\\} (\\d+)$`, 'm').exec(text);
      total += Number(match?.[1] ?? 0);
    }
    return total;
  };
  return { events: read('audit-events'), raw: read('audit-raw') };
}

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat (fields 14 and 15, in ticks). */
const TICKS_PER_SECOND = 100; // USER_HZ: 100 on Linux (sysconf(_SC_CLK_TCK))
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

async function measureIngestion(env, totals) {
  const audit = await startAudit(env);
  let first;
  let last;
  for (;;) {
    const now = performance.now();
    const seen = await counters(audit.url);
    if (first === undefined && seen.events + seen.raw > 0) first = { at: now, cpu: cpuSeconds(audit.child.pid), ...seen };
    if (seen.events >= totals.events && seen.raw >= totals.raw) {
      last = { at: now, cpu: cpuSeconds(audit.child.pid), ...seen };
      break;
    }
    await delay(200);
  }
  const batches = await batchSizes(audit.url);
  await audit.child.stop('SIGTERM', 20_000);
  const seconds = (last.at - first.at) / 1000;
  const messages = totals.events + totals.raw - first.events - first.raw;
  return {
    seconds,
    eventsPerSecond: (totals.events - first.events) / seconds,
    messagesPerSecond: messages / seconds,
    // The audit-log process's CPU per stored message: the figure a noisy machine shakes least.
    cpuMicrosPerMessage: ((last.cpu - first.cpu) * 1e6) / messages,
    batches,
  };
}

/** The mean batch per consumer and the number of commits, from llm_audit_batch_messages (a histogram). */
async function batchSizes(url) {
  const text = await (await fetch(`${url}/metrics`)).text();
  const read = (consumer, suffix) => Number(new RegExp(`^llm_audit_batch_messages_${suffix}\\{consumer="${consumer}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
  return Object.fromEntries(
    ['audit-events', 'audit-raw'].map((consumer) => {
      const count = read(consumer, 'count');
      return [consumer, { commits: count, mean: count === 0 ? 0 : read(consumer, 'sum') / count }];
    }),
  );
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

async function benchBackend(backend, nats, jsm, preloaded) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-audit-'));
  let postgres;
  let env = { NATS_URL: nats.url, AUDIT_BATCH_SIZE: '2000' };
  if (backend === 'postgres') {
    postgres = await startPostgres();
    env = { ...env, AUDIT_DATABASE_URL: await postgres.createDatabase('bench') };
  } else {
    env = { ...env, AUDIT_SQLITE_PATH: join(dir, 'audit.sqlite') };
  }
  // A fresh database gets every message again: fresh durable consumers.
  for (const [stream, consumer] of [[STREAM_NAMES.events, 'audit-events'], [STREAM_NAMES.raw, 'audit-raw']]) {
    await jsm.consumers.delete(stream, consumer).catch(() => undefined);
  }
  log(`${backend}: ingesting...`);
  const ingestion = await measureIngestion(env, preloaded);
  log(`${backend}: adding ${SYNTHETIC} synthetic streams...`);
  const started = performance.now();
  if (backend === 'postgres') await addSyntheticPostgres(env.AUDIT_DATABASE_URL);
  else addSyntheticSqlite(env.AUDIT_SQLITE_PATH);
  log(`${backend}: synthetic rows added in ${((performance.now() - started) / 1000).toFixed(1)} s; querying...`);
  const queries = await measureQueries(env, preloaded.ids);
  await postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
  return { backend, ingestion, queries };
}

const nats = await startNatsServer();
const nc = await connect({ servers: nats.url });
const jsm = await jetstreamManager(nc);
await ensurePipelineStreams(jsm);
const preloaded = await preload(jetstream(nc));
const results = [];
for (const backend of BACKENDS) results.push(await benchBackend(backend, nats, jsm, preloaded));
await nc.close();
await nats.stop();

const ms = (value) => `${value.toFixed(1)} ms`;
const rate = (value) => `${Math.round(value).toLocaleString('en-US')}/s`;
console.log(`\naudit-log benchmark (${STREAMS} streams x ${preloaded.events / STREAMS} events + ${preloaded.raw / STREAMS} raw records; ${SYNTHETIC.toLocaleString('en-US')} synthetic streams for queries)`);
console.log(`pipeline peak (bench:e2e): ${PIPELINE_PEAK === undefined ? 'not given (--pipeline-peak <events/s> or PIPELINE_PEAK_EVENTS_PER_S)' : rate(PIPELINE_PEAK)}`);
for (const { backend, ingestion, queries } of results) {
  const ratio = PIPELINE_PEAK === undefined ? '' : ` = ${(ingestion.eventsPerSecond / PIPELINE_PEAK).toFixed(2)}x the pipeline peak`;
  console.log(`\n${backend}`);
  console.log(`  ingestion: ${rate(ingestion.eventsPerSecond)} events (with their raw trace: ${rate(ingestion.messagesPerSecond)} messages)${ratio}`);
  console.log(`  audit-log CPU: ${ingestion.cpuMicrosPerMessage.toFixed(1)} us per stored message (events and raw records)`);
  const batches = Object.entries(ingestion.batches).map(([consumer, { commits, mean }]) => `${consumer} ${commits} commits of ${mean.toFixed(0)}`);
  console.log(`  batches: ${batches.join(', ')} messages on average`);
  console.log(`  single stream GET /v1/streams/{id} (${preloaded.events / STREAMS} events, assembled): p50 ${ms(queries.single.p50)}, p90 ${ms(queries.single.p90)}, p99 ${ms(queries.single.p99)} (target p99 < 20 ms), max ${ms(queries.single.max)}`);
  console.log(`  filtered listing over ${(SYNTHETIC + STREAMS).toLocaleString('en-US')} streams: p50 ${ms(queries.listing.p50)}, p90 ${ms(queries.listing.p90)}, p99 ${ms(queries.listing.p99)}, max ${ms(queries.listing.max)}`);
  console.log(`  stats over all streams: p50 ${ms(queries.stats.p50)}`);
}
