import { waitFor } from '@llm-stream/testing';
import { terminalOf } from './support/event-checks.js';
import { authHeaders, openStream, postStream, readSseStream, readUntil } from './support/gateway-client.js';
import { startPipeline, type Pipeline } from './support/pipeline.js';
import { registerScenario, scenarioRequests } from './support/replay-control.js';

describe('admission control (MAX_OPEN_STREAMS=2)', () => {
  let pipeline: Pipeline;

  beforeAll(async () => {
    pipeline = await startPipeline({ gatewayEnv: { MAX_OPEN_STREAMS: '2' } });
  });

  afterAll(async () => {
    await pipeline.stop();
  });

  it('refuses a stream above the limit with 503 overloaded and Retry-After before calling the provider; readiness says so; admits again once a stream ended', async () => {
    const scenario = await registerScenario(pipeline.replay.url, { responses: [{ synthetic: { frames: 2_000, frame_interval_ms: 20 } }] });
    const body = { model: `scenario:${scenario}`, max_tokens: 64, messages: [] };
    const abort = new AbortController();
    const open = await Promise.all([1, 2].map(() => openStream(pipeline.gatewayUrl, 'anthropic', body, { signal: abort.signal })));
    const readers = open.map((response) => readSseStream(response)[Symbol.asyncIterator]());
    for (const reader of readers) await readUntil(reader, (event) => event.type === 'block.delta');

    const refused = await fetch(new URL('/v1/streams/anthropic', pipeline.gatewayUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...authHeaders('acme') },
      body: JSON.stringify(body),
    });
    const refusedBody: unknown = await refused.json();
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refusedBody).toMatchObject({ error: { code: 'overloaded' } });
    expect(await scenarioRequests(pipeline.replay.url, scenario)).toHaveLength(2);
    // NATS answers and the gateway is not draining: the readiness 503 is admission control's.
    expect((await fetch(new URL('/health/ready', pipeline.gatewayUrl))).status).toBe(503);

    abort.abort();
    // The two clients left: after the grace period their streams are cancelled and the slots free.
    await waitFor(async () => (await fetch(new URL('/health/ready', pipeline.gatewayUrl))).status === 200, {
      timeoutMs: 15_000,
      description: 'the gateway to be ready again',
    });
    const admitted = await postStream(pipeline.gatewayUrl, 'anthropic', { model: 'multi_block', max_tokens: 64, messages: [] });
    expect(admitted.status).toBe(200);
    expect(terminalOf(admitted.events)).toMatchObject({ type: 'stream.done' });
  });
});
