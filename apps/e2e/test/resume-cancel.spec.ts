import { request } from 'node:http';
import { isTerminalEvent, type ContractEvent } from '@llm-stream/contract';
import { collectSse, readSseStream, waitFor } from '@llm-stream/testing';
import { projectionProblems, sequenceProblems, terminalOf, withoutReasoning } from './support/event-checks.js';
import { authHeaders, cancelStream, contractEvents, openStream, postStream, readUntil, resumeStream } from './support/gateway-client.js';
import { startPipeline, type Pipeline } from './support/pipeline.js';
import { registerScenario, scenarioRequests } from './support/replay-control.js';

/** Sends a stream request and closes the connection as soon as the body is written. */
function hangUpRightAfterSending(gatewayUrl: string, body: unknown): Promise<void> {
  return new Promise((resolve) => {
    const payload = JSON.stringify(body);
    const outgoing = request(new URL('/v1/streams/anthropic', gatewayUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...authHeaders('acme') },
    });
    outgoing.on('error', () => undefined);
    outgoing.end(payload, () => {
      outgoing.destroy();
      resolve();
    });
  });
}

function startModel(event: ContractEvent): string | undefined {
  return event.type === 'stream.start' ? event.model : undefined;
}

/** A provider answer that takes a while: `frames` text deltas, one every `intervalMs`. */
const slow = (frames: number, intervalMs: number): unknown => ({ synthetic: { frames, frame_interval_ms: intervalMs } });

describe('resume, disconnect and cancel', () => {
  let pipeline: Pipeline;
  let gatewayB: string;

  beforeAll(async () => {
    pipeline = await startPipeline({ gateways: 2, gatewayEnv: { CLIENT_GRACE_MS: '1000' } });
    gatewayB = pipeline.gateways[1]!.url;
  });

  afterAll(async () => {
    await pipeline.stop();
  });

  /** Starts a stream on the first gateway and reads it until `until`; the caller decides what happens next. */
  async function startReading(
    responses: readonly unknown[],
    until: (event: ContractEvent) => boolean,
    key: 'acme' | 'acmeReasoning' = 'acme',
  ) {
    const scenario = await registerScenario(pipeline.replay.url, { responses });
    const abort = new AbortController();
    const response = await openStream(
      pipeline.gatewayUrl,
      'anthropic',
      { model: `scenario:${scenario}`, max_tokens: 64, messages: [] },
      { signal: abort.signal, key },
    );
    expect(response.status).toBe(200);
    const streamId = response.headers.get('x-stream-id')!;
    const records = readSseStream(response);
    const seen = await readUntil(records, until);
    return { scenario, streamId, seen, records, abort };
  }

  describe('Last-Event-ID', () => {
    it('gives exactly the rest of a finished stream, from any event', async () => {
      const reply = await postStream(pipeline.gatewayUrl, 'anthropic', { model: 'multi_block', max_tokens: 64, messages: [] });
      const all = reply.events;
      expect(terminalOf(all)).toBeDefined();
      for (const after of [0, 1, Math.floor(all.length / 2), all.length - 1, all.length]) {
        const rest = await resumeStream(pipeline.gatewayUrl, reply.streamId!, after);
        expect(rest.status).toBe(200);
        expect(rest.events).toStrictEqual(all.filter((event) => event.seq > after));
      }
      // `?after=` is the same for clients that cannot set headers; no id at all is the whole stream.
      expect((await resumeStream(pipeline.gatewayUrl, reply.streamId!, undefined, { query: { after: '3' } })).events).toStrictEqual(
        all.slice(3),
      );
      expect((await resumeStream(gatewayB, reply.streamId!, undefined)).events).toStrictEqual(all);
    });

    it('applies the key projection to a resume too: reasoning only for a key that may see it', async () => {
      const full = await postStream(
        pipeline.gatewayUrl,
        'anthropic',
        { model: 'reasoning', max_tokens: 64, messages: [] },
        { key: 'acmeReasoning' },
      );
      expect(full.events.some((event) => 'block' in event && event.block.kind === 'reasoning')).toBe(true);
      expect(sequenceProblems(full.events)).toStrictEqual([]);
      const projected = await resumeStream(gatewayB, full.streamId!, 0);
      expect(projectionProblems(projected.events)).toStrictEqual([]);
      expect(projected.events).toStrictEqual(withoutReasoning(full.events));
    });
  });

  describe('a client that disconnects', () => {
    it.each([
      ['the same gateway', () => pipeline.gatewayUrl],
      ['another gateway', () => gatewayB],
    ])('can resume within the grace period on %s and gets the rest exactly; the stream is not cancelled', async (_where, gateway) => {
      const { streamId, seen, abort } = await startReading([slow(40, 40)], (event) => event.type === 'block.delta');
      abort.abort();
      const lastSeen = seen.at(-1)!.seq;
      const rest = await resumeStream(gateway(), streamId, lastSeen, { timeoutMs: 20_000 });
      expect(terminalOf(rest.events)).toMatchObject({ type: 'stream.done' });
      const all = await pipeline.acmeEvents.waitForTerminal(streamId);
      expect(sequenceProblems(all)).toStrictEqual([]);
      expect([...seen, ...rest.events]).toStrictEqual(all);
    });

    it('is not cancelled at once, and after the grace period without a reader the upstream is aborted: client_cancelled', async () => {
      const { scenario, streamId, seen, abort } = await startReading([slow(400, 25)], (event) => event.type === 'block.delta');
      abort.abort();
      const all = await pipeline.acmeEvents.waitForTerminal(streamId);
      expect(sequenceProblems(all)).toStrictEqual([]);
      expect(terminalOf(all)).toMatchObject({
        type: 'stream.error',
        status: 'interrupted',
        error: { category: 'client_cancelled', message: 'the client disconnected and did not come back within the grace period' },
      });
      // The stream went on while nobody read it (the upstream kept delivering), then was cancelled.
      const deltas = (events: readonly ContractEvent[]): number => events.filter((event) => event.type === 'block.delta').length;
      expect(deltas(all)).toBeGreaterThan(deltas(seen) + 5);
      const upstream = await waitFor(
        async () => {
          const requests = await scenarioRequests(pipeline.replay.url, scenario);
          return requests.every((request) => request.client_aborted) && requests;
        },
        { description: 'the upstream request to be aborted' },
      );
      expect(upstream).toMatchObject([{ client_aborted: true, finished_at: null }]);
    });
  });

  it('treats a client that hangs up while its stream is being opened as one that disconnected', async () => {
    const scenario = await registerScenario(pipeline.replay.url, { responses: [slow(400, 25)] });
    const model = `scenario:${scenario}`;
    await hangUpRightAfterSending(pipeline.gatewayUrl, { model, max_tokens: 64, messages: [] });
    const streamId = await waitFor(
      () =>
        pipeline.acmeEvents
          .streamIds()
          .find(
            (id) => pipeline.acmeEvents.events(id)[0]?.type === 'stream.start' && startModel(pipeline.acmeEvents.events(id)[0]!) === model,
          ),
      { description: 'the stream to start' },
    );
    expect(terminalOf(await pipeline.acmeEvents.waitForTerminal(streamId))).toMatchObject({
      type: 'stream.error',
      error: { category: 'client_cancelled', message: 'the client disconnected and did not come back within the grace period' },
    });
  });

  describe('DELETE', () => {
    it('cancels a live stream: the upstream request is aborted, the readers see interrupted client_cancelled', async () => {
      const { scenario, streamId, records } = await startReading([slow(400, 25)], (event) => event.type === 'block.delta');
      expect(await cancelStream(pipeline.gatewayUrl, streamId, { key: 'globex' })).toMatchObject({ status: 404 });
      // Through the other gateway: the cancel travels over NATS to the one holding the upstream.
      expect(await cancelStream(gatewayB, streamId)).toStrictEqual({ status: 202, json: { stream_id: streamId, status: 'cancelling' } });
      const rest = await readUntil(records, isTerminalEvent);
      expect(terminalOf(rest)).toMatchObject({
        type: 'stream.error',
        status: 'interrupted',
        error: { category: 'client_cancelled', message: 'the client cancelled the stream' },
      });
      expect(sequenceProblems(await pipeline.acmeEvents.waitForTerminal(streamId))).toStrictEqual([]);
      const upstream = await waitFor(
        async () => {
          const requests = await scenarioRequests(pipeline.replay.url, scenario);
          return requests.every((request) => request.client_aborted) && requests;
        },
        { description: 'the upstream request to be aborted' },
      );
      expect(upstream).toMatchObject([{ client_aborted: true, finished_at: null }]);
    });

    it('answers 409 for a stream that has ended and 404 for one that never existed', async () => {
      const reply = await postStream(pipeline.gatewayUrl, 'anthropic', { model: 'simple_text', max_tokens: 64, messages: [] });
      expect(await cancelStream(pipeline.gatewayUrl, reply.streamId!)).toMatchObject({
        status: 409,
        json: { error: { code: 'already_ended' } },
      });
      expect(await cancelStream(gatewayB, reply.streamId!)).toMatchObject({ status: 409, json: { error: { code: 'already_ended' } } });
      expect(await cancelStream(pipeline.gatewayUrl, 'st_00000000000000000000000000')).toMatchObject({ status: 404 });
    });
  });

  // Last: it replaces the suite's normalizer.
  it('lets a client resume a stream accepted while no normalizer runs; its events come once one starts', async () => {
    expect(await pipeline.normalizers[0]!.process.stop('SIGTERM', 10_000)).toBeDefined();
    const abort = new AbortController();
    const first = await openStream(
      pipeline.gatewayUrl,
      'anthropic',
      { model: 'multi_block', max_tokens: 64, messages: [] },
      { signal: abort.signal },
    );
    const streamId = first.headers.get('x-stream-id')!;
    abort.abort();
    const resumed = await fetch(new URL(`/v1/streams/${streamId}/events`, gatewayB), { headers: authHeaders('acme') });
    expect(resumed.status).toBe(200);
    await pipeline.addNormalizer();
    const events = contractEvents(await collectSse(resumed, { timeoutMs: 20_000 }));
    expect(terminalOf(events)).toMatchObject({ type: 'stream.done' });
    expect(events).toStrictEqual(await pipeline.acmeEvents.waitForTerminal(streamId));
  });
});
