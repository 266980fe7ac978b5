import { decodeReaderNotice, isTerminalEvent, readerSubject, type ContractEvent } from '@llm-stream/contract';
import { waitFor } from '@llm-stream/testing';
import { terminalOf } from './support/event-checks.js';
import { cancelStream, openStream, postStream, readSseStream, readUntil, resumeStream } from './support/gateway-client.js';
import { startPipeline, type Pipeline } from './support/pipeline.js';
import { registerScenario } from './support/replay-control.js';

const BEYOND_END = { status: 400, events: [], json: { error: { code: 'beyond_end' } } };

/** Resuming with a Last-Event-ID beyond the stream's last event: never a clean end with nothing. */
describe('resume past the end', () => {
  let pipeline: Pipeline;
  let gatewayB: string;

  beforeAll(async () => {
    pipeline = await startPipeline({ gateways: 2 });
    gatewayB = pipeline.gateways[1]!.url;
  });

  afterAll(async () => {
    await pipeline.stop();
  });

  /** A live stream on the first gateway, read to its first delta: `frames` text deltas `intervalMs` apart. */
  async function liveStream(frames: number, intervalMs: number) {
    const scenario = await registerScenario(pipeline.replay.url, { responses: [{ synthetic: { frames, frame_interval_ms: intervalMs } }] });
    const abort = new AbortController();
    const response = await openStream(pipeline.gatewayUrl, 'anthropic', { model: `scenario:${scenario}`, max_tokens: 64, messages: [] }, { signal: abort.signal });
    expect(response.status).toBe(200);
    const records = readSseStream(response)[Symbol.asyncIterator]();
    const seen = await readUntil(records, (event) => event.type === 'block.delta');
    return { streamId: response.headers.get('x-stream-id')!, seen, records, abort };
  }

  it("answers 400 beyond_end to an id past an ended stream's terminal event, on any gateway; at the terminal's own seq, 200 with nothing after it", async () => {
    const reply = await postStream(pipeline.gatewayUrl, 'anthropic', { model: 'multi_block', max_tokens: 64, messages: [] });
    const terminal = terminalOf(reply.events)!;
    expect(terminal).toBeDefined();
    for (const gateway of [pipeline.gatewayUrl, gatewayB]) {
      for (const after of [terminal.seq + 1, 1_000]) {
        expect(await resumeStream(gateway, reply.streamId!, after)).toMatchObject(BEYOND_END);
      }
      expect(await resumeStream(gateway, reply.streamId!, undefined, { query: { after: String(terminal.seq + 1) } })).toMatchObject(BEYOND_END);
      expect(await resumeStream(gateway, reply.streamId!, terminal.seq)).toMatchObject({ status: 200, events: [] });
    }
  });

  it('waits, on a live stream, for the events above an id the log has not reached yet', async () => {
    const { streamId, seen, abort } = await liveStream(40, 50);
    try {
      const after = seen.at(-1)!.seq + 20;
      const rest = await resumeStream(gatewayB, streamId, after);
      expect(rest.status).toBe(200);
      const all = await pipeline.acmeEvents.waitForTerminal(streamId);
      expect(rest.events).toStrictEqual(all.filter((event) => event.seq > after));
      expect(terminalOf(rest.events)).toMatchObject({ type: 'stream.done' });
    } finally {
      abort.abort();
    }
  });

  it('tells a resume waiting on a live stream that the stream ended below its id: 400 beyond_end, not a clean end with nothing', async () => {
    const { streamId, records, abort } = await liveStream(400, 25);
    const notices: string[] = [];
    const subscription = pipeline.nc.subscribe(readerSubject(streamId), {
      callback: (_error, message) => {
        notices.push(message.string());
      },
    });
    try {
      await pipeline.nc.flush();
      // The other gateway follows the stream for this resume: it tells the owner a reader attached.
      const resumed = resumeStream(gatewayB, streamId, 100_000);
      await waitFor(() => notices.some((notice) => decodeReaderNotice(notice).ok && notice.includes('"attach"')), {
        description: 'the resume to attach as a reader of the live stream',
      });
      expect(await cancelStream(pipeline.gatewayUrl, streamId)).toMatchObject({ status: 202 });
      const rest: ContractEvent[] = await readUntil(records, isTerminalEvent);
      expect(terminalOf(rest)!.seq).toBeLessThan(100_000);
      expect(await resumed).toMatchObject(BEYOND_END);
    } finally {
      subscription.unsubscribe();
      abort.abort();
    }
  });
});
