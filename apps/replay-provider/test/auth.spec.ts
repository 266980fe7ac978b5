import { authHeader, PROVIDER_NAMES, providerRequest, transcript, type Provider } from './support/endpoints.js';
import { exchange } from './support/http-exchange.js';
import { startReplay, type ReplayServer } from './support/replay-process.js';

const KEY = 'sk-replay-test';

let server: ReplayServer;
beforeAll(async () => {
  server = await startReplay({ REPLAY_REQUIRE_API_KEY: KEY });
});
afterAll(async () => {
  await server.stop();
});

const unauthorizedShape: Record<Provider, object> = {
  'openai-chat': { error: { type: 'invalid_request_error', code: 'invalid_api_key' } },
  'openai-responses': { error: { type: 'invalid_request_error', code: 'invalid_api_key' } },
  anthropic: { type: 'error', error: { type: 'authentication_error' } },
  gemini: { error: { code: 401, status: 'UNAUTHENTICATED' } },
  'gemini-interactions': { error: { code: 'authentication' } },
};

describe.each(PROVIDER_NAMES)('REPLAY_REQUIRE_API_KEY on %s', (provider) => {
  const { path, body } = providerRequest(provider, 'simple_text');

  it('no key → 401 in the provider error shape, no frame', async () => {
    const result = await exchange(server.url, path, body);
    expect(result.status).toBe(401);
    expect(JSON.parse(result.body.toString())).toMatchObject(unauthorizedShape[provider]);
  });

  it('a wrong key → 401', async () => {
    const result = await exchange(server.url, path, body, { headers: authHeader(provider, 'sk-wrong') });
    expect(result.status).toBe(401);
    expect(JSON.parse(result.body.toString())).toMatchObject(unauthorizedShape[provider]);
  });

  it("the key in the provider's header → the transcript", async () => {
    const result = await exchange(server.url, path, body, { headers: authHeader(provider, KEY) });
    expect(result.status).toBe(200);
    expect(result.body.equals(transcript(provider, 'simple_text'))).toBe(true);
  });
});

describe('REPLAY_REQUIRE_API_KEY header rules', () => {
  it("Anthropic does not read OpenAI's Authorization header", async () => {
    const result = await exchange(server.url, '/v1/messages', { model: 'simple_text' }, { headers: authHeader('openai-chat', KEY) });
    expect(result.status).toBe(401);
  });

  it('Gemini also accepts ?key=, as Google does', async () => {
    const result = await exchange(server.url, `/v1beta/models/simple_text:streamGenerateContent?alt=sse&key=${KEY}`, {});
    expect(result.status).toBe(200);
  });
});

describe('REPLAY_REQUIRE_API_KEY at the Azure OpenAI and Vertex AI paths', () => {
  const chat = providerRequest('openai-chat', 'ignored-by-azure').body;
  const azureChat = '/openai/deployments/simple_text/chat/completions?api-version=2024-10-21';
  const vertex = '/v1/projects/acme-prod/locations/europe-west4/publishers/google/models/simple_text:streamGenerateContent?alt=sse';

  it('an Azure chat deployment streams the transcript its deployment names, for the key in api-key', async () => {
    const result = await exchange(server.url, azureChat, chat, { headers: { 'api-key': KEY } });
    expect(result.status).toBe(200);
    expect(result.body.equals(transcript('openai-chat', 'simple_text'))).toBe(true);
  });

  it("Azure does not read OpenAI's Authorization header", async () => {
    const result = await exchange(server.url, azureChat, chat, { headers: authHeader('openai-chat', KEY) });
    expect(result.status).toBe(401);
    expect(JSON.parse(result.body.toString())).toMatchObject(unauthorizedShape['openai-chat']);
  });

  it('Azure needs api-version', async () => {
    const result = await exchange(server.url, '/openai/deployments/simple_text/chat/completions', chat, { headers: { 'api-key': KEY } });
    expect(result.status).toBe(400);
    expect(result.body.toString()).toContain('api-version');
  });

  it("Azure's Responses endpoint takes the model from the body", async () => {
    const { body } = providerRequest('openai-responses', 'simple_text');
    const result = await exchange(server.url, '/openai/responses?api-version=2025-04-01-preview', body, { headers: { 'api-key': KEY } });
    expect(result.status).toBe(200);
    expect(result.body.equals(transcript('openai-responses', 'simple_text'))).toBe(true);
  });

  it('Vertex AI streams the Gemini transcript for a bearer token, and refuses the Gemini API key header', async () => {
    const { body } = providerRequest('gemini', 'simple_text');
    const served = await exchange(server.url, vertex, body, { headers: { authorization: `Bearer ${KEY}` } });
    expect(served.status).toBe(200);
    expect(served.body.equals(transcript('gemini', 'simple_text'))).toBe(true);
    const refused = await exchange(server.url, vertex, body, { headers: authHeader('gemini', KEY) });
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body.toString())).toMatchObject(unauthorizedShape.gemini);
  });
});
