import { setTimeout as delay } from 'node:timers/promises';
import type { ContractEvent } from '@llm-stream/contract';
import { LlmStreamHttpClient, type HttpEventStream } from '@llm-stream/client/http';
import { API_KEYS, type KeyName } from './support/api-keys.js';
import { projectionProblems, sequenceProblems, terminalOf, withoutReasoning } from './support/event-checks.js';
import { CuttingProxy } from './support/http-client-cutting-proxy.js';
import { startPipeline, type Pipeline } from './support/pipeline.js';
import { registerScenario } from './support/replay-control.js';
import type { RunningService } from './support/services.js';
import { LONG_TEXT_CASE } from './support/transcripts.js';

/** Reads a stream to its end, calling `each` after every event (a slow reader waits there). */
async function readAll(stream: HttpEventStream, each?: (event: ContractEvent, index: number) => Promise<void> | void): Promise<ContractEvent[]> {
  const events: ContractEvent[] = [];
  for await (const event of stream) {
    events.push(event);
    await each?.(event, events.length);
  }
  return events;
}

/** A deterministic pseudo-random sequence, so a failing run can be repeated with its seed. */
function randomFrom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('@llm-stream/client/http against the real gateway under faults', () => {
  let pipeline: Pipeline;
  /** The gateway process at pipeline.gatewayUrl (replaced by the restart tests). */
  let gateway: RunningService;

  beforeAll(async () => {
    pipeline = await startPipeline();
    gateway = pipeline.gateways[0]!;
  });

  afterAll(async () => {
    await pipeline.stop();
  });

  function client(baseUrl: string, key: KeyName = 'acme', maxAttempts = 8): LlmStreamHttpClient {
    return new LlmStreamHttpClient({
      baseUrl,
      apiKey: API_KEYS[key],
      reasoning: key === 'acmeReasoning',
      resume: { maxAttempts, baseDelayMs: 20, maxDelayMs: 500 },
    });
  }

  /** The stored stream as the tenant's backend reads it: what the client must have delivered, exactly. */
  async function stored(streamId: string, key: KeyName): Promise<readonly ContractEvent[]> {
    const all = await pipeline.acmeEvents.waitForTerminal(streamId, 30_000);
    return key === 'acmeReasoning' ? all : withoutReasoning(all);
  }

  it('cut connections: every connection closed or reset at a random byte, 8 streams at once, each delivers exactly the stored sequence', async () => {
    const seed = Date.now();
    const random = randomFrom(seed);
    // Every connection is cut somewhere in its first 2 KB (headers, mid-record, mid-character), so each
    // stream resumes again and again; at least one event fits before the cut, so each connection progresses.
    const proxy = await CuttingProxy.start(pipeline.gatewayUrl, (connection) => ({
      afterBytes: 700 + Math.floor(random() * 1_400),
      how: connection % 2 === 0 ? 'close' : 'reset',
    }));
    try {
      const synthetic = await registerScenario(pipeline.replay.url, { responses: [{ synthetic: { frames: 120, frame_interval_ms: 5, text_bytes: 40 } }] });
      const cases: { model: string; key: KeyName }[] = [
        { model: `scenario:${synthetic}`, key: 'acme' },
        { model: `scenario:${synthetic}`, key: 'acmeReasoning' },
        { model: 'multi_block', key: 'acme' },
        { model: 'parallel_tools', key: 'acme' },
        { model: 'reasoning', key: 'acme' },
        { model: 'reasoning', key: 'acmeReasoning' },
        { model: 'error_mid_stream', key: 'acme' },
        { model: 'interrupted_mid_tool_arguments', key: 'acme' },
      ];
      const runs = await Promise.all(
        cases.map(async ({ model, key }) => {
          const stream = client(proxy.url, key).createStream('anthropic', { model, max_tokens: 64, messages: [] });
          const events = await readAll(stream);
          const streamId = await stream.streamId;
          return { model, key, streamId, events, stats: stream.stats, outcome: await stream.result() };
        }),
      );
      for (const run of runs) {
        const expected = await stored(run.streamId, run.key);
        expect({ seed, model: run.model, key: run.key, events: run.events }).toStrictEqual({ seed, model: run.model, key: run.key, events: expected });
        expect(run.key === 'acmeReasoning' ? sequenceProblems(run.events) : projectionProblems(run.events)).toStrictEqual([]);
        expect(run.stats.delivered).toBe(expected.length);
      }
      // A short transcript may fit before its first cut; the long synthetic answers are cut many times.
      for (const run of runs.filter(({ model }) => model.startsWith('scenario:'))) expect(run.stats.connections).toBeGreaterThan(5);
      expect(proxy.stats.cuts).toBeGreaterThan(cases.length);
      // Tool calls only from the streams that completed.
      const byModel = (model: string) => runs.find((run) => run.model === model)!.outcome;
      expect(byModel('multi_block')).toMatchObject({ status: 'completed', toolCalls: [{ name: 'get_weather' }] });
      expect(byModel('parallel_tools').toolCalls.length).toBeGreaterThan(1);
      expect(byModel('interrupted_mid_tool_arguments')).toMatchObject({ status: 'interrupted', toolCalls: [] });
      expect(byModel('error_mid_stream').status).toBe('failed');
    } finally {
      await proxy.close();
    }
  }, 120_000);

  it('slow reads: a reader that keeps pausing over a 6,000-delta answer, its connections cut every few hundred KB, gets every event once', async () => {
    const random = randomFrom(7);
    const proxy = await CuttingProxy.start(pipeline.gatewayUrl, (connection) => ({
      afterBytes: 150_000 + Math.floor(random() * 250_000),
      how: connection % 2 === 0 ? 'reset' : 'close',
    }));
    try {
      const stream = client(proxy.url).createStream('anthropic', { model: LONG_TEXT_CASE, max_tokens: 64, messages: [] });
      // The reader stalls for 20 ms every 100 events while the gateway has the whole answer at once: the
      // gateway's writes wait for the reader (backpressure through the proxy), and cuts hit a full pipe.
      const events = await readAll(stream, async (_event, index) => {
        if (index % 100 === 0) await delay(20);
      });
      const expected = await stored(await stream.streamId, 'acme');
      expect(events.length).toBeGreaterThan(6_000);
      expect(events).toStrictEqual(expected);
      expect(stream.stats.connections).toBeGreaterThan(1);
      expect(proxy.stats.cuts).toBeGreaterThan(0);
      expect(terminalOf(events)).toMatchObject({ type: 'stream.done' });
    } finally {
      await proxy.close();
    }
  }, 120_000);

  it.each([
    // Killed: the response breaks, the client retries while nothing listens, then resumes on the new process.
    ['SIGKILL', true],
    // Stopped: the draining gateway ends the stream (interrupted), usually on the open response itself; if the
    // response closes first, the client resumes on the restarted gateway as after a kill.
    ['SIGTERM', false],
  ] as const)(
    'a gateway restart (%s) mid-stream: the client ends with exactly the stored stream, resuming through the restarted gateway when cut',
    async (signal, mustResume) => {
      // The restarted gateway listens on the same port (the URL of the pipeline's first gateway).
      const port = new URL(pipeline.gatewayUrl).port;
      const scenario = await registerScenario(pipeline.replay.url, { responses: [{ synthetic: { frames: 300, frame_interval_ms: 20 } }] });
      // Enough attempts to outlast the restart (the backoff stays at 500 ms).
      const stream = client(pipeline.gatewayUrl, 'acme', 60).createStream('anthropic', { model: `scenario:${scenario}`, max_tokens: 64, messages: [] });
      let restarted: Promise<void> | undefined;
      const events = await readAll(stream, (event) => {
        if (event.type === 'block.delta' && restarted === undefined) {
          restarted = (async () => {
            await gateway.process.stop(signal, 10_000);
            gateway = await pipeline.addGateway({ HTTP_PORT: port });
          })();
        }
      });
      await restarted;
      const expected = await stored(await stream.streamId, 'acme');
      expect(events).toStrictEqual(expected);
      expect(terminalOf(events)).toMatchObject({ type: 'stream.error', status: 'interrupted' });
      expect(events.filter((event) => event.type === 'block.delta').length).toBeLessThan(300);
      if (mustResume) {
        expect(stream.stats.connections).toBe(2);
        expect(stream.stats.failedResumes).toBeGreaterThan(0);
      }
    },
    90_000,
  );
});
