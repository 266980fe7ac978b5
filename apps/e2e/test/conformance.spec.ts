import { isProviderName } from '@llm-stream/contract';
import { providerRequestBody } from './support/provider-requests.js';
import { canonical, normalizedInProcess, projectionProblems, sequenceProblems, withoutReasoning } from './support/event-checks.js';
import { postStream, type GatewayReply } from './support/gateway-client.js';
import { startPipeline, type Pipeline } from './support/pipeline.js';
import { conformanceTranscripts } from './support/transcripts.js';

const transcripts = conformanceTranscripts().map((transcript) => {
  if (!isProviderName(transcript.provider)) throw new Error(`unknown provider folder ${transcript.provider}`);
  return { ...transcript, provider: transcript.provider };
});

describe('every conformance transcript through the HTTP gateway', () => {
  let pipeline: Pipeline;
  const replies = new Map<string, GatewayReply>();

  beforeAll(async () => {
    pipeline = await startPipeline({ normalizers: 2 });
    // Eight at a time: the whole corpus in a few seconds, with streams of both normalizers interleaved.
    const queue = [...transcripts];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
          replies.set(
            `${next.provider}/${next.name}`,
            await postStream(pipeline.gatewayUrl, next.provider, providerRequestBody(next.provider, next.name)),
          );
        }
      }),
    );
  });

  afterAll(async () => {
    await pipeline.stop();
  });

  it('covers the whole corpus', () => {
    expect(transcripts.length).toBeGreaterThanOrEqual(100);
    expect(new Set(transcripts.map((transcript) => transcript.provider))).toEqual(
      new Set(['openai-chat', 'openai-responses', 'anthropic', 'gemini', 'gemini-interactions']),
    );
  });

  describe.each(transcripts.map((transcript) => [`${transcript.provider}/${transcript.name}`, transcript] as const))(
    '%s',
    (key, transcript) => {
      const expected = (): ReturnType<typeof normalizedInProcess> =>
        normalizedInProcess(transcript.provider, transcript.bytes, transcript.name, 'acme');

      it('gives the HTTP client exactly the in-process events, reasoning withheld', () => {
        const reply = replies.get(key)!;
        expect(reply.status).toBe(200);
        expect(projectionProblems(reply.events)).toStrictEqual([]);
        expect(canonical(reply.events)).toStrictEqual(canonical(withoutReasoning(expected())));
      });

      it('gives a NATS subscriber on the tenant wildcard the full sequence', async () => {
        const streamId = replies.get(key)!.streamId!;
        const events = await pipeline.acmeEvents.waitForTerminal(streamId);
        expect(sequenceProblems(events)).toStrictEqual([]);
        expect(canonical(events)).toStrictEqual(canonical(expected()));
      });
    },
  );
});
