import type { ContractEvent } from '@llm-stream/contract';
import { collectSse, getFreePort } from '@llm-stream/testing';
import { canonical, normalizedInProcess, sequenceProblems, terminalOf, textOf } from './support/event-checks.js';
import { contractEvents, postPaused, postStream } from './support/gateway-client.js';
import { startPipeline, type Pipeline } from './support/pipeline.js';
import { readRawTrace, traceOutline } from './support/raw-trace.js';
import { registerScenario, scenarioRequests } from './support/replay-control.js';
import { LONG_TEXT_CASE, offsetInsideRecord, transcriptBytes } from './support/transcripts.js';

const anthropicBody = (model: string): Record<string, unknown> => ({ model, max_tokens: 256, messages: [{ role: 'user', content: 'Hi' }] });
const openAiChatBody = (model: string): Record<string, unknown> => ({ model, messages: [{ role: 'user', content: 'Hi' }] });

/** The error message of an interruption says what the transport did, which differs from a file's clean end. */
function withoutErrorMessage(events: readonly ContractEvent[]): unknown[] {
  return canonical(events).map((event) => {
    const record = event as { error?: Record<string, unknown> };
    return record.error === undefined ? event : { ...record, error: { ...record.error, message: '<message>' } };
  });
}

describe('upstream faults through the whole pipeline', () => {
  let pipeline: Pipeline;

  beforeAll(async () => {
    pipeline = await startPipeline({
      gatewayEnv: { UPSTREAM_IDLE_TIMEOUT_MS: '1000', UPSTREAM_PROGRESS_TIMEOUT_MS: '1500', RETRY_MAX_DELAY_MS: '5000' },
    });
  });

  afterAll(async () => {
    await pipeline.stop();
  });

  /** Posts to a scenario; returns the reply, the scenario's requests and the stream's full sequence on NATS. */
  async function run(responses: readonly unknown[], provider: 'anthropic' | 'openai-chat' = 'anthropic') {
    const scenario = await registerScenario(pipeline.replay.url, { responses });
    const model = `scenario:${scenario}`;
    const reply = await postStream(pipeline.gatewayUrl, provider, provider === 'anthropic' ? anthropicBody(model) : openAiChatBody(model));
    expect(reply.status).toBe(200);
    const onNats = await pipeline.acmeEvents.waitForTerminal(reply.streamId!);
    expect(sequenceProblems(onNats)).toStrictEqual([]);
    return { model, reply, onNats, requests: await scenarioRequests(pipeline.replay.url, scenario) };
  }

  describe('a cut of the upstream connection', () => {
    it.each([
      ['mid-text', 'anthropic', 'simple_text', '"text_delta"', 3],
      ['mid-tool-arguments', 'anthropic', 'tool_fragmented_json', '"input_json_delta"', 4],
      ['mid-tool-arguments', 'openai-chat', 'tool_fragmented_json', '"arguments":"', 4],
    ] as const)(
      '%s (%s %s) ends interrupted, never done, with every delta received before it',
      async (_where, provider, caseName, marker, occurrence) => {
        const body = transcriptBytes(pipeline.transcriptsDir, provider, caseName);
        const cut = offsetInsideRecord(body, marker, occurrence);
        const { model, reply, onNats, requests } = await run([{ transcript: caseName, cut_after_bytes: cut }], provider);
        const expected = normalizedInProcess(provider, body.subarray(0, cut), model, 'acme');
        expect(withoutErrorMessage(reply.events)).toStrictEqual(withoutErrorMessage(expected));
        expect(withoutErrorMessage(onNats)).toStrictEqual(withoutErrorMessage(expected));
        expect(reply.events.some((event) => event.type === 'stream.done')).toBe(false);
        expect(terminalOf(reply.events)).toMatchObject({
          type: 'stream.error',
          status: 'interrupted',
          error: { category: 'transport_interrupted' },
        });
        // After the first visible delta there is no retry.
        expect(requests).toHaveLength(1);
      },
    );

    it('loses no byte for a client that reads nothing until the stream has ended', async () => {
      const body = transcriptBytes(pipeline.transcriptsDir, 'anthropic', LONG_TEXT_CASE);
      const cut = offsetInsideRecord(body, '"text_delta"', 4_000);
      const scenario = await registerScenario(pipeline.replay.url, {
        responses: [{ transcript: LONG_TEXT_CASE, cut_after_bytes: cut, chunk_bytes: 65_536 }],
      });
      const model = `scenario:${scenario}`;
      const response = await postPaused(pipeline.gatewayUrl, 'anthropic', anthropicBody(model));
      const streamId = String(response.headers['x-stream-id']);
      // The client has not read a byte while the upstream delivered megabytes and was cut.
      const onNats = await pipeline.acmeEvents.waitForTerminal(streamId, 30_000);
      const events = contractEvents(await collectSse(response, { timeoutMs: 30_000 }));

      const expected = normalizedInProcess('anthropic', body.subarray(0, cut), model, 'acme');
      expect(events.length).toBeGreaterThan(4_000);
      expect(withoutErrorMessage(events)).toStrictEqual(withoutErrorMessage(expected));
      expect(events).toStrictEqual(onNats);
      expect(textOf(events)).toBe(textOf(expected));
      // The raw trace holds the exact bytes received before the cut, the trailing partial record included.
      const trace = await readRawTrace(pipeline.nc, pipeline.jsm, 'acme', streamId);
      const received = trace.map((record) => (record.kind === 'frame' ? record.text : '')).join('');
      expect(received).toBe(body.subarray(0, cut).toString('utf8'));
      expect(trace.filter((record) => record.kind === 'frame').at(-1)).toMatchObject({ partial: true });
    });
  });

  it('fails a stream whose provider sends an SSE record larger than MAX_FRAME_BYTES (protocol_error, not retried)', async () => {
    const gateway = await pipeline.addGateway({ MAX_FRAME_BYTES: '1024' });
    const scenario = await registerScenario(pipeline.replay.url, {
      responses: [{ synthetic: { frames: 3, frame_interval_ms: 0, text_bytes: 4_000 } }],
    });
    const reply = await postStream(gateway.url, 'anthropic', anthropicBody(`scenario:${scenario}`));
    expect(sequenceProblems(reply.events)).toStrictEqual([]);
    expect(terminalOf(reply.events)).toMatchObject({
      type: 'stream.error',
      status: 'failed',
      error: { category: 'protocol_error', retryable: false },
    });
    expect(reply.events.some((event) => event.type === 'block.delta')).toBe(false);
    expect(await scenarioRequests(pipeline.replay.url, scenario)).toHaveLength(1);
  });

  describe('timeouts', () => {
    it('ends a stream whose upstream only pings with timeout (pings are not progress)', async () => {
      const { reply, requests } = await run([{ transcript: 'simple_text', stall_after_frames: 4, stall_ping_interval_ms: 100 }]);
      expect(terminalOf(reply.events)).toMatchObject({ type: 'stream.error', status: 'interrupted', error: { category: 'timeout' } });
      expect(reply.events.filter((event) => event.type === 'block.delta')).toHaveLength(1);
      expect(requests).toMatchObject([{ client_aborted: true }]);
    });

    it('sends heartbeats while the upstream only pings, and they do not extend the progress timeout either', async () => {
      const gateway = await pipeline.addGateway({ HEARTBEAT_INTERVAL_MS: '300' });
      const scenario = await registerScenario(pipeline.replay.url, {
        responses: [{ transcript: 'simple_text', stall_after_frames: 4, stall_ping_interval_ms: 100 }],
      });
      const reply = await postStream(gateway.url, 'anthropic', anthropicBody(`scenario:${scenario}`));
      expect(reply.events.filter((event) => event.type === 'stream.heartbeat').length).toBeGreaterThanOrEqual(2);
      expect(terminalOf(reply.events)).toMatchObject({ type: 'stream.error', status: 'interrupted', error: { category: 'timeout' } });
      expect(sequenceProblems(reply.events)).toStrictEqual([]);
    });

    it('ends a stream whose upstream sends nothing more with timeout (transport idle)', async () => {
      const { reply, requests } = await run([{ transcript: 'simple_text', stall_after_frames: 4, stall_ping_interval_ms: 60_000 }]);
      expect(terminalOf(reply.events)).toMatchObject({ type: 'stream.error', status: 'interrupted', error: { category: 'timeout' } });
      expect(requests).toMatchObject([{ client_aborted: true }]);
    });
  });

  describe('retries before the first visible delta', () => {
    it('retries an HTTP 429 after its Retry-After and gives one clean stream; each attempt stays in the raw trace', async () => {
      const rateLimited = {
        status: 429,
        retry_after: 1,
        body: {
          type: 'error',
          error: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit' },
        },
      };
      const { model, reply, onNats, requests } = await run([rateLimited, { transcript: 'simple_text' }]);
      const expected = normalizedInProcess(
        'anthropic',
        transcriptBytes(pipeline.transcriptsDir, 'anthropic', 'simple_text'),
        model,
        'acme',
      );
      expect(canonical(reply.events)).toStrictEqual(canonical(expected));
      expect(canonical(onNats)).toStrictEqual(canonical(expected));
      expect(requests.map((request) => request.status)).toStrictEqual([429, 200]);
      // Retry-After: 1 was honored (both times are the provider's own clock).
      expect(requests[1]!.started_at - requests[0]!.finished_at!).toBeGreaterThanOrEqual(995);
      const trace = await readRawTrace(pipeline.nc, pipeline.jsm, 'acme', reply.streamId!);
      expect(traceOutline(trace)).toStrictEqual([
        'stream.open',
        'attempt.start#1',
        'upstream.response#1:429',
        'attempt.end#1:eof',
        'attempt.start#2',
        'upstream.response#2:200',
        'frame#2',
        'attempt.end#2:eof',
      ]);
    });

    it.each([
      ['an overloaded_error event', { transcript: 'overloaded_before_first_block' }],
      ['a connection closed before any byte', { transcript: 'simple_text', cut_after_bytes: 0 }],
      ['an HTTP 529', { status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } }],
    ])('retries %s and gives one clean stream', async (_what, failure) => {
      const { model, reply, requests } = await run([failure, { transcript: 'simple_text' }]);
      const expected = normalizedInProcess(
        'anthropic',
        transcriptBytes(pipeline.transcriptsDir, 'anthropic', 'simple_text'),
        model,
        'acme',
      );
      expect(canonical(reply.events)).toStrictEqual(canonical(expected));
      expect(requests).toHaveLength(2);
    });

    it('retries a provider that refuses connections, then ends interrupted (transport_interrupted), never done', async () => {
      const closedPort = await getFreePort();
      const gateway = await pipeline.addGateway({ ANTHROPIC_BASE_URL: `http://127.0.0.1:${String(closedPort)}` });
      const reply = await postStream(gateway.url, 'anthropic', anthropicBody('simple_text'));
      expect(reply.events.map((event) => event.type)).toStrictEqual(['stream.start', 'stream.error']);
      expect(terminalOf(reply.events)).toMatchObject({ status: 'interrupted', error: { category: 'transport_interrupted' } });
      const trace = await readRawTrace(pipeline.nc, pipeline.jsm, 'acme', reply.streamId!);
      expect(traceOutline(trace)).toStrictEqual([
        'stream.open',
        ...[1, 2, 3].flatMap((attempt) => [`attempt.start#${String(attempt)}`, `attempt.end#${String(attempt)}:connect_error`]),
      ]);
    });

    it('gives up after UPSTREAM_MAX_ATTEMPTS with the last failure, one stream.start and nothing duplicated', async () => {
      const overloaded = { status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } };
      const { reply, requests } = await run([overloaded]);
      expect(requests).toHaveLength(3);
      expect(reply.events.map((event) => event.type)).toStrictEqual(['stream.start', 'stream.error']);
      expect(terminalOf(reply.events)).toMatchObject({
        status: 'failed',
        error: { category: 'upstream_overloaded', retryable: true, http_status: 529 },
      });
    });

    it('never retries an error after the first visible delta', async () => {
      const { model, reply, requests } = await run([{ transcript: 'rate_limit_error_after_text' }, { transcript: 'simple_text' }]);
      const expected = normalizedInProcess(
        'anthropic',
        transcriptBytes(pipeline.transcriptsDir, 'anthropic', 'rate_limit_error_after_text'),
        model,
        'acme',
      );
      expect(canonical(reply.events)).toStrictEqual(canonical(expected));
      expect(terminalOf(reply.events)).toMatchObject({ status: 'failed', error: { category: 'rate_limited', retryable: true } });
      expect(requests).toHaveLength(1);
    });
  });
});
