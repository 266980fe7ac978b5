import type { ContractEvent } from '@llm-stream/contract';
import { waitFor, type ProcessExit } from '@llm-stream/testing';
import { sequenceProblems, terminalOf } from './support/event-checks.js';
import { openStream, postStream, readSseStream, readUntil, resumeStream } from './support/gateway-client.js';
import { startPipeline, type Pipeline } from './support/pipeline.js';
import { registerScenario } from './support/replay-control.js';

const body = (model: string): Record<string, unknown> => ({ model, max_tokens: 64, messages: [] });
const slow = (frames: number, intervalMs: number): unknown => ({ synthetic: { frames, frame_interval_ms: intervalMs } });

/** Exited by itself after its shutdown hooks (Nest re-raises SIGTERM once they ran), not killed by the stop timeout. */
function expectCleanExit(exit: ProcessExit): void {
  expect([
    { code: 0, signal: null },
    { code: null, signal: 'SIGTERM' },
  ]).toContainEqual(exit);
}

describe('graceful shutdown (SIGTERM)', () => {
  let pipeline: Pipeline;

  beforeAll(async () => {
    pipeline = await startPipeline({
      normalizers: 2,
      gateways: 2,
      gatewayEnv: { SHUTDOWN_DRAIN_MS: '1000' },
      normalizerEnv: { SHUTDOWN_DRAIN_MS: '300' },
    });
  });

  afterAll(async () => {
    await pipeline.stop();
  });

  it('of a gateway: a stream that ends within the drain completes, a longer one ends interrupted at once, not after a lease', async () => {
    const gateway = pipeline.gateways[1]!;
    const short = await registerScenario(pipeline.replay.url, { responses: [slow(20, 25)] });
    const long = await registerScenario(pipeline.replay.url, { responses: [slow(2_000, 20)] });
    const shortReply = postStream(gateway.url, 'anthropic', body(`scenario:${short}`));
    const response = await openStream(gateway.url, 'anthropic', body(`scenario:${long}`));
    const streamId = response.headers.get('x-stream-id')!;
    const records = readSseStream(response)[Symbol.asyncIterator]();
    const seen = await readUntil(records, (event) => event.type === 'block.delta');

    const exited = gateway.process.stop('SIGTERM', 15_000);
    // The stream that could finish did, and its client got all of it before the gateway closed.
    expect(terminalOf((await shortReply).events)).toMatchObject({ type: 'stream.done' });
    const onNats: readonly ContractEvent[] = await pipeline.acmeEvents.waitForTerminal(streamId);
    expect(sequenceProblems(onNats)).toStrictEqual([]);
    expect(terminalOf(onNats)).toMatchObject({
      type: 'stream.error',
      status: 'interrupted',
      error: {
        category: 'transport_interrupted',
        message: 'the gateway holding the upstream connection shut down before the stream ended',
      },
    });
    expectCleanExit(await exited);
    // The client reading from the stopped gateway got everything up to the terminal event before it closed.
    const direct = await readUntil(records, (event) => event.type === 'stream.error').catch(() => []);
    expect([...seen, ...direct]).toStrictEqual(onNats);
    // A client cut off by the shutdown resumes on another gateway and gets the rest.
    const rest = await resumeStream(pipeline.gatewayUrl, streamId, seen.at(-1)!.seq);
    expect([...seen, ...rest.events]).toStrictEqual(onNats);
    expect(gateway.process.lines.some((line) => line.includes('"msg":"drain time is up: ending open streams"'))).toBe(true);
  });

  it('of a normalizer: the streams it owns are handed to another replica and complete gapless', async () => {
    const leaving = pipeline.normalizers[0]!;
    const scenario = await registerScenario(pipeline.replay.url, { responses: [slow(60, 25)] });
    const replies = Array.from({ length: 10 }, () => postStream(pipeline.gatewayUrl, 'anthropic', body(`scenario:${scenario}`)));
    await waitFor(() => leaving.process.lines.filter((line) => line.includes('"msg":"stream owned"')).length >= 2, {
      description: 'the leaving replica to own streams',
    });
    expectCleanExit(await leaving.process.stop('SIGTERM', 15_000));
    for (const reply of await Promise.all(replies)) {
      expect(sequenceProblems(reply.events)).toStrictEqual([]);
      expect(terminalOf(reply.events)).toMatchObject({ type: 'stream.done' });
      expect(await pipeline.acmeEvents.waitForTerminal(reply.streamId!)).toStrictEqual(reply.events);
    }
    expect(leaving.process.lines.some((line) => line.includes('"msg":"stream handed_over"'))).toBe(true);
  });
});
