// bench:admission-burst — admission control under a burst: BURST stream requests posted at once to one gateway
// (default three times its MAX_OPEN_STREAMS) against upstreams that stay open without ending (a few frames, then
// only keep-alives), so no admitted stream frees its slot during the burst. Prints how many were admitted and
// refused (by reason) and the first-event delay of the admitted streams (p50, p99: from sending the request to
// the first SSE event read), with every other gateway setting at its shipped default.
// Usage: npm run bench:admission-burst [-- --bound N (MAX_OPEN_STREAMS; default: the shipped one) --burst N (default 3 x bound)
//        --lag-bound-ms N (MAX_EVENT_LOOP_LAG_MS; default: the shipped one)]
import { request } from 'node:http';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { getFreePort, startNatsServer, startProcess } from '@llm-stream/testing';
import { percentile, waitUntilReady } from './bench-support.mjs';

const root = join(import.meta.dirname, '../..');
// The shipped MAX_OPEN_STREAMS is the config class's default (its decorators need reflect-metadata).
await import('reflect-metadata');
const { GatewayConfig } = await import(join(root, 'apps/gateway/dist/config/gateway-config.js'));
const { values } = parseArgs({ options: { bound: { type: 'string' }, burst: { type: 'string' }, 'lag-bound-ms': { type: 'string' } } });
const BOUND = Number(values.bound ?? new GatewayConfig().MAX_OPEN_STREAMS);
const BURST = Number(values.burst ?? 3 * BOUND);
const KEY = 'bench-key';
const now = () => performance.now();
const out = (line) => process.stdout.write(`${line}\n`);

const nats = await startNatsServer();
const ports = { replay: await getFreePort(), gateway: await getFreePort(), normalizer: await getFreePort() };
const node = (name, app, env) => startProcess(process.execPath, [join(root, `apps/${app}/dist/main.js`)], { name, cwd: root, env: { ...process.env, ...env } });
const replay = node('replay', 'replay-provider', { REPLAY_PORT: String(ports.replay), REPLAY_REQUEST_LOG_LIMIT: '100' });
const normalizer = node('normalizer', 'normalizer', { NATS_URL: nats.url, HTTP_PORT: String(ports.normalizer), LOG_LEVEL: 'warn', MAX_CONCURRENT_STREAMS: String(BURST) });
const gateway = node('gateway', 'gateway', {
  NATS_URL: nats.url,
  HTTP_PORT: String(ports.gateway),
  LOG_LEVEL: 'warn',
  GATEWAY_API_KEYS: JSON.stringify([{ sha256: createHash('sha256').update(KEY).digest('hex'), tenant: 'bench' }]),
  ANTHROPIC_BASE_URL: `http://127.0.0.1:${ports.replay}`,
  ...(values.bound !== undefined && { MAX_OPEN_STREAMS: values.bound }),
  ...(values['lag-bound-ms'] !== undefined && { MAX_EVENT_LOOP_LAG_MS: values['lag-bound-ms'] }),
});
const services = [gateway, normalizer, replay];

/** POSTs one stream request; resolves with its status, its refusal's code and message, and when its first SSE event came. */
function post(body, signal) {
  return new Promise((resolve) => {
    const sent = now();
    const payload = JSON.stringify(body);
    const req = request(
      { host: '127.0.0.1', port: ports.gateway, path: '/v1/streams/anthropic', method: 'POST', agent: false, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
          if (res.statusCode === 200 && /^data:/m.test(text)) resolve({ status: 200, firstEventMs: now() - sent });
        });
        res.on('end', () => {
          if (res.statusCode === 200) return resolve({ status: 200, firstEventMs: undefined });
          let error;
          try {
            error = JSON.parse(text).error;
          } catch {
            error = { code: 'not_json', message: text.slice(0, 80) };
          }
          resolve({ status: res.statusCode, code: error?.code, message: error?.message ?? '', retryAfter: res.headers['retry-after'] });
        });
        res.on('error', () => resolve({ status: -1 }));
      },
    );
    req.on('error', () => resolve({ status: -1 }));
    signal.addEventListener('abort', () => req.destroy(), { once: true });
    req.end(payload);
  });
}

const abort = new AbortController();
try {
  await waitUntilReady(`http://127.0.0.1:${ports.replay}/_replay/health`, 'replay provider');
  await waitUntilReady(`http://127.0.0.1:${ports.normalizer}/health/ready`, 'normalizer');
  await waitUntilReady(`http://127.0.0.1:${ports.gateway}/health/ready`, 'gateway');
  // Three frames, then only a ping every 5 s (under the idle timeout): the upstream never ends, and neither does the stream.
  const scenario = await (
    await fetch(`http://127.0.0.1:${ports.replay}/_replay/scenarios`, {
      method: 'POST',
      body: JSON.stringify({ responses: [{ synthetic: { frames: 1, frame_interval_ms: 0, text_bytes: 32 }, stall_after_frames: 3, stall_ping_interval_ms: 5_000 }] }),
    })
  ).json();
  const body = { model: `scenario:${scenario.id}`, max_tokens: 16, messages: [] };
  // Every request is sent in one turn of the event loop, and every answer is awaited with all admitted streams still open.
  const answers = await Promise.all(Array.from({ length: BURST }, () => post(body, abort.signal)));
  const admitted = answers.filter((answer) => answer.status === 200);
  const refused = answers.filter((answer) => answer.status === 503 && answer.code === 'overloaded' && answer.retryAfter !== undefined);
  const byReason = {
    open_streams: refused.filter((answer) => answer.message.includes('MAX_OPEN_STREAMS')).length,
    event_loop_lag: refused.filter((answer) => answer.message.includes('MAX_EVENT_LOOP_LAG_MS')).length,
  };
  const other = answers.length - admitted.length - refused.length;
  const firsts = admitted.map((answer) => answer.firstEventMs).filter((ms) => ms !== undefined).sort((a, b) => a - b);
  out(
    `burst ${BURST} at MAX_OPEN_STREAMS ${BOUND}: admitted ${admitted.length}, refused ${refused.length} (503 overloaded + Retry-After: ` +
      `open streams ${byReason.open_streams}, event-loop lag ${byReason.event_loop_lag}), other answers ${other}; ` +
      `first event of the admitted p50 ${percentile(firsts, 50).toFixed(1)} ms, p99 ${percentile(firsts, 99).toFixed(1)} ms`,
  );
} finally {
  abort.abort();
  await Promise.all(services.map((service) => service.stop('SIGTERM', 10_000)));
  await nats.stop();
}
