import type { ContractEvent } from '@llm-stream/contract';
import { readSseStream, waitFor } from '@llm-stream/testing';
import { sequenceProblems, terminalOf } from './event-checks.js';
import { contractEvents, openStream } from './gateway-client.js';
import type { Pipeline } from './pipeline.js';
import { readRawTrace } from './raw-trace.js';
import { registerScenario } from './replay-control.js';

/** One client's view of a stream: its events with their arrival times, and how the response ended. */
export interface FollowedStream {
  readonly streamId: string | undefined;
  readonly status: number;
  readonly events: ContractEvent[];
  readonly arrivals: number[];
  /** The client gave up waiting (no end of the response within the run's timeout). */
  readonly hung: boolean;
  /** When the response ended (ms since the epoch). */
  readonly endedAt: number;
}

/** What one fault run measured. */
export interface FaultReport {
  readonly streams: number;
  /** Streams without a terminal event when the fault began. */
  readonly hit: number;
  /** Clients that got no terminal event (hung, or a response that ended without one). */
  readonly missingTerminal: number;
  /** Responses that ended cleanly without a terminal event. */
  readonly silentEnds: number;
  readonly hung: number;
  /** Streams whose terminal is not the transcript's `stream.done`. */
  readonly wrongOutcome: number;
  /** Streams whose client sequence has a gap, a duplicate or an invariant violation. */
  readonly sequenceProblems: number;
  /** Streams whose stored raw trace lacks a frame the control stream's trace holds, or has a raw_seq gap. */
  readonly lostFrames: number;
  /** Longest time a hit stream's client waited after the fault ended for its next event (ms). */
  readonly recoveryMs: number;
  /** Per stream, what went wrong (empty when all is well). */
  readonly problems: string[];
}

export interface FaultRunOptions {
  readonly streams: number;
  readonly frames: number;
  readonly frameIntervalMs: number;
  /** Give up on a client after this long. */
  readonly timeoutMs: number;
  /** Injects the fault; resolves when it is over (the server answers again). */
  readonly fault: () => Promise<void>;
}

/** Reads one stream to its end (or the timeout), noting when each event arrived. */
export async function follow(gatewayUrl: string, body: unknown, timeoutMs: number): Promise<FollowedStream> {
  const abort = new AbortController();
  const timer = setTimeout(() => {
    abort.abort();
  }, timeoutMs);
  const events: ContractEvent[] = [];
  const arrivals: number[] = [];
  let status = 0;
  let streamId: string | undefined;
  let hung = false;
  try {
    const response = await openStream(gatewayUrl, 'anthropic', body, { signal: abort.signal });
    status = response.status;
    streamId = response.headers.get('x-stream-id') ?? undefined;
    for await (const record of readSseStream(response)) {
      events.push(...contractEvents([record]));
      arrivals.push(Date.now());
    }
  } catch {
    hung = abort.signal.aborted;
  } finally {
    clearTimeout(timer);
  }
  return { streamId, status, events, arrivals, hung, endedAt: Date.now() };
}

function frameCount(records: readonly { kind: string }[]): number {
  return records.filter((record) => record.kind === 'frame').length;
}

/** Problems of one stream's stored raw trace: raw_seq 1..n with no gap, and every frame the control stream had. */
async function traceProblems(pipeline: Pipeline, streamId: string, expectedFrames: number): Promise<string[]> {
  // The test's own reads are retried: on a loaded machine a JetStream request of the test can time out.
  const records = await waitFor(() => readRawTrace(pipeline.nc, pipeline.jsm, 'acme', streamId).catch(() => undefined), {
    timeoutMs: 30_000,
    description: `the raw trace of ${streamId}`,
  });
  const problems: string[] = [];
  const seqs = records.map((record) => record.raw_seq).sort((a, b) => a - b);
  seqs.forEach((seq, index) => {
    if (seq !== index + 1) problems.push(`raw_seq ${String(seq)} at position ${String(index + 1)}`);
  });
  const frames = frameCount(records);
  if (frames !== expectedFrames) problems.push(`${String(frames)} of ${String(expectedFrames)} frames stored`);
  return problems.slice(0, 3);
}

/**
 * Runs `streams` slow synthetic streams (spread over the pipeline's gateways), injects the fault once they are
 * all under way, and reports per stream whether it kept its promises: one terminal event (`stream.done`, as the
 * transcript says), a gapless sequence for its client, and every frame the upstream served in the stored trace.
 */
export async function runFault(pipeline: Pipeline, options: FaultRunOptions): Promise<FaultReport> {
  const scenario = await registerScenario(pipeline.replay.url, {
    responses: [{ synthetic: { frames: options.frames, frame_interval_ms: options.frameIntervalMs } }],
  });
  const body = { model: `scenario:${scenario}`, max_tokens: 64, messages: [] };
  // A control stream without a fault: how many frames a complete trace of this scenario holds.
  const control = await follow(pipeline.gatewayUrl, body, options.timeoutMs);
  if (control.streamId === undefined || terminalOf(control.events)?.type !== 'stream.done') throw new Error('the control stream did not complete');
  const expectedFrames = frameCount(await readRawTrace(pipeline.nc, pipeline.jsm, 'acme', control.streamId));

  const launchedAt = Date.now();
  const followed = Array.from({ length: options.streams }, (_unused, n) =>
    follow(pipeline.gateways[n % pipeline.gateways.length]!.url, body, options.timeoutMs),
  );
  // Under way: every stream's client has its first text delta (the upstream is serving all of them).
  await waitForStarted(pipeline, options.streams, launchedAt);
  const faultStart = Date.now();
  await options.fault();
  const faultEnd = Date.now();
  const results = await Promise.all(followed);

  const problems: string[] = [];
  let hit = 0;
  let missingTerminal = 0;
  let silentEnds = 0;
  let hung = 0;
  let wrongOutcome = 0;
  let withSequenceProblems = 0;
  let lostFrames = 0;
  let recoveryMs = 0;
  for (const stream of results) {
    const id = stream.streamId ?? `status ${String(stream.status)}`;
    const terminalIndex = stream.events.findIndex((event) => event.type === 'stream.done' || event.type === 'stream.error');
    const endedBeforeFault = terminalIndex >= 0 && stream.arrivals[terminalIndex]! < faultStart;
    if (!endedBeforeFault) hit += 1;
    const firstAfter = stream.arrivals.find((at) => at >= faultEnd);
    if (!endedBeforeFault && firstAfter !== undefined) recoveryMs = Math.max(recoveryMs, firstAfter - faultEnd);
    const terminal = terminalOf(stream.events);
    if (stream.hung) hung += 1;
    if (terminal === undefined) {
      missingTerminal += 1;
      if (!stream.hung) silentEnds += 1;
      problems.push(`${id}: no terminal event after ${String(stream.events.length)} events${stream.hung ? ' (client hung)' : ' (clean end)'}`);
    } else if (terminal.type !== 'stream.done') {
      wrongOutcome += 1;
      problems.push(`${id}: ended ${JSON.stringify(terminal)}`);
    }
    const sequence = terminal === undefined ? [] : sequenceProblems(stream.events);
    if (sequence.length > 0) {
      withSequenceProblems += 1;
      problems.push(`${id}: ${sequence.slice(0, 3).join('; ')}`);
    }
    if (stream.streamId !== undefined) {
      const trace = await traceProblems(pipeline, stream.streamId, expectedFrames);
      if (trace.length > 0) {
        lostFrames += 1;
        problems.push(`${id}: ${trace.join('; ')}`);
      }
    }
  }
  return {
    streams: options.streams,
    hit,
    missingTerminal,
    silentEnds,
    hung,
    wrongOutcome,
    sequenceProblems: withSequenceProblems,
    lostFrames,
    recoveryMs,
    problems,
  };
}

/** Waits until `count` streams of tenant acme have a stored text delta received after `since`. */
async function waitForStarted(pipeline: Pipeline, count: number, since: number): Promise<void> {
  const log = pipeline.acmeEvents;
  await waitFor(
    () => log.streamIds().filter((id) => log.events(id).some((event) => event.type === 'block.delta' && event.ts >= since)).length >= count,
    { timeoutMs: 30_000, description: `${String(count)} streams to be under way` },
  );
}
