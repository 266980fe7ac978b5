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
