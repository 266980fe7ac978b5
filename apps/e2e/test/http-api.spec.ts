import { request } from 'node:http';
import { connect } from 'node:net';
import { terminalOf } from './support/event-checks.js';
import { authHeaders, cancelStream, postStream, resumeStream } from './support/gateway-client.js';
import { PROVIDER_KEY_CANARY } from './support/api-keys.js';
import { startPipeline, type Pipeline } from './support/pipeline.js';
import type { RunningService } from './support/services.js';
import { registerScenario, scenarioRequests } from './support/replay-control.js';

const MAX_BODY_BYTES = 65_536;

/** A raw HTTP exchange: what a client that sends odd bytes gets back. */
function exchange(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string | Buffer,
): Promise<{ status: number; contentType: string; json: unknown }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(new URL(path, url), { method, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } });
    outgoing.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown = text;
        try {
          json = JSON.parse(text);
        } catch {
          // The assertion shows the text.
        }
        resolve({ status: response.statusCode ?? 0, contentType: String(response.headers['content-type']), json });
      });
    });
    // A server that answers 413 early may close before the whole body is written.
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    outgoing.end(body);
  });
}

const errorBody = (code: string): unknown => ({ error: { code, message: expect.any(String) as unknown } });

describe('the gateway HTTP API', () => {
  let pipeline: Pipeline;
  let acmeStream: string;

  beforeAll(async () => {
    pipeline = await startPipeline({ gatewayEnv: { MAX_BODY_BYTES: String(MAX_BODY_BYTES) } });
    const reply = await postStream(pipeline.gatewayUrl, 'anthropic', { model: 'simple_text', max_tokens: 64, messages: [] });
    expect(reply.status).toBe(200);
    acmeStream = reply.streamId!;
  });

  afterAll(async () => {
    await pipeline.stop();
  });

  describe('authentication and tenancy', () => {
    it.each([
      ['a wrong key', { literal: 'not-a-key' }],
      ['no key', null],
    ] as const)('answers 401 with a JSON error to %s, on every route', async (_what, key) => {
      const post = await postStream(pipeline.gatewayUrl, 'anthropic', { model: 'simple_text' }, { key });
      const get = await resumeStream(pipeline.gatewayUrl, acmeStream, undefined, { key });
      const del = await cancelStream(pipeline.gatewayUrl, acmeStream, { key });
      for (const answer of [post, get, del]) {
        expect(answer).toMatchObject({ status: 401, json: errorBody('unauthorized') });
      }
    });

    it('accepts the key as x-api-key too', async () => {
      const reply = await resumeStream(pipeline.gatewayUrl, acmeStream, undefined, {
        key: null,
        headers: { 'x-api-key': authHeaders('acme')['authorization']!.slice(7) },
      });
      expect(reply.status).toBe(200);
    });

    it("answers 404 to another tenant's stream, exactly as to a stream that does not exist", async () => {
      const other = await resumeStream(pipeline.gatewayUrl, acmeStream, undefined, { key: 'globex' });
      const none = await resumeStream(pipeline.gatewayUrl, 'st_00000000000000000000000000', undefined, { key: 'globex' });
      expect(other).toMatchObject({ status: 404, json: errorBody('not_found') });
      expect(none.status).toBe(404);
      expect((other.json as { error: { message: string } }).error.message.replace(acmeStream, 'X')).toBe(
        (none.json as { error: { message: string } }).error.message.replace('st_00000000000000000000000000', 'X'),
      );
      expect(await cancelStream(pipeline.gatewayUrl, acmeStream, { key: 'globex' })).toMatchObject({
        status: 404,
        json: errorBody('not_found'),
      });
      // Nothing of acme's ever reached globex's subjects.
      expect(pipeline.globexEvents.streamIds()).toStrictEqual([]);
    });
  });

  it('gives each stream its own trace id without a trace exporter too, the same in both services (the context crosses NATS)', () => {
    const traceIdOf = (service: RunningService, msg: string): string | undefined => {
      const line = service.process.lines.find((candidate) => candidate.includes(`"msg":"${msg}"`) && candidate.includes(acmeStream));
      return line === undefined ? undefined : (JSON.parse(line) as { trace_id?: string }).trace_id;
    };
    const traceId = traceIdOf(pipeline.gateways[0]!, 'stream accepted');
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(traceId).not.toMatch(/^0+$/);
    expect(traceIdOf(pipeline.normalizers[0]!, 'stream owned')).toBe(traceId);
  });

  describe('bad input at the edge gets a clear 4xx with a JSON error body', () => {
    const json = { 'content-type': 'application/json', ...authHeaders('acme') };

    it.each([
      ['invalid JSON', 'POST', '/v1/streams/anthropic', json, '{"model": "simple_text", ', 400, 'invalid_json'],
      ['a JSON array', 'POST', '/v1/streams/anthropic', json, '[1, 2]', 400, 'invalid_request'],
      ['a JSON string', 'POST', '/v1/streams/anthropic', json, '"hello"', 400, 'invalid_request'],
      ['no model', 'POST', '/v1/streams/openai-chat', json, '{"messages": []}', 400, 'invalid_request'],
      ['a model that is not a string', 'POST', '/v1/streams/anthropic', json, '{"model": 42}', 400, 'invalid_request'],
      ['a Gemini body without a model', 'POST', '/v1/streams/gemini', json, '{"contents": []}', 400, 'invalid_request'],
      ['an unknown provider', 'POST', '/v1/streams/mistral', json, '{"model": "x"}', 404, 'unknown_provider'],
      [
        'a body larger than MAX_BODY_BYTES',
        'POST',
        '/v1/streams/anthropic',
        json,
        `{"model": "simple_text", "pad": "${'x'.repeat(MAX_BODY_BYTES)}"}`,
        413,
        'body_too_large',
      ],
      [
        'a text/plain body',
        'POST',
        '/v1/streams/anthropic',
        { ...json, 'content-type': 'text/plain' },
        '{"model": "simple_text"}',
        400,
        'invalid_request',
      ],
      ['an unknown route', 'GET', '/v1/nothing-here', json, '', 404, 'not_found'],
      [
        'a Last-Event-ID that is not a seq',
        'GET',
        '/v1/streams/st_x/events',
        { ...json, 'last-event-id': 'abc' },
        '',
        400,
        'invalid_request',
      ],
      ['a stream id with characters no stream id has', 'GET', '/v1/streams/st.x%2A/events', json, '', 404, 'not_found'],
      // As deep as MAX_BODY_BYTES allows here (the middleware's spec tries 100,000 levels): a 400, not a 500.
      ['32,000 levels of nesting', 'POST', '/v1/streams/anthropic', json, `{"model": "simple_text", "x": ${'['.repeat(32_000)}${']'.repeat(32_000)}}`, 400, 'invalid_request'],
    ])('%s', async (_what, method, path, headers, body, status, code) => {
      const answer = await exchange(pipeline.gatewayUrl, method, path, headers, body);
      expect(answer).toMatchObject({ status, json: errorBody(code) });
      expect(answer.contentType).toMatch(/^application\/json/);
      // The message never quotes what the client sent.
      expect(JSON.stringify(answer.json)).not.toContain('simple_text');
    });

    it('answers 413 to a declared 10 GB body from its headers alone, and closes the connection', async () => {
      const { hostname, port } = new URL(pipeline.gatewayUrl);
      const socket = connect(Number(port), hostname);
      const head = [
        'POST /v1/streams/anthropic HTTP/1.1',
        `host: ${hostname}`,
        'content-type: application/json',
        `authorization: ${authHeaders('acme').authorization ?? ''}`,
        'content-length: 10737418240',
      ];
      socket.write(`${head.join('\r\n')}\r\n\r\n`);
      // Not a byte of the body is sent: the answer and the close must come without it.
      const received = await new Promise<string>((resolve, reject) => {
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        socket.on('close', () => {
          resolve(text);
        });
        socket.on('error', reject);
      });
      expect(received).toMatch(/^HTTP\/1\.1 413 /);
      expect(received).toMatch(/\{"error":\{"code":"body_too_large"/);
    });

    it('the normalizer answers an unknown route with the same JSON error shape as the gateway', async () => {
      const answer = await exchange(pipeline.normalizers[0]!.url, 'GET', '/v1/nothing-here', {}, '');
      expect(answer).toMatchObject({ status: 404, json: errorBody('not_found') });
      expect(answer.contentType).toMatch(/^application\/json/);
    });

    it('is still up and serving streams after all of them', async () => {
      const reply = await postStream(pipeline.gatewayUrl, 'anthropic', { model: 'simple_text', max_tokens: 64, messages: [] });
      expect(terminalOf(reply.events)).toMatchObject({ type: 'stream.done' });
      for (const service of pipeline.services()) expect(service.process.exit).toBeUndefined();
    });
  });

  describe('what the gateway sends upstream', () => {
    async function sentBody(
      provider: 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini',
      body: Record<string, unknown>,
      query?: Record<string, string>,
    ) {
      const scenario = await registerScenario(pipeline.replay.url, { responses: [{ transcript: 'simple_text' }] });
      const model = `scenario:${scenario}`;
      const reply = await postStream(
        pipeline.gatewayUrl,
        provider,
        provider === 'gemini' && query ? body : { model, ...body },
        query ? { query: { model } } : {},
      );
      expect(terminalOf(reply.events)).toMatchObject({ type: 'stream.done', stream_id: reply.streamId });
      const [sent] = await scenarioRequests(pipeline.replay.url, scenario);
      return { sent: sent!, model, reply };
    }

    it('OpenAI chat: the client body, with streaming and usage forced on, and the provider key', async () => {
      const { sent, model } = await sentBody('openai-chat', {
        messages: [{ role: 'user', content: 'Hi' }],
        stream: false,
        stream_options: { include_usage: false, x: 1 },
        temperature: 0.2,
      });
      expect(sent.body).toStrictEqual({
        model,
        messages: [{ role: 'user', content: 'Hi' }],
        stream: true,
        stream_options: { include_usage: true, x: 1 },
        temperature: 0.2,
      });
      expect(sent.headers['authorization']).toBe(`Bearer ${PROVIDER_KEY_CANARY}`);
    });

    it('OpenAI Responses and Anthropic: the client body with stream: true', async () => {
      const responses = await sentBody('openai-responses', { input: 'Hi', stream: false });
      expect(responses.sent.body).toStrictEqual({ model: responses.model, input: 'Hi', stream: true });
      const anthropic = await sentBody('anthropic', { max_tokens: 9, messages: [] });
      expect(anthropic.sent.body).toStrictEqual({ model: anthropic.model, max_tokens: 9, messages: [], stream: true });
      expect(anthropic.sent.headers['x-api-key']).toBe(PROVIDER_KEY_CANARY);
    });

    it('Gemini: the model from the body goes into the URL and out of the body', async () => {
      const { sent, model, reply } = await sentBody('gemini', { contents: [] });
      expect(sent.body).toStrictEqual({ contents: [] });
      expect(sent.path).toBe(`/v1beta/models/${encodeURIComponent(model)}:streamGenerateContent`);
      expect(reply.events[0]).toMatchObject({ type: 'stream.start', model });
    });

    it('Gemini: the model from ?model=', async () => {
      const { sent, model } = await sentBody('gemini', { contents: [] }, {});
      expect(sent.body).toStrictEqual({ contents: [] });
      expect(sent.path).toBe(`/v1beta/models/${encodeURIComponent(model)}:streamGenerateContent`);
    });
  });
});
