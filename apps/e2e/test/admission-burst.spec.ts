import { isTerminalEvent } from '@llm-stream/contract';
import { openStream, readSseStream, readUntil } from './support/gateway-client.js';
import { checkExchange } from './support/openapi-check.js';
import { startPipeline, type Pipeline } from './support/pipeline.js';
import { registerScenario, scenarioRequests } from './support/replay-control.js';

const BOUND = 50;

describe(`admission control under a burst (MAX_OPEN_STREAMS=${String(BOUND)})`, () => {
  let pipeline: Pipeline;

  beforeAll(async () => {
    // The event-loop lag bound is out of the way: what is tested is the open-stream bound alone.
    pipeline = await startPipeline({ gatewayEnv: { MAX_OPEN_STREAMS: String(BOUND), MAX_EVENT_LOOP_LAG_MS: '60000' } });
  });

  afterAll(async () => {
    await pipeline.stop();
  });

  it('admits exactly the bound of three times as many streams posted at once; the rest get 503 overloaded with Retry-After', async () => {
    // Slow upstreams (2,000 frames 200 ms apart): no admitted stream ends during the burst and frees its slot.
    const scenario = await registerScenario(pipeline.replay.url, { responses: [{ synthetic: { frames: 2_000, frame_interval_ms: 200 } }] });
    const body = { model: `scenario:${scenario}`, max_tokens: 64, messages: [] };
    const abort = new AbortController();
    try {
      const answers = await Promise.all(Array.from({ length: 3 * BOUND }, () => openStream(pipeline.gatewayUrl, 'anthropic', body, { signal: abort.signal })));
      const admitted = answers.filter((answer) => answer.status === 200);
      const refused = answers.filter((answer) => answer.status !== 200);

      // Each admitted stream is live: read to its first delta, with no terminal before it.
      for (const answer of admitted) {
        const seen = await readUntil(readSseStream(answer)[Symbol.asyncIterator](), (event) => event.type === 'block.delta');
        expect(seen.at(-1)?.type).toBe('block.delta');
        expect(seen.some(isTerminalEvent)).toBe(false);
      }
      expect(admitted).toHaveLength(BOUND);
      expect(refused).toHaveLength(2 * BOUND);
      for (const answer of refused) {
        const json: unknown = await answer.json();
        await checkExchange({ method: 'POST', url: answer.url, status: answer.status, contentType: answer.headers.get('content-type'), body: json });
        expect({ status: answer.status, retryAfter: answer.headers.get('retry-after'), json }).toMatchObject({
          status: 503,
          retryAfter: '1',
          json: { error: { code: 'overloaded' } },
        });
      }
      // Nothing of a refused stream reached the provider.
      expect(await scenarioRequests(pipeline.replay.url, scenario)).toHaveLength(BOUND);
    } finally {
      abort.abort();
    }
  });
});
