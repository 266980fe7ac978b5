import { exchange } from './support/http-exchange.js';
import { allTranscripts, PROVIDER_NAMES, providerRequest, type Provider } from './support/endpoints.js';
import { startReplay, type ReplayServer } from './support/replay-process.js';

let server: ReplayServer;
beforeAll(async () => {
  server = await startReplay();
});
afterAll(async () => {
  await server.stop();
});

describe('recorded transcripts', () => {
  const cases = allTranscripts();

  it('finds the whole corpus (8 cases per provider at least)', () => {
    for (const provider of PROVIDER_NAMES) {
      expect(cases.filter((item) => item.provider === provider).length).toBeGreaterThanOrEqual(8);
    }
  });

  it.each(cases.map((item) => [`${item.provider}/${item.caseName}`, item] as const))('serves %s byte-exact', async (_, item) => {
    const { path, body } = providerRequest(item.provider, item.caseName);
    const result = await exchange(server.url, path, body);
    expect(result.status).toBe(200);
    expect(result.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(result.complete).toBe(true);
    expect(result.body.equals(item.bytes)).toBe(true);
  });
});

describe('provider-shaped errors before any frame', () => {
  const notFoundShape: Record<Provider, object> = {
    'openai-chat': { error: { type: 'invalid_request_error', code: 'model_not_found' } },
    'openai-responses': { error: { type: 'invalid_request_error', code: 'model_not_found' } },
    anthropic: { type: 'error', error: { type: 'not_found_error' } },
    gemini: { error: { code: 404, status: 'NOT_FOUND' } },
    'gemini-interactions': { error: { code: 'model_not_found' } },
  };

  it.each(PROVIDER_NAMES)('%s: an unknown case is a 404 in the provider error shape', async (provider) => {
    const { path, body } = providerRequest(provider, 'no_such_case');
    const result = await exchange(server.url, path, body);
    expect(result.status).toBe(404);
    expect(result.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(result.body.toString())).toMatchObject(notFoundShape[provider]);
  });

  it('a model name cannot escape the transcripts folder', async () => {
    const result = await exchange(server.url, '/v1/chat/completions', { model: '../openai-chat/simple_text' });
    expect(result.status).toBe(404);
  });

  it('Gemini takes the model from the path, raw or URL-encoded', async () => {
    const raw = await exchange(server.url, '/v1beta/models/simple_text:streamGenerateContent?alt=sse', {});
    const encoded = await exchange(server.url, '/v1beta/models/%73imple_text:streamGenerateContent?alt=sse', {});
    expect(raw.status).toBe(200);
    expect(encoded.body.equals(raw.body)).toBe(true);
  });

  it('Gemini without alt=sse is a 400 INVALID_ARGUMENT', async () => {
    const result = await exchange(server.url, '/v1beta/models/simple_text:streamGenerateContent', {});
    expect(result.status).toBe(400);
    expect(JSON.parse(result.body.toString())).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
  });

  it('a body without a model is a 400 in the provider shape', async () => {
    const result = await exchange(server.url, '/v1/messages', { messages: [] });
    expect(result.status).toBe(400);
    expect(JSON.parse(result.body.toString())).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });

  it('invalid JSON on a provider endpoint is a 400 in the provider shape', async () => {
    const result = await exchange(server.url, '/v1/chat/completions', undefined, { rawBody: '{"model": ' });
    expect(result.status).toBe(400);
    expect(JSON.parse(result.body.toString())).toMatchObject({ error: { type: 'invalid_request_error', code: null } });
  });
});
