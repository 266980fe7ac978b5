import { startPipeline, type Pipeline } from './support/pipeline.js';
import { runFault, type FaultReport } from './support/fault-run.js';

const STREAMS = 60;
const RUN = { streams: STREAMS, frames: 100, frameIntervalMs: 30, timeoutMs: 60_000 };
/** How long the paused server stays stopped: the fault itself (shorter than no timeout of the services). */
const PAUSE_MS = 6_000;

/** The figures a run must reach: every stream hit by the fault still keeps every promise. */
function clean(report: FaultReport): Partial<FaultReport> {
  return {
    missingTerminal: 0,
    silentEnds: 0,
    hung: 0,
    wrongOutcome: 0,
    sequenceProblems: 0,
    lostFrames: 0,
    problems: [],
    streams: report.streams,
  };
}

function print(fault: string, report: FaultReport): void {
  const { problems, ...figures } = report;
  process.stdout.write(`nats fault ${fault}: ${JSON.stringify(figures)}\n${problems.slice(0, 20).join('\n')}\n`);
}

/** The services' warnings and errors, one line per distinct message with its count (for a failing run). */
function printServiceTrouble(pipeline: Pipeline): void {
  for (const service of pipeline.services()) {
    const counts = new Map<string, number>();
    for (const line of service.process.lines) {
      if (!/"level":"(warn|error)"/.test(line)) continue;
      const key = line.replace(/"(stream_id|trace_id|ts|time)":"[^"]*",?/g, '').slice(0, 300);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    for (const [line, count] of counts) process.stdout.write(`${service.name} x${String(count)}: ${line}\n`);
  }
}

describe.each([
  ['kill -9, restarted on the same store', false, (pipeline: Pipeline) => async () => {
    await pipeline.nats.kill('SIGKILL');
    await pipeline.nats.restart();
  }],
  ['SIGTERM, restarted on the same store', false, (pipeline: Pipeline) => async () => {
    await pipeline.nats.kill('SIGTERM');
    await pipeline.nats.restart();
  }],
  [`SIGSTOP for ${String(PAUSE_MS / 1000)} s, then SIGCONT`, true, (pipeline: Pipeline) => async () => {
    await pipeline.nats.pause();
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    pipeline.nats.resume();
  }],
] as const)(`a NATS server fault during ${String(STREAMS)} slow streams: %s`, (fault, leavesPingUnanswered, inject) => {
  let pipeline: Pipeline;

  beforeAll(async () => {
    // The shipped lease settings (renewal every 1 s, expiry after 5 s), not the test-friendly 200 ms / 1 s: after
    // a pause or a restart every gateway reconnects on its own schedule, and a lease timeout shorter than that
    // (on a loaded machine) ends healthy streams gateway.lost, which is not what this suite is about.
    pipeline = await startPipeline({ gateways: 2, gatewayEnv: { LEASE_INTERVAL_MS: '1000' }, normalizerEnv: { GATEWAY_LEASE_TIMEOUT_MS: '5000' } });
  });

  afterAll(async () => {
    await pipeline.stop();
  });

  it('costs time, never a frame, an event or a terminal event', async () => {
    const report = await runFault(pipeline, { ...RUN, fault: inject(pipeline) });
    print(fault, report);
    if (report.problems.length > 0) printServiceTrouble(pipeline);
    expect(report.hit).toBeGreaterThanOrEqual(STREAMS);
    expect(report).toMatchObject(clean(report));
    for (const service of pipeline.services()) expect(service.process.exit).toBeUndefined();
    if (leavesPingUnanswered) {
      // Its PING went unanswered for the whole pause: every normalizer says it held every lease from expiring.
      for (const normalizer of pipeline.normalizers) {
        await normalizer.process.waitForLine((line) => line.includes('a round trip to NATS failed or came late'), 10_000);
      }
    }
  }, 180_000);
});
