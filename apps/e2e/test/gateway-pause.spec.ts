import { isDeepStrictEqual } from 'node:util';
import { waitFor } from '@llm-stream/testing';
import { terminalOf } from './support/event-checks.js';
import { startPipeline, type Pipeline } from './support/pipeline.js';
import { follow, runFault } from './support/fault-run.js';
import { registerScenario } from './support/replay-control.js';

const STREAMS = 40;
const LEASE_TIMEOUT_MS = 3_000;
/** Shorter than the lease timeout: the gateway is slow (stopped), not gone. */
const PAUSE_MS = 2_000;
/** Half the default: the pause leaves a gap of more than two intervals in the renewals the server heard. */
const LEASE_INTERVAL_MS = 500;
const FENCED = 'the records after the gap were sent fenced';

describe(`a gateway stopped (SIGSTOP) for ${String(PAUSE_MS / 1000)} s, less than the ${String(LEASE_TIMEOUT_MS / 1000)} s lease timeout`, () => {
  let pipeline: Pipeline;

  beforeAll(async () => {
    pipeline = await startPipeline({
      gateways: 2,
      gatewayEnv: { LEASE_INTERVAL_MS: String(LEASE_INTERVAL_MS) },
      normalizerEnv: { GATEWAY_LEASE_TIMEOUT_MS: String(LEASE_TIMEOUT_MS) },
    });
  });

  afterAll(async () => {
    await pipeline.stop();
  });

  it('is not declared lost: every stream of both gateways completes, gapless, with every frame stored', async () => {
    const paused = pipeline.gateways[0]!;
    const report = await runFault(pipeline, {
      streams: STREAMS,
      frames: 100,
      frameIntervalMs: 30,
      timeoutMs: 60_000,
      fault: async () => {
        process.kill(paused.process.pid, 'SIGSTOP');
        await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
        process.kill(paused.process.pid, 'SIGCONT');
      },
    });
    const { problems, ...figures } = report;
    process.stdout.write(`gateway pause: ${JSON.stringify(figures)}\n${problems.slice(0, 10).join('\n')}\n`);
    expect(report.hit).toBe(STREAMS);
    expect(report).toMatchObject({ missingTerminal: 0, wrongOutcome: 0, sequenceProblems: 0, lostFrames: 0, problems: [] });
    for (const normalizer of pipeline.normalizers) {
      expect(normalizer.process.lines.filter((line) => line.includes('gateway lease expired'))).toStrictEqual([]);
    }
    // The paused gateway's lease went unheard for longer than two intervals: a normalizer could have appended
    // gateway.lost, so its open streams sent their next record fenced (the fence held: nobody had). The other
    // gateway's lease was heard throughout. (Waited for: a gateway's stdout can trail what the streams showed.)
    await pipeline.gateways[0]!.process.waitForLine((line) => line.includes(FENCED), 10_000);
    expect(pipeline.gateways[1]!.process.lines.filter((line) => line.includes(FENCED))).toStrictEqual([]);
  }, 120_000);
});

describe(`a gateway stopped (SIGSTOP) for longer than the ${String(LEASE_TIMEOUT_MS / 1000)} s lease timeout`, () => {
  let pipeline: Pipeline;

  beforeAll(async () => {
    pipeline = await startPipeline({
      gatewayEnv: { LEASE_INTERVAL_MS: String(LEASE_INTERVAL_MS) },
      normalizerEnv: { GATEWAY_LEASE_TIMEOUT_MS: String(LEASE_TIMEOUT_MS) },
    });
  });

  afterAll(async () => {
    await pipeline.stop();
  });

  it('is declared lost, and once it runs again its clients get exactly what the log holds: the events it released, then the log\'s end', async () => {
    const gateway = pipeline.gateways[0]!;
    const scenario = await registerScenario(pipeline.replay.url, { responses: [{ synthetic: { frames: 200, frame_interval_ms: 30 } }] });
    const body = { model: `scenario:${scenario}`, max_tokens: 64, messages: [] };
    const launchedAt = Date.now();
    const followed = Array.from({ length: 10 }, () => follow(gateway.url, body, 60_000));
    await waitFor(
      () => pipeline.acmeEvents.streamIds().filter((id) => pipeline.acmeEvents.events(id).some((event) => event.type === 'block.delta' && event.ts >= launchedAt)).length >= 10,
      { timeoutMs: 30_000, description: '10 streams to be under way' },
    );
    process.kill(gateway.process.pid, 'SIGSTOP');
    await waitFor(() => pipeline.normalizers.some((normalizer) => normalizer.process.lines.some((line) => line.includes('gateway lease expired'))), {
      timeoutMs: 20_000,
      description: 'a normalizer to declare the gateway lost',
    });
    process.kill(gateway.process.pid, 'SIGCONT');
    const streams = await Promise.all(followed);
    for (const stream of streams) {
      // Declared lost (transport_interrupted), or judged alive again in time and ended by its own session: either
      // way with a terminal event, and the log's.
      expect(terminalOf(stream.events)).toBeDefined();
      const logged = await waitFor(
        () => {
          const events = pipeline.acmeEvents.events(stream.streamId!);
          return terminalOf(events) === undefined ? undefined : events;
        },
        { timeoutMs: 20_000, description: `the log's end of ${String(stream.streamId)}` },
      );
      // Every event the client got is the log's event at its seq, the terminal one included.
      for (const event of stream.events) expect(isDeepStrictEqual(event, logged.find((each) => each.seq === event.seq))).toBe(true);
      expect(stream.events.map((event) => event.seq)).toEqual(logged.map((event) => event.seq).slice(0, stream.events.length));
    }
    // The gateway logs the refused fence before it serves the log's end, but its stdout reaches this process on
    // another pipe than the clients' responses, so the line may come after the last response: waited for, not read.
    await gateway.process.waitForLine((line) => line.includes('its client is served from the log'), 10_000);
  }, 120_000);
});
