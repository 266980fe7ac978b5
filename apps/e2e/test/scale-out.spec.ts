import { waitFor } from '@llm-stream/testing';
import { sequenceProblems, terminalOf } from './support/event-checks.js';
import { postStream } from './support/gateway-client.js';
import { startPipeline, type Pipeline } from './support/pipeline.js';
import { registerScenario } from './support/replay-control.js';

/** Stream ids a replica started working on ('stream owned' or 'stream taken over'), one entry per start. */
function starts(lines: readonly string[]): string[] {
  return lines
    .filter((line) => line.includes('"msg":"stream owned"') || line.includes('"msg":"stream taken over"'))
    .map((line) => (JSON.parse(line) as { stream_id: string }).stream_id);
}

describe('scale-out', () => {
  let pipeline: Pipeline;

  beforeAll(async () => {
    pipeline = await startPipeline({ normalizers: 2 });
    // A third replica that can hold a single stream at a time: the work it cannot start must go to the others.
    await pipeline.addNormalizer({ MAX_CONCURRENT_STREAMS: '1' });
  });

  afterAll(async () => {
    await pipeline.stop();
  });

  it('gives every stream to exactly one replica, even one that is full, and keeps each stream in order', async () => {
    const scenario = await registerScenario(pipeline.replay.url, { responses: [{ synthetic: { frames: 50, frame_interval_ms: 50 } }] });
    const replies = await Promise.all(
      Array.from({ length: 24 }, () =>
        postStream(pipeline.gatewayUrl, 'anthropic', { model: `scenario:${scenario}`, max_tokens: 64, messages: [] }),
      ),
    );
    for (const reply of replies) {
      expect(sequenceProblems(reply.events)).toStrictEqual([]);
      expect(terminalOf(reply.events)).toMatchObject({ type: 'stream.done' });
    }
    // The clients are served by the gateway's own session: the log's copy may still be on its way.
    const ids = replies.map((reply) => reply.streamId!);
    await waitFor(() => ids.every((id) => terminalOf(pipeline.acmeEvents.events(id))?.type === 'stream.done'), {
      timeoutMs: 30_000,
      description: 'every stream to end in the log',
    });
    const all = pipeline.normalizers.flatMap((service) => starts(service.process.lines));
    expect(all.filter((id) => ids.includes(id)).sort()).toStrictEqual([...ids].sort());
  });
});
