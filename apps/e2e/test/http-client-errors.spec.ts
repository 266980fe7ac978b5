import type { ContractEvent } from '@llm-stream/contract';
import { GATEWAY_ERROR_CODES, GatewayError, HttpStreamError, LlmStreamHttpClient, type GatewayErrorCode } from '@llm-stream/client/http';
import { waitFor } from '@llm-stream/testing';
import { API_KEYS, gatewayApiKeysEnv, sha256Hex } from './support/api-keys.js';
import { apiErrorCodes, stringLiteralsOf } from './support/error-code-union.js';
import { startPipeline, type Pipeline } from './support/pipeline.js';
import { CuttingProxy } from './support/http-client-cutting-proxy.js';
import { registerScenario } from './support/replay-control.js';

/** What a stream that fails before its first event rejects with, from both of its promises. */
async function failureOf(stream: { readonly streamId: Promise<string>; result(): Promise<unknown> }): Promise<unknown> {
  const fromId = await stream.streamId.then(
    () => undefined,
    (error: unknown) => error,
  );
  await expect(stream.result()).rejects.toBe(fromId);
  return fromId;
}

const NO_SCOPE_KEY = 'e2e-key-acme-audit-only-5b7c';

describe('@llm-stream/client/http: the gateway\'s error codes as typed errors (real gateway)', () => {
  let pipeline: Pipeline;
  /** A second gateway with tight limits: one open stream, 2 KB bodies, a key without the streams scope, globex kept to one route. */
  let strictUrl: string;

  beforeAll(async () => {
    pipeline = await startPipeline();
    const keys = [...(JSON.parse(gatewayApiKeysEnv()) as unknown[]), { sha256: sha256Hex(NO_SCOPE_KEY), tenant: 'acme', scopes: ['audit:read'] }];
    strictUrl = (
      await pipeline.addGateway({
        MAX_OPEN_STREAMS: '1',
        MAX_BODY_BYTES: '2048',
        GATEWAY_API_KEYS: JSON.stringify(keys),
        // Tenant globex may use the openai-chat protocol only.
        GATEWAY_ROUTES: JSON.stringify({ tenants: { globex: { routes: ['openai-chat'] } } }),
      })
    ).url;
  });

  afterAll(async () => {
    await pipeline.stop();
  });

  const client = (baseUrl: string, apiKey: string = API_KEYS.acme): LlmStreamHttpClient =>
    new LlmStreamHttpClient({ baseUrl, apiKey, resume: { maxAttempts: 3, baseDelayMs: 20, maxDelayMs: 100 } });

  it('knows exactly the codes the gateway can answer (its ApiErrorCode, which includes the exception filter\'s)', () => {
    const gateway = apiErrorCodes('gateway');
    expect([...GATEWAY_ERROR_CODES].sort()).toEqual([...gateway].sort());
    const filter = stringLiteralsOf('libs/nest-kit/src/errors/describe-error.ts', 'FrameworkErrorCode');
    expect(filter.filter((code) => !(GATEWAY_ERROR_CODES as readonly string[]).includes(code))).toEqual([]);
  });

  it.each<[GatewayErrorCode, number, () => { readonly streamId: Promise<string>; result(): Promise<unknown> }]>([
    ['unauthorized', 401, () => client(pipeline.gatewayUrl, 'not-a-key').createStream('anthropic', { model: 'simple_text', messages: [] })],
    ['insufficient_scope', 403, () => client(strictUrl, NO_SCOPE_KEY).createStream('anthropic', { model: 'simple_text', messages: [] })],
    ['route_not_allowed', 403, () => client(strictUrl, API_KEYS.globex).createStream('anthropic', { model: 'simple_text', messages: [] })],
    ['unknown_provider', 404, () => client(pipeline.gatewayUrl).createStream('no-such-route', { model: 'simple_text', messages: [] })],
    ['invalid_request', 400, () => client(pipeline.gatewayUrl).createStream('anthropic', ['not', 'an', 'object'])],
    ['body_too_large', 413, () => client(strictUrl).createStream('anthropic', { model: 'simple_text', messages: [{ role: 'user', content: 'x'.repeat(4_096) }] })],
    ['not_found', 404, () => client(pipeline.gatewayUrl).resumeStream('st_01M8ZZZZZZZZZZZZZZZZZZZZZZ')],
  ])('%s (%i): a GatewayError with that code from streamId, the iteration and result()', async (code, status, start) => {
    const error = await failureOf(start());
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ code, status });
  });

  it('overloaded (503): a GatewayError with the gateway\'s Retry-After', async () => {
    const scenario = await registerScenario(pipeline.replay.url, { responses: [{ synthetic: { frames: 200, frame_interval_ms: 20 } }] });
    const holder = client(strictUrl).createStream('anthropic', { model: `scenario:${scenario}`, max_tokens: 64, messages: [] });
    await holder.streamId;
    const error = await failureOf(client(strictUrl).createStream('anthropic', { model: 'simple_text', max_tokens: 64, messages: [] }));
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ code: 'overloaded', status: 503, retryAfterSeconds: 1 });
    expect(await holder.cancel()).toBe('cancelling');
    expect((await holder.result()).status).toBe('interrupted');
  });

  it('unavailable (503): a gateway that is draining for its shutdown refuses new streams; its open stream ends with a terminal event', async () => {
    const draining = await pipeline.addGateway();
    const scenario = await registerScenario(pipeline.replay.url, { responses: [{ synthetic: { frames: 300, frame_interval_ms: 20 } }] });
    const holder = client(draining.url).createStream('anthropic', { model: `scenario:${scenario}`, max_tokens: 64, messages: [] });
    await holder.streamId;
    const stopped = draining.process.stop('SIGTERM', 15_000);
    await draining.process.waitForLine(/"msg":"draining"/);
    const error = await failureOf(client(draining.url).createStream('anthropic', { model: 'simple_text', max_tokens: 64, messages: [] }));
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ code: 'unavailable', status: 503 });
    expect((await holder.result()).status).toBe('interrupted');
    await stopped;
  });

  it('connection_failed: nothing listens at the base URL (not retried: the stream may not exist)', async () => {
    const error = await failureOf(client('http://127.0.0.1:9').createStream('anthropic', { model: 'simple_text', messages: [] }));
    expect(error).toBeInstanceOf(HttpStreamError);
    expect(error).toMatchObject({ code: 'connection_failed' });
  });

  it('resume_exhausted: the connection breaks and no gateway answers again; the last failure is its cause', async () => {
    const scenario = await registerScenario(pipeline.replay.url, { responses: [{ synthetic: { frames: 200, frame_interval_ms: 20 } }] });
    const proxy = await CuttingProxy.start(pipeline.gatewayUrl, () => ({ afterBytes: 1_500, how: 'reset' }));
    const stream = client(proxy.url).createStream('anthropic', { model: `scenario:${scenario}`, max_tokens: 64, messages: [] });
    const streamId = await stream.streamId;
    // The open response goes on until its cut; every resume attempt after it is refused.
    proxy.refuseNew();
    const events: ContractEvent[] = [];
    const error = await (async () => {
      for await (const event of stream) events.push(event);
    })().then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(HttpStreamError);
    expect(error).toMatchObject({ code: 'resume_exhausted', cause: { code: 'connection_failed' } });
    expect(stream.stats).toMatchObject({ connections: 1, failedResumes: 3 });
    // What was delivered before the cut is the stored stream's beginning, exactly.
    expect(events.length).toBeGreaterThan(0);
    expect(events).toStrictEqual((await pipeline.acmeEvents.waitForTerminal(streamId, 30_000)).slice(0, events.length));
    await expect(stream.result()).rejects.toBe(error);
    await proxy.close();
  });

  it('aborted: the caller\'s signal ends the reading at once; the stream goes on for a reader that resumes', async () => {
    const scenario = await registerScenario(pipeline.replay.url, { responses: [{ synthetic: { frames: 60, frame_interval_ms: 20 } }] });
    const abort = new AbortController();
    const http = client(pipeline.gatewayUrl);
    const stream = http.createStream('anthropic', { model: `scenario:${scenario}`, max_tokens: 64, messages: [] }, { signal: abort.signal });
    const seen: ContractEvent[] = [];
    const error = await (async () => {
      for await (const event of stream) {
        seen.push(event);
        if (event.type === 'block.delta') abort.abort();
      }
    })().then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toMatchObject({ name: 'HttpStreamError', code: 'aborted' });
    const again = (() => {
      try {
        stream[Symbol.asyncIterator]();
        return undefined;
      } catch (failure) {
        return failure;
      }
    })();
    expect(again).toMatchObject({ name: 'HttpStreamError', code: 'already_iterated' });
    const rest = http.resumeStream(await stream.streamId, { afterSeq: seen.at(-1)!.seq });
    const outcome = await rest.result();
    expect(outcome.status).toBe('completed');
    const all = await pipeline.acmeEvents.waitForTerminal(outcome.streamId);
    expect(rest.stats.delivered).toBe(all.length - seen.length);
  });

  it('cancel(): the stream ends interrupted (client_cancelled), which the iteration delivers; a second cancel is already_ended', async () => {
    const scenario = await registerScenario(pipeline.replay.url, { responses: [{ synthetic: { frames: 400, frame_interval_ms: 20 } }] });
    const stream = client(pipeline.gatewayUrl).createStream('anthropic', { model: `scenario:${scenario}`, max_tokens: 64, messages: [] });
    const events: ContractEvent[] = [];
    let cancelled: Promise<string> | undefined;
    for await (const event of stream) {
      events.push(event);
      if (event.type === 'block.delta') cancelled ??= stream.cancel();
    }
    expect(await cancelled).toBe('cancelling');
    expect(events.at(-1)).toMatchObject({ type: 'stream.error', status: 'interrupted', error: { category: 'client_cancelled' } });
    const outcome = await stream.result();
    expect(outcome).toMatchObject({ status: 'interrupted', toolCalls: [] });
    await waitFor(async () => (await stream.cancel()) === 'already_ended', { description: 'the cancelled stream to count as ended' });
  });

  it('result() of a completed stream: the demo\'s get_weather call, executable; resumeStream gives the same events from any seq', async () => {
    const http = client(pipeline.gatewayUrl);
    const stream = http.createStream('anthropic', { model: 'multi_block', max_tokens: 512, messages: [] });
    const outcome = await stream.result();
    expect(outcome).toMatchObject({ status: 'completed', stopReason: 'tool_use', toolCalls: [{ name: 'get_weather' }], unexecutableToolCalls: [] });
    const all: ContractEvent[] = [];
    for await (const event of http.resumeStream(outcome.streamId)) all.push(event);
    const rest: ContractEvent[] = [];
    for await (const event of http.resumeStream(outcome.streamId, { afterSeq: 5 })) rest.push(event);
    expect(rest).toStrictEqual(all.slice(5));
    expect(await stream.cancel()).toBe('already_ended');
  });
});
