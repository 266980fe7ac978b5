import { sequenceProblems, terminalOf } from './support/event-checks.js';
import { openStream, readSseStream, readUntil, type GatewayReply } from './support/gateway-client.js';
import { postStream } from './support/gateway-client.js';
import { startPipeline, type Pipeline } from './support/pipeline.js';
import { registerScenario } from './support/replay-control.js';

describe('a NATS server restart', () => {
  let pipeline: Pipeline;

  beforeAll(async () => {
    pipeline = await startPipeline({ gateways: 2 });
  });

  afterAll(async () => {
    await pipeline.stop();
  });

  it('in the middle of streams: every stream still completes, gapless, for its HTTP client and on NATS', async () => {
    const scenario = await registerScenario(pipeline.replay.url, { responses: [{ synthetic: { frames: 80, frame_interval_ms: 50 } }] });
    const body = { model: `scenario:${scenario}`, max_tokens: 64, messages: [] };
    const replies: Promise<GatewayReply>[] = Array.from({ length: 4 }, (_unused, n) =>
      postStream(pipeline.gateways[n % 2]!.url, 'anthropic', body, { timeoutMs: 60_000 }),
    );
    // A follower of its own: it has read part of the stream when the server goes away.
    const response = await openStream(pipeline.gatewayUrl, 'anthropic', body);
    const records = readSseStream(response)[Symbol.asyncIterator]();
    const before = await readUntil(records, (event) => event.type === 'block.delta' && event.seq >= 5);

    await pipeline.nats.restart();

    const after = await readUntil(records, (event) => event.type === 'stream.done' || event.type === 'stream.error');
    const followed = [...before, ...after];
    expect(sequenceProblems(followed)).toStrictEqual([]);
    expect(terminalOf(followed)).toMatchObject({ type: 'stream.done' });
    expect(await pipeline.acmeEvents.waitForTerminal(followed[0]!.stream_id, 30_000)).toStrictEqual(followed);
    for (const reply of await Promise.all(replies)) {
      expect(sequenceProblems(reply.events)).toStrictEqual([]);
      expect(terminalOf(reply.events)).toMatchObject({ type: 'stream.done' });
      expect(await pipeline.acmeEvents.waitForTerminal(reply.streamId!, 30_000)).toStrictEqual(reply.events);
    }
    for (const service of pipeline.services()) expect(service.process.exit).toBeUndefined();
  }, 90_000);

  it('afterwards: new streams are accepted, owned and completed as before', async () => {
    const replies = await Promise.all(
      Array.from({ length: 4 }, (_unused, n) =>
        postStream(pipeline.gateways[n % 2]!.url, 'anthropic', { model: 'multi_block', max_tokens: 64, messages: [] }),
      ),
    );
    for (const reply of replies) {
      expect(reply.status).toBe(200);
      expect(sequenceProblems(reply.events)).toStrictEqual([]);
      expect(terminalOf(reply.events)).toMatchObject({ type: 'stream.done' });
    }
  });
});
