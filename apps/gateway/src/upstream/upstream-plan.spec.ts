import { parseRouteConfig } from '../routes/parse-route-config.js';
import type { Route } from '../routes/route.js';
import { RouteTable } from '../routes/route-table.js';
import { planUpstream, requestedModel } from './upstream-plan.js';

const defaults: Route[] = [
  { name: 'openai-chat', protocol: 'openai-chat', baseUrl: 'http://openai.test/proxy/', pathStyle: { kind: 'default' }, headers: {}, limits: {}, auth: { header: 'authorization', scheme: 'Bearer', secret: { kind: 'env', variable: 'OPENAI_API_KEY' } } },
  { name: 'gemini', protocol: 'gemini', baseUrl: 'http://gemini.test', pathStyle: { kind: 'default' }, headers: {}, limits: {}, auth: { header: 'x-goog-api-key', scheme: undefined, secret: { kind: 'env', variable: 'GEMINI_API_KEY' } } },
  { name: 'gemini-interactions', protocol: 'gemini-interactions', baseUrl: 'http://gemini.test', pathStyle: { kind: 'default' }, headers: {}, limits: {}, auth: { header: 'x-goog-api-key', scheme: undefined, secret: { kind: 'env', variable: 'GEMINI_API_KEY' } } },
];

const config = parseRouteConfig(
  JSON.stringify({
    routes: {
      'azure-eu': {
        protocol: 'openai-chat',
        base_url: 'https://eu.openai.azure.test',
        path_style: { kind: 'azure', api_version: '2024-10-21' },
        auth: { header: 'api-key', secret: { env: 'AZURE_KEY' } },
        headers: { 'x-ms-client': 'llm-stream' },
      },
      'azure-responses': {
        protocol: 'openai-responses',
        base_url: 'https://eu.openai.azure.test',
        path_style: { kind: 'azure', api_version: '2025-04-01-preview' },
        auth: { header: 'api-key', secret: { env: 'AZURE_KEY' } },
      },
      vertex: {
        protocol: 'gemini',
        base_url: 'https://europe-west4-aiplatform.googleapis.test',
        path_style: { kind: 'vertex', project: 'acme-prod', location: 'europe-west4' },
        auth: { header: 'authorization', scheme: 'Bearer', secret: { env: 'VERTEX_TOKEN' } },
      },
      claude: { protocol: 'anthropic', base_url: 'http://anthropic.test', auth: { header: 'x-api-key', secret: { env: 'CLAUDE_KEY' } } },
    },
    aliases: { fast: { route: 'azure-eu', model: 'gpt-4o-mini-deployment' } },
  }),
);
if (!config.ok) throw new Error(config.error.message);
const built = RouteTable.build(config.value, defaults, {
  OPENAI_API_KEY: 'sk-openai-key',
  GEMINI_API_KEY: 'gemini-key-0123',
  AZURE_KEY: 'azure-key-0123',
  VERTEX_TOKEN: 'ya29.vertex-token',
  CLAUDE_KEY: 'sk-ant-claude',
});
if (!built.ok) throw new Error(built.error.message);
const table = built.value;

function plan(routeName: string, body: Record<string, unknown>, queryModel?: string) {
  const protocol = table.protocolOf(routeName);
  if (protocol === undefined) throw new Error(`no route ${routeName}`);
  const model = requestedModel(protocol, body, queryModel);
  if (!model.ok) throw new Error(model.error.message);
  const resolved = table.resolve(routeName, model.value, 'acme');
  if (!resolved.ok) throw new Error(resolved.error.message);
  return planUpstream(resolved.value, body, model.value, { anthropicVersion: '2023-06-01' });
}

describe('planUpstream', () => {
  it('forces streaming and usage for OpenAI chat, keeping the other stream options, under a base URL path', () => {
    const planned = plan('openai-chat', { model: 'gpt-4.1', stream: false, stream_options: { include_usage: false, x: 1 } });
    expect(planned).toMatchObject({ model: 'gpt-4.1', route: 'openai-chat', secret: 'sk-openai-key' });
    expect(planned.url.href).toBe('http://openai.test/proxy/v1/chat/completions');
    expect(JSON.parse(planned.body)).toStrictEqual({ model: 'gpt-4.1', stream: true, stream_options: { include_usage: true, x: 1 } });
    expect(planned.headers['authorization']).toBe('Bearer sk-openai-key');
  });

  it('takes the Gemini model out of the body, or from ?model=, into the URL', () => {
    const fromBody = plan('gemini', { model: 'gemini-2.5-flash', contents: [] }, 'ignored');
    const fromQuery = plan('gemini', { contents: [] }, 'tunedModels/a b');
    expect(fromBody.url.href).toBe('http://gemini.test/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expect(JSON.parse(fromBody.body)).toStrictEqual({ contents: [] });
    expect(fromQuery.url.pathname).toBe('/v1beta/models/tunedModels%2Fa%20b:streamGenerateContent');
    expect(fromQuery).toMatchObject({ model: 'tunedModels/a b', secret: 'gemini-key-0123' });
    expect(fromQuery.headers['x-goog-api-key']).toBe('gemini-key-0123');
  });

  it('posts a Gemini interaction to /v1beta/interactions with the model in the body and streaming forced', () => {
    const planned = plan('gemini-interactions', { model: 'gemini-3-flash-preview', input: 'Hi', stream: false });
    expect(planned.url.href).toBe('http://gemini.test/v1beta/interactions');
    expect(JSON.parse(planned.body)).toStrictEqual({ model: 'gemini-3-flash-preview', input: 'Hi', stream: true });
    expect(planned).toMatchObject({ model: 'gemini-3-flash-preview', route: 'gemini-interactions', secret: 'gemini-key-0123' });
    expect(planned.headers['x-goog-api-key']).toBe('gemini-key-0123');
  });

  it('calls an Azure deployment named by the alias model, with api-key and api-version, and the extra headers', () => {
    const planned = plan('openai-chat', { model: 'fast', messages: [] });
    expect(planned.url.href).toBe('https://eu.openai.azure.test/openai/deployments/gpt-4o-mini-deployment/chat/completions?api-version=2024-10-21');
    expect(planned.headers).toStrictEqual({
      'content-type': 'application/json',
      accept: 'text/event-stream',
      'x-ms-client': 'llm-stream',
      'api-key': 'azure-key-0123',
    });
    expect(planned).toMatchObject({ model: 'fast', route: 'azure-eu', secret: 'azure-key-0123' });
    expect(JSON.parse(planned.body)).toMatchObject({ model: 'gpt-4o-mini-deployment', stream: true });
  });

  it("calls Azure's Responses endpoint with the api-version", () => {
    const planned = plan('azure-responses', { model: 'gpt-4.1', input: 'hi' });
    expect(planned.url.href).toBe('https://eu.openai.azure.test/openai/responses?api-version=2025-04-01-preview');
    expect(planned.headers['api-key']).toBe('azure-key-0123');
  });

  it("calls Vertex AI's publisher model path with a bearer token", () => {
    const planned = plan('vertex', { model: 'gemini-2.5-pro', contents: [] });
    expect(planned.url.href).toBe(
      'https://europe-west4-aiplatform.googleapis.test/v1/projects/acme-prod/locations/europe-west4/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse',
    );
    expect(planned.headers['authorization']).toBe('Bearer ya29.vertex-token');
    expect(JSON.parse(planned.body)).toStrictEqual({ contents: [] });
  });

  it('sends the anthropic-version header on an Anthropic route, and every route secret is in the redaction list', () => {
    const planned = plan('claude', { model: 'claude-sonnet-4-5', max_tokens: 10, messages: [] });
    expect(planned.headers).toMatchObject({ 'x-api-key': 'sk-ant-claude', 'anthropic-version': '2023-06-01' });
    expect(table.secrets().sort()).toStrictEqual(['azure-key-0123', 'gemini-key-0123', 'sk-ant-claude', 'sk-openai-key', 'ya29.vertex-token']);
  });

  it.each([
    ['anthropic', {}, undefined],
    ['openai-responses', { model: 7 }, undefined],
    ['openai-chat', { model: 'a\nb' }, undefined],
    ['gemini', { contents: [] }, undefined],
    ['gemini', { model: 42 }, 'from-query'],
  ] as const)('refuses %s with body %j and query model %j', (provider, body, query) => {
    expect(requestedModel(provider, body, query)).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });
});
