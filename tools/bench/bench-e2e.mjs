// bench:e2e — the pipeline under load: replay provider -> gateway -> NATS -> normalizer -> NATS -> gateway ->
// HTTP client, against the same streams sent by the replay provider straight to the client, in one run.
// Prints the latency each event gains (p50, p99) at the HTTP client and at a backend subscribed on NATS, the time
// to the first contract delta, events/s at saturation, memory per open idle stream, whether 1,000+ concurrent
// streams ran without errors, and the CPU time each process spends per contract event (from /proc: the figure a
// noisy machine shakes least). The paced phase's targets are ratios to floors measured in the same run (the
// machine is noisy): minimal NATS relays that write a chunk only once JetStream has acked storing it.
// Usage: npm run bench:e2e [-- --streams 200 --frames 200 --interval 5 --open 1000 --provider anthropic --phases idle,paced,saturation]
// `--phases requests` counts the messages NATS carries per stream by kind (JetStream API requests by verb, acks,
// publishes by subject root), with a wildcard subscription that is not there while CPU is measured.
// `--phases split` runs the paced load at two stream lengths and splits each process's CPU into a cost per
// stream and a cost per event.
// `--settle S`: the idle streams' memory is measured right after the burst of openings and again S seconds later.
// `--heartbeat-ms N`: the gateway's heartbeat interval (default 600000, off for these runs; the shipped one is 15000).
// `--prefill N` first stores N earlier streams of 100 raw records and 100 events each (a store holding its
// retention, not an empty one: what JetStream does per request can grow with what it holds).
// `--services-root <worktree>` runs the replay provider, gateway and normalizer built in another worktree (e.g. an
// older commit, after `npm ci && npm run build` there) against this tree's baselines: a before/after in one sitting.
import { request } from 'node:http';
import { createHash } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { getFreePort, startNatsServer, startOtlpCollector, startProcess, waitFor } from '@llm-stream/testing';
import { tenantEventsWildcard } from '@llm-stream/contract';
import { percentile, waitUntilReady } from './bench-support.mjs';
import { cpuSeconds } from './proc-cpu.mjs';
import { countTraffic } from './nats-traffic.mjs';
import { prefillStore } from './prefill-store.mjs';

const { values } = parseArgs({
  options: {
    streams: { type: 'string', default: '200' },
    frames: { type: 'string', default: '200' },
    interval: { type: 'string', default: '5' },
    open: { type: 'string', default: '1000' },
    provider: { type: 'string', default: 'anthropic' },
    // A subset, e.g. `--phases paced` for a CPU profile (BENCH_CPU_PROF_DIR) of the paced load alone.
    phases: { type: 'string', default: 'idle,paced,saturation' },
    prefill: { type: 'string', default: '0' },
    // Seconds the idle streams stay open after the burst of openings before their memory is measured again.
    settle: { type: 'string', default: '180' },
    // The gateway's heartbeat while a provider is quiet: off by default here (the figures stay comparable with
    // earlier runs); `--heartbeat-ms 15000` is the shipped setting, under which an idle stream's records are
    // proven stored and forgotten at its first heartbeat.
    'heartbeat-ms': { type: 'string', default: '600000' },
    'services-root': { type: 'string' },
  },
});
const STREAMS = Number(values.streams);
const FRAMES = Number(values.frames);
const INTERVAL = Number(values.interval);
const OPEN = Number(values.open);
const PROVIDER = values.provider;
const PHASES = new Set(values.phases.split(','));
const PREFILL = Number(values.prefill);
const SETTLE_S = Number(values.settle);
const HEARTBEAT_MS = values['heartbeat-ms'];
const ENDPOINTS = { anthropic: '/v1/messages', 'openai-chat': '/v1/chat/completions', 'openai-responses': '/v1/responses' };
const root = join(import.meta.dirname, '../..');
const servicesRoot = values['services-root'] ?? root;
const KEY = 'bench-key';
const now = () => performance.timeOrigin + performance.now();

// ---- the system under test -------------------------------------------------------------------------------
const nats = await startNatsServer();
if (PREFILL > 0) {
  const perStream = 100;
  const seconds = await prefillStore(nats.url, { streams: PREFILL, perStream });
  process.stdout.write(`store prefilled: ${PREFILL} earlier streams of ${perStream} raw records and ${perStream} events (${seconds.toFixed(1)} s)\n`);
}
// Tracing on, as in production: the services' OTLP/HTTP exporter sends every span to a collector here.
const collector = await startOtlpCollector();
const tracing = { TRACE_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: collector.tracesUrl };
const ports = {
  replay: await getFreePort(),
  gateway: await getFreePort(),
  normalizer: await getFreePort(),
  proxy: await getFreePort(),
  relay: await getFreePort(),
  relay2: await getFreePort(),
  ackedRelay: await getFreePort(),
  ackedRelay2: await getFreePort(),
  backend: await getFreePort(),
};
// BENCH_CPU_PROF_DIR=<dir> writes a V8 CPU profile of each service there when it stops.
const profile = process.env.BENCH_CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`] : [];
const node = (name, app, env) =>
  startProcess(process.execPath, [...profile, join(servicesRoot, `apps/${app}/dist/main.js`)], { name, cwd: servicesRoot, env: { ...process.env, ...env } });
const replay = node('replay', 'replay-provider', { REPLAY_PORT: String(ports.replay), REPLAY_REQUEST_LOG_LIMIT: '100' });
// The baseline of the paced phase: one more node process that only forwards the provider's bytes.
const benchProcess = (name, script, env) =>
  startProcess(process.execPath, [join(root, `tools/bench/${script}`)], { name, cwd: root, env: { ...process.env, NATS_URL: nats.url, ...env } });
const proxy = benchProcess('plain-proxy', 'plain-proxy.mjs', { PROXY_PORT: String(ports.proxy), PROXY_UPSTREAM: `http://127.0.0.1:${ports.replay}` });
// The floors of the design: relays that pass each chunk through NATS and do nothing else (nats-relay.mjs), with
// one stored message per record, and with two and an echo process in the normalizer's place (the pipeline's shape);
// each written on the core echo (no proof of storage) and acked (written once JetStream acked storing it).
const relayEchoes = {
  core: benchProcess('nats-relay-echo', 'nats-relay-echo.mjs', {}),
  acked: benchProcess('nats-relay-echo-acked', 'nats-relay-echo.mjs', { RELAY_ACKED: '1' }),
};
const relay = (name, passes, acked, label) => ({
  label,
  process: benchProcess(`nats-${name}`, 'nats-relay.mjs', {
    PROXY_UPSTREAM: `http://127.0.0.1:${ports.replay}`,
    PROXY_PORT: String(ports[name]),
    RELAY_PASSES: String(passes),
    RELAY_ACKED: acked ? '1' : '0',
  }),
  echo: passes === 2 ? relayEchoes[acked ? 'acked' : 'core'] : undefined,
});
const relays = {
  relay: relay('relay', 1, false, 'one pass, written on the core echo (no proof of storage)'),
  relay2: relay('relay2', 2, false, "two passes, written on the core echo (today's shape)"),
  ackedRelay: relay('ackedRelay', 1, true, "one pass, acked (the floor of the HTTP client's path)"),
  ackedRelay2: relay('ackedRelay2', 2, true, "two passes, acked (the floor of a NATS backend's path and of the CPU)"),
};
// A backend on NATS: a core subscription to the bench tenant's contract events, through every phase.
const TENANT = 'bench';
const backend = benchProcess('nats-backend', 'nats-backend.mjs', { BACKEND_TENANT: TENANT, BACKEND_PORT: String(ports.backend) });
const normalizer = node('normalizer', 'normalizer', {
  NATS_URL: nats.url,
  HTTP_PORT: String(ports.normalizer),
  LOG_LEVEL: 'warn',
  ...tracing,
  MAX_CONCURRENT_STREAMS: String(OPEN + STREAMS),
});
const gateway = node('gateway', 'gateway', {
  NATS_URL: nats.url,
  HTTP_PORT: String(ports.gateway),
  LOG_LEVEL: 'warn',
  ...tracing,
  GATEWAY_API_KEYS: JSON.stringify([{ sha256: createHash('sha256').update(KEY).digest('hex'), tenant: TENANT }]),
  OPENAI_BASE_URL: `http://127.0.0.1:${ports.replay}`,
  ANTHROPIC_BASE_URL: `http://127.0.0.1:${ports.replay}`,
  UPSTREAM_IDLE_TIMEOUT_MS: '600000',
  UPSTREAM_PROGRESS_TIMEOUT_MS: '600000',
  HEARTBEAT_INTERVAL_MS: HEARTBEAT_MS,
  CLIENT_GRACE_MS: '0',
  // Admission control would refuse the idle phase's streams above its default (1,000 open per gateway).
  MAX_OPEN_STREAMS: String(OPEN + STREAMS),
});
await waitUntilReady(`http://127.0.0.1:${ports.replay}/_replay/health`, 'replay provider');
await waitUntilReady(`http://127.0.0.1:${ports.proxy}/_replay/health`, 'plain proxy');
for (const echo of Object.values(relayEchoes)) await echo.waitForLine(/^ready$/, 30_000);
await backend.waitForLine(/^ready$/, 30_000);
for (const name of Object.keys(relays)) await waitUntilReady(`http://127.0.0.1:${ports[name]}/_replay/health`, name);
await waitUntilReady(`http://127.0.0.1:${ports.normalizer}/health/ready`, 'normalizer');
await waitUntilReady(`http://127.0.0.1:${ports.gateway}/health/ready`, 'gateway');

async function scenario(response) {
  const answer = await fetch(`http://127.0.0.1:${ports.replay}/_replay/scenarios`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ responses: [response] }),
  });
  return `scenario:${(await answer.json()).id}`;
}

// ---- an SSE client that records when each stamped delta arrives ---------------------------------------------
/**
 * POSTs and reads SSE; calls onData(data) per record and resolves with the status when the body ends.
 * `onHead(res)`, when given, sees the response's status and headers first.
 */
function stream(port, path, body, onData, signal, onHead) {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', agent: false, headers: { authorization: `Bearer ${KEY}`, 'x-api-key': KEY, 'content-type': 'application/json' } }, (res) => {
      onHead?.(res);
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        buffer += chunk;
        let end;
        while ((end = buffer.search(/\r?\n\r?\n/)) !== -1) {
          const record = buffer.slice(0, end);
          buffer = buffer.slice(buffer.indexOf('\n', end + 1) + 1);
          for (const line of record.split(/\r?\n/)) if (line.startsWith('data:')) onData(line.slice(5).trimStart());
        }
      });
      res.on('end', () => resolve(res.statusCode));
      res.on('error', () => resolve(-1));
    });
    req.on('error', () => resolve(-1));
    const abort = () => req.destroy();
    signal?.addEventListener('abort', abort, { once: true });
    req.on('close', () => signal?.removeEventListener('abort', abort));
    req.end(JSON.stringify(body));
  });
}

const STAMP = /t=(\d+\.\d{3});/;

/**
 * Runs `count` concurrent streams; returns per-event latencies, first-delta latencies, events, errors. `via`:
 * `gateway` (the pipeline), `direct` (the replay provider itself), `proxy` (the plain proxy before it), or
 * the name of one of the minimal NATS relays before it (`relays`).
 */
async function run(count, model, via) {
  const viaGateway = via === 'gateway';
  const latencies = [];
  const firsts = [];
  let events = 0;
  let errors = 0;
  const started = now();
  await Promise.all(
    Array.from({ length: count }, async () => {
      let first = true;
      const onData = (data) => {
        events += 1;
        if (viaGateway && data.includes('"stream.error"')) errors += 1;
        const match = STAMP.exec(data);
        if (!match) return;
        if (viaGateway && !data.includes('"block.delta"')) return;
        const latency = now() - Number(match[1]);
        latencies.push(latency);
        if (first) {
          firsts.push(latency);
          first = false;
        }
      };
      const status = viaGateway
        ? await stream(ports.gateway, `/v1/streams/${PROVIDER}`, { model, max_tokens: 1024, messages: [] }, onData)
        : await stream(ports[via === 'direct' ? 'replay' : via], ENDPOINTS[PROVIDER], { model, max_tokens: 1024, messages: [], stream: true, stream_options: { include_usage: true } }, onData);
      if (status !== 200) errors += 1;
    }),
  );
  latencies.sort((a, b) => a - b);
  firsts.sort((a, b) => a - b);
  return { latencies, firsts, events, errors, seconds: (now() - started) / 1000 };
}

const CPU_PROCESSES = () => ({ gateway: gateway.pid, normalizer: normalizer.pid, 'nats-server': nats.pid });
function cpuSnapshot(processes = CPU_PROCESSES()) {
  return Object.fromEntries(Object.entries(processes).map(([name, pid]) => [name, cpuSeconds(pid)]));
}
/**
 * Runs `count` streams (through the gateway, or `via` a baseline) and reads the CPU per event (per SSE record for
 * a baseline) of each of `processes` meanwhile.
 */
async function measuredRun(count, model, via = 'gateway', processes = CPU_PROCESSES()) {
  const before = cpuSnapshot(processes);
  const result = await run(count, model, via);
  const after = cpuSnapshot(processes);
  const usPerEvent = Object.fromEntries(Object.keys(before).map((name) => [name, ((after[name] - before[name]) * 1e6) / result.events]));
  return { ...result, usPerEvent };
}
const cpuTotal = (usPerEvent) => Object.values(usPerEvent).reduce((sum, us) => sum + us, 0);
/** "gateway 21.3 + normalizer 18.0 + nats-server 12.9 = 52.2 us per contract event" */
function cpuPerEvent(usPerEvent, unit = 'contract event') {
  const parts = Object.entries(usPerEvent).map(([name, us]) => `${name} ${us.toFixed(1)}`);
  return `${parts.join(' + ')} = ${cpuTotal(usPerEvent).toFixed(1)} us per ${unit}`;
}
/** A paced scenario of `frames` frames a stream, warmed up (JIT, connections, JetStream consumers). */
async function pacedModel(frames) {
  const model = await scenario({ synthetic: { frames, frame_interval_ms: INTERVAL, text_bytes: 32 } });
  await run(Math.min(20, STREAMS), model, 'gateway');
  return model;
}

/**
 * Opens a stream as a client honouring admission control would: a 503 (`overloaded`: the gateway's event loop
 * lags under the burst of openings; `unavailable`: JetStream did not ack the opening in time) is counted in
 * `refusals` and asked again after its Retry-After (1 s without one). Nothing was sent to the provider.
 */
async function streamRetryingRefusals(body, onData, signal, refusals) {
  for (;;) {
    let retryAfterS = 1;
    const status = await stream(ports.gateway, `/v1/streams/${PROVIDER}`, body, onData, signal, (res) => {
      if (res.statusCode === 503) retryAfterS = Number(res.headers['retry-after'] ?? 1) || 1;
    });
    if (status !== 503 || signal.aborted) return status;
    refusals.count += 1;
    await new Promise((resolve) => setTimeout(resolve, retryAfterS * 1000));
  }
}

function rssKiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
}

const ms = (value) => `${value.toFixed(2)} ms`;
/** A figure against the floor it is held to: "1.23x (target <= 1.5x: met)". */
function against(value, floor, limit) {
  if (!(floor > 0)) return `floor ${floor.toFixed(2)}, no ratio (target <= ${limit}x)`;
  const ratio = value / floor;
  return `${ratio.toFixed(2)}x (target <= ${limit}x: ${ratio <= limit ? 'met' : 'missed'})`;
}
const out = (line) => process.stdout.write(`${line}\n`);

try {
  // 1. Memory per open idle stream, and OPEN concurrent open streams without errors (first: the baseline is
  // the services' memory before any load, not one inflated by the garbage of a saturation run).
  if (PHASES.has('idle')) {
  const idle = await scenario({ synthetic: { frames: 1, frame_interval_ms: 0, text_bytes: 32 }, stall_after_frames: 3, stall_ping_interval_ms: 600000 });
  const controller = new AbortController();
  setMaxListeners(3 * OPEN + 1, controller.signal); // one listener per open stream
  // The baselines: as many idle streams through the plain proxy, which holds a client and an upstream socket
  // for each, as the gateway does, and nothing else; and through the two-pass NATS relay and its echo process
  // (the pipeline's shape, nothing else). They stay open while the pipeline's streams are measured.
  const baselines = { proxy: [proxy.pid], relay2: [relays.relay2.process.pid, relayEchoes.core.pid] };
  const rssOf = (pids) => pids.reduce((sum, pid) => sum + rssKiB(pid), 0);
  const baselineBefore = Object.fromEntries(Object.entries(baselines).map(([via, pids]) => [via, rssOf(pids)]));
  let baselineOpened = 0;
  const baselineStreams = Object.keys(baselines).flatMap((via) =>
    Array.from({ length: OPEN }, () => {
      let counted = false;
      const onData = () => {
        if (counted) return;
        counted = true;
        baselineOpened += 1;
      };
      return stream(ports[via], ENDPOINTS[PROVIDER], { model: idle, max_tokens: 16, messages: [], stream: true }, onData, controller.signal);
    }),
  );
  const baselineCount = baselineStreams.length;
  await waitFor(() => baselineOpened >= baselineCount || undefined, { timeoutMs: 300_000, intervalMs: 200, description: `${baselineCount} idle streams through the baselines` });
  global.gc?.();
  const before = { gateway: rssKiB(gateway.pid), normalizer: rssKiB(normalizer.pid) };
  let opened = 0;
  let failed = 0;
  const failures = [];
  const refusals = { count: 0 };
  const openingStarted = now();
  const openStreams = Array.from({ length: OPEN }, () =>
    streamRetryingRefusals(
      { model: idle, max_tokens: 16, messages: [] },
      (data) => {
        if (data.includes('"stream.start"')) opened += 1;
        if (data.includes('"stream.error"')) {
          failed += 1;
          if (failures.length < 3) failures.push(data.slice(0, 400));
        }
      },
      controller.signal,
      refusals,
    ),
  );
  await waitFor(() => opened >= OPEN || undefined, { timeoutMs: 300_000, intervalMs: 200, description: `${OPEN} open streams` });
  const openingSeconds = (now() - openingStarted) / 1000;
  const metrics = await (await fetch(`http://127.0.0.1:${ports.normalizer}/metrics`)).text();
  const owned = Number(/^llm_normalizer_open_streams (\d+)/m.exec(metrics)?.[1] ?? NaN);
  out(`open idle streams: ${opened} open at once (normalizer owns ${owned}), errors ${failed}, opened in ${openingSeconds.toFixed(1)} s`);
  out(`  refused under the burst of openings (503 overloaded or unavailable, opened after Retry-After): ${refusals.count}`);
  for (const failure of failures) out(`  error: ${failure}`);
  const memoryLine = (when) => {
    const after = { gateway: rssKiB(gateway.pid), normalizer: rssKiB(normalizer.pid) };
    const perStream = (after.gateway - before.gateway + after.normalizer - before.normalizer) / OPEN;
    out(`  memory per open idle stream ${when}: ${perStream.toFixed(1)} KiB (gateway ${((after.gateway - before.gateway) / OPEN).toFixed(1)} + normalizer ${((after.normalizer - before.normalizer) / OPEN).toFixed(1)}; target < 64 KiB; the plain proxy ${((rssOf(baselines.proxy) - baselineBefore.proxy) / OPEN).toFixed(1)}, the two-pass NATS relay ${((rssOf(baselines.relay2) - baselineBefore.relay2) / OPEN).toFixed(1)})`);
  };
  memoryLine('right after the burst');
  if (SETTLE_S > 0) {
    // V8 gives back the heap the burst of openings grew (garbage, a doubled young generation) only once the
    // process has been quiet a while: the idle streams' own cost is the figure after that.
    const cpuBefore = cpuSnapshot();
    await new Promise((resolve) => setTimeout(resolve, SETTLE_S * 1000));
    memoryLine(`after ${SETTLE_S} s idle`);
    // What the open streams cost while nothing happens on them (heartbeats, storage checks, store looks).
    const cpuAfter = cpuSnapshot();
    const perSecond = Object.fromEntries(Object.keys(cpuBefore).map((name) => [name, ((cpuAfter[name] - cpuBefore[name]) * 1000) / SETTLE_S]));
    const total = Object.values(perSecond).reduce((sum, ms) => sum + ms, 0);
    out(`  CPU while they sat idle: ${Object.entries(perSecond).map(([name, ms]) => `${name} ${ms.toFixed(1)}`).join(' + ')} = ${total.toFixed(1)} ms per second (heartbeat every ${HEARTBEAT_MS} ms)`);
  }
  controller.abort();
  await Promise.all([...openStreams, ...baselineStreams]);
  }
  // 2. Added latency at STREAMS concurrent streams of FRAMES frames, one every INTERVAL ms.
  if (PHASES.has('paced')) {
  const paced = await pacedModel(FRAMES);
  const direct = await run(STREAMS, paced, 'direct');
  await run(Math.min(20, STREAMS), paced, 'proxy'); // warms the proxy as pacedModel warms the pipeline
  const proxied = await measuredRun(STREAMS, paced, 'proxy', { proxy: proxy.pid });
  const relayed = {};
  for (const [name, { process: relayProcess, echo }] of Object.entries(relays)) {
    await run(Math.min(20, STREAMS), paced, name);
    const processes = { relay: relayProcess.pid, ...(echo && { echo: echo.pid }), 'nats-server': nats.pid };
    relayed[name] = await measuredRun(STREAMS, paced, name, processes);
  }
  const backendUrl = `http://127.0.0.1:${ports.backend}/`;
  await fetch(backendUrl, { method: 'POST' }); // forgets the warm-up's events
  const piped = await measuredRun(STREAMS, paced);
  const backendReceived = await waitFor(
    async () => {
      const received = await (await fetch(backendUrl)).json();
      return received.latencies.length >= piped.latencies.length ? received : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 200, description: `the NATS backend to receive the ${piped.latencies.length} deltas the HTTP clients did` },
  );
  const backendLatencies = backendReceived.latencies.sort((a, b) => a - b);
  const added = (latencies, p) => percentile(latencies, p) - percentile(direct.latencies, p);
  const { ackedRelay, ackedRelay2 } = relayed;
  out(`pipeline: ${PROVIDER}, ${STREAMS} concurrent streams x ${FRAMES} frames, one every ${INTERVAL} ms (${Math.round((STREAMS * 1000) / INTERVAL)} frames/s offered), tracing on (OTLP to a collector)`);
  if (servicesRoot !== root) out(`  services under test built in ${servicesRoot}`);
  out(`  latency send->receipt, direct from the replay provider: p50 ${ms(percentile(direct.latencies, 50))}  p99 ${ms(percentile(direct.latencies, 99))}  (${direct.latencies.length} deltas)`);
  out(`  latency send->receipt, through a plain node proxy:      p50 ${ms(percentile(proxied.latencies, 50))}  p99 ${ms(percentile(proxied.latencies, 99))}  (${proxied.latencies.length} deltas, errors ${proxied.errors})`);
  out(`  added by the plain proxy (one more node process):        p50 ${ms(added(proxied.latencies, 50))}  p99 ${ms(added(proxied.latencies, 99))}   (CPU ${proxied.usPerEvent.proxy.toFixed(1)} us per SSE record)`);
  for (const [name, { label }] of Object.entries(relays)) {
    const { latencies, firsts, errors, usPerEvent } = relayed[name];
    out(`  through a NATS relay, ${label}: added p50 ${ms(added(latencies, 50))}  p99 ${ms(added(latencies, 99))}  first record p50 ${ms(percentile(firsts, 50))}  errors ${errors}`);
    out(`    CPU: ${cpuPerEvent(usPerEvent, 'SSE record')}`);
  }
  out(`  latency send->receipt, through the gateway pipeline:    p50 ${ms(percentile(piped.latencies, 50))}  p99 ${ms(percentile(piped.latencies, 99))}  (${piped.latencies.length} deltas)`);
  out(`  added by the pipeline, at the HTTP client:               p50 ${ms(added(piped.latencies, 50))}  p99 ${ms(added(piped.latencies, 99))}`);
  out(`    against the acked one-pass relay's: p50 ${against(added(piped.latencies, 50), added(ackedRelay.latencies, 50), 1.5)}  p99 ${against(added(piped.latencies, 99), added(ackedRelay.latencies, 99), 1.5)}`);
  out(`  first contract delta - first frame send:                 p50 ${ms(percentile(piped.firsts, 50))}  p99 ${ms(percentile(piped.firsts, 99))}   (direct p50 ${ms(percentile(direct.firsts, 50))})`);
  out(`    against the acked one-pass relay's first record: p50 ${against(percentile(piped.firsts, 50), percentile(ackedRelay.firsts, 50), 2)}`);
  out(`  added by the pipeline, at a NATS backend (core subscription to ${tenantEventsWildcard(TENANT)}): p50 ${ms(added(backendLatencies, 50))}  p99 ${ms(added(backendLatencies, 99))}  (${backendLatencies.length} deltas; ${backendReceived.duplicates} messages received again dropped)`);
  out(`    against the acked two-pass relay's: p50 ${against(added(backendLatencies, 50), added(ackedRelay2.latencies, 50), 1.5)}  p99 ${against(added(backendLatencies, 99), added(ackedRelay2.latencies, 99), 1.5)}`);
  out(`  errors: ${piped.errors} (direct ${direct.errors})`);
  out(`  CPU: ${cpuPerEvent(piped.usPerEvent)} (${piped.events} events)`);
  out(`    against the acked two-pass relay's per SSE record: ${against(cpuTotal(piped.usPerEvent), cpuTotal(ackedRelay2.usPerEvent), 1.3)}`);

  }
  // 2b. Where the CPU goes: per stream (opening, owning, proving and closing it) or per event. The same paced
  // load at two stream lengths; the CPU per event of each is a + b / (events per stream), solved for both.
  if (PHASES.has('split')) {
    const lengths = [Math.max(10, Math.round(FRAMES / 4)), FRAMES * 2];
    // What ran before moves the split, not the sum: alone, 14-18 ms per stream; after the paced phase, 4.6-4.8 ms
    // (with per event higher by as much); a stream of 200 frames comes to about 210 us per event either way.
    const short = await measuredRun(STREAMS, await pacedModel(lengths[0]));
    const long = await measuredRun(STREAMS, await pacedModel(lengths[1]));
    const eventsPerStream = (measured) => measured.events / STREAMS;
    out(`where the CPU goes: ${STREAMS} streams of ${lengths[0]} and of ${lengths[1]} frames, one every ${INTERVAL} ms (errors ${short.errors + long.errors})`);
    // Measured, not solved for: what a short stream costs in all, which its cost per stream dominates.
    const perShortStream = Object.entries(short.usPerEvent).map(([name, us]) => `${name} ${((us * eventsPerStream(short)) / 1000).toFixed(2)}`);
    out(`  a stream of ${lengths[0]} frames in all: ${perShortStream.join(' + ')} = ${((cpuTotal(short.usPerEvent) * eventsPerStream(short)) / 1000).toFixed(2)} ms`);
    let perStreamTotal = 0;
    let perEventTotal = 0;
    for (const name of Object.keys(short.usPerEvent)) {
      const perStream = (short.usPerEvent[name] - long.usPerEvent[name]) / (1 / eventsPerStream(short) - 1 / eventsPerStream(long));
      const perEvent = long.usPerEvent[name] - perStream / eventsPerStream(long);
      perStreamTotal += perStream;
      perEventTotal += perEvent;
      out(`  ${name.padEnd(12)} ${(perStream / 1000).toFixed(2).padStart(6)} ms per stream + ${perEvent.toFixed(1).padStart(6)} us per event`);
    }
    // The provider's events beyond one per frame (start, stops, the end), as the short streams had them.
    const eventsOf = (frames) => frames + eventsPerStream(short) - lengths[0];
    out(`  ${'together'.padEnd(12)} ${(perStreamTotal / 1000).toFixed(2).padStart(6)} ms per stream + ${perEventTotal.toFixed(1).padStart(6)} us per event (a stream of ${FRAMES} frames: ${(perEventTotal + perStreamTotal / eventsOf(FRAMES)).toFixed(1)} us per event)`);
  }
  // 2c. What NATS carries per stream: every JetStream request is a round trip through nats-server's API.
  if (PHASES.has('requests')) {
    const model = await pacedModel(FRAMES);
    const traffic = await countTraffic(nats.url);
    const counted = await run(STREAMS, model, 'gateway');
    const counts = await traffic.stop();
    out(`what NATS carries per stream: ${STREAMS} streams of ${FRAMES} frames, one every ${INTERVAL} ms (${(counted.events / STREAMS).toFixed(1)} contract events a stream, errors ${counted.errors})`);
    for (const [kind, count] of [...counts].sort((a, b) => b[1] - a[1])) out(`  ${(count / STREAMS).toFixed(2).padStart(9)}  ${kind}`);
  }
  // 3. Saturation: streams as fast as the provider can send them.
  if (PHASES.has('saturation')) {
  const burst = await scenario({ synthetic: { frames: 1000, frame_interval_ms: 0, text_bytes: 32 } });
  const saturated = await measuredRun(50, burst);
  const saturatedDirect = await run(50, burst, 'direct');
  out(`saturation (50 streams x 1000 frames, no pacing): ${Math.round(saturated.events / saturated.seconds)} contract events/s through the pipeline (direct: ${Math.round(saturatedDirect.events / saturatedDirect.seconds)} SSE records/s), errors ${saturated.errors}`);
  out(`  CPU at saturation: ${cpuPerEvent(saturated.usPerEvent)}`);
  }

} finally {
  const benchProcesses = [proxy, backend, ...Object.values(relayEchoes), ...Object.values(relays).map((relay) => relay.process)];
  await Promise.all([gateway.stop(), normalizer.stop(), replay.stop(), ...benchProcesses.map((benchProcess) => benchProcess.stop())]);
  await nats.stop();
  await collector.stop();
}
