import { waitFor } from '@llm-stream/testing';
import { STREAM_NAMES } from '@llm-stream/contract';
import { terminalOf } from './support/event-checks.js';
import { openStream, postStream, resumeStream } from './support/gateway-client.js';
import { startPipeline, type Pipeline } from './support/pipeline.js';
import { readRawTrace, traceOutline } from './support/raw-trace.js';
import { registerScenario, scenarioRequests } from './support/replay-control.js';

/** Longer than the gateway's wait for JetStream's ack of `stream.open` (nats.js's 5 s request timeout). */
const PAUSE_MS = 7_000;

describe('a stream refused because JetStream did not confirm its opening in time', () => {
  let pipeline: Pipeline;

  beforeAll(async () => {
    pipeline = await startPipeline({ gatewayEnv: { LEASE_INTERVAL_MS: '1000' }, normalizerEnv: { GATEWAY_LEASE_TIMEOUT_MS: '5000' } });
  });

  afterAll(async () => {
    await pipeline.stop();
  });

  it('is answered 503 unavailable without calling the provider, and what JetStream stored of it ends interrupted: no normalizer waits for it', async () => {
    const scenario = await registerScenario(pipeline.replay.url, { responses: [{ synthetic: { frames: 5, frame_interval_ms: 10 } }] });
    const body = { model: `scenario:${scenario}`, max_tokens: 64, messages: [] };

    // The server stops with the gateway's `stream.open` in its socket buffer: stored only once it runs again,
    // after the gateway has given up waiting for the ack.
    await pipeline.nats.pause();
    let refused: Response;
    try {
      refused = await Promise.race([
        openStream(pipeline.gatewayUrl, 'anthropic', body),
        new Promise<never>((_resolve, reject) => {
          setTimeout(() => {
            reject(new Error(`no answer within ${String(PAUSE_MS)} ms`));
          }, PAUSE_MS);
        }),
      ]);
    } finally {
      pipeline.nats.resume();
    }
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ error: { code: 'unavailable' } });

    // Stored all the same: the stream's trace, ended by the gateway, and a normalizer ends its events.
    const streamId = await waitFor(
      async () => {
        const info = await pipeline.jsm.streams.info(STREAM_NAMES.raw, { subjects_filter: 'llm.raw.acme.>' });
        return Object.keys(info.state.subjects ?? {})[0]?.split('.').at(-1);
      },
      { timeoutMs: 20_000, description: "the refused stream's raw trace" },
    );
    const events = (await resumeStream(pipeline.gatewayUrl, streamId, undefined)).events;
    expect(events.map((event) => event.type)).toStrictEqual(['stream.start', 'stream.error']);
    expect(terminalOf(events)).toMatchObject({
      status: 'interrupted',
      error: {
        category: 'transport_interrupted',
        retryable: true,
        message: 'the gateway refused the stream before calling the provider (503 unavailable): JetStream did not confirm its opening in time',
      },
    });
    expect(traceOutline(await readRawTrace(pipeline.nc, pipeline.jsm, 'acme', streamId))).toStrictEqual(['stream.open', 'gateway.shutdown']);
    expect(await scenarioRequests(pipeline.replay.url, scenario)).toHaveLength(0);

    // Its work item was acked (nothing holds a normalizer's slot) and the next stream runs as usual.
    await waitFor(async () => (await pipeline.jsm.streams.info(STREAM_NAMES.work)).state.messages === 0 || undefined, {
      timeoutMs: 20_000,
      description: 'no work item left',
    });
    const admitted = await postStream(pipeline.gatewayUrl, 'anthropic', body);
    expect(admitted.status).toBe(200);
    expect(terminalOf(admitted.events)).toMatchObject({ type: 'stream.done' });
  }, 90_000);
});
