import { ADAPTERS_BUILD } from '@llm-stream/adapters';
import { NORMALIZER_PRESENCE_INTERVAL_MS, encodeNormalizerPresence, isTerminalEvent, normalizerPresenceSubject, type ContractEvent } from '@llm-stream/contract';
import { waitFor } from '@llm-stream/testing';
import { contractEvents, openStream, readSseStream } from './support/gateway-client.js';
import { startPipeline, type Pipeline } from './support/pipeline.js';
import { readRawTrace } from './support/raw-trace.js';
import { registerScenario } from './support/replay-control.js';

const OTHER_BUILD_HEARD = 'a normalizer replica runs another adapters build';

/** A stream of a few frames, read by its creating client until the end of the response. */
async function createAndRead(pipeline: Pipeline): Promise<{ streamId: string; events: ContractEvent[]; done: Promise<void> }> {
  const scenario = await registerScenario(pipeline.replay.url, { responses: [{ synthetic: { frames: 20, frame_interval_ms: 5 } }] });
  const response = await openStream(pipeline.gatewayUrl, 'anthropic', { model: `scenario:${scenario}`, max_tokens: 64, messages: [] });
  expect(response.status).toBe(200);
  const streamId = response.headers.get('x-stream-id') ?? '';
  const events: ContractEvent[] = [];
  const done = (async () => {
    for await (const record of readSseStream(response)) events.push(...contractEvents([record]));
  })();
  return { streamId, events, done };
}

/** Until the gateway has stored the stream's whole raw trace (its upstream ended): what its session needs. */
async function waitForWholeTrace(pipeline: Pipeline, streamId: string): Promise<void> {
  await waitFor(async () => (await readRawTrace(pipeline.nc, pipeline.jsm, 'acme', streamId)).some((record) => record.kind === 'attempt.end'), {
    timeoutMs: 15_000,
    description: `the raw trace of ${streamId} to end`,
  });
}

/**
 * A rolling upgrade: a normalizer replica of another adapters build runs beside this gateway. While it does,
 * the gateway's own session may compute other events than the log will hold, so the gateway serves its clients
 * from the log; once that replica is gone, from its own session again. No normalizer runs at first, so which
 * copy the client got shows plainly: the log has nothing until a normalizer stores it, the session does.
 */
describe('a gateway beside a normalizer of another adapters build', () => {
  let pipeline: Pipeline;
  let announcing: NodeJS.Timeout | undefined;

  beforeAll(async () => {
    pipeline = await startPipeline({ normalizers: 0 });
  });

  afterAll(async () => {
    clearInterval(announcing);
    await pipeline.stop();
  });

  it('serves its client from the stored log while that replica runs, and from its own session once it is gone', async () => {
    const gateway = pipeline.gateways[0]!;
    const announce = (): void => {
      pipeline.nc.publish(normalizerPresenceSubject('nz-otherbuild'), encodeNormalizerPresence({ adapters: ADAPTERS_BUILD + 1 }));
    };
    announce();
    announcing = setInterval(announce, NORMALIZER_PRESENCE_INTERVAL_MS);
    await gateway.process.waitForLine(new RegExp(OTHER_BUILD_HEARD), 10_000);

    const fromLog = await createAndRead(pipeline);
    await waitForWholeTrace(pipeline, fromLog.streamId);
    // The session derived every event by now; none reached the client, which reads the (empty) log.
    expect(fromLog.events).toStrictEqual([]);
    const normalizer = await pipeline.addNormalizer();
    await fromLog.done;
    expect(fromLog.events.at(-1)).toMatchObject({ type: 'stream.done' });
    expect(fromLog.events).toStrictEqual(await pipeline.acmeEvents.waitForTerminal(fromLog.streamId));

    // The replica of the other build goes away: forgotten after three silent intervals; then no normalizer
    // runs, and the client is served all the same, from the gateway's own session.
    clearInterval(announcing);
    await normalizer.process.stop();
    // Waits out the protocol's own timeout (three silent intervals), not a race.
    await new Promise((resolve) => setTimeout(resolve, 3 * NORMALIZER_PRESENCE_INTERVAL_MS + 500));
    const fromSession = await createAndRead(pipeline);
    await fromSession.done;
    expect(fromSession.events.filter(isTerminalEvent)).toHaveLength(1);
    expect(fromSession.events.at(-1)).toMatchObject({ type: 'stream.done' });
    expect(pipeline.acmeEvents.events(fromSession.streamId)).toStrictEqual([]);
  }, 90_000);
});
