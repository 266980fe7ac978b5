import { parseRouteConfig } from './parse-route-config.js';

const azure = {
  protocol: 'openai-chat',
  base_url: 'https://eu.openai.azure.test',
  path_style: { kind: 'azure', api_version: '2024-10-21' },
  auth: { header: 'api-key', secret: { file: '/var/run/secrets/azure/key' } },
  timeouts: { connect_ms: 5_000, idle_ms: 30_000, progress_ms: 60_000 },
  retry: { max_attempts: 2 },
};

describe('parseRouteConfig', () => {
  it('reads routes, aliases and allow-lists', () => {
    const parsed = parseRouteConfig(
      JSON.stringify({
        routes: { 'azure-eu': azure, ollama: { protocol: 'openai-chat', base_url: 'http://127.0.0.1:11434' } },
        aliases: { fast: { route: 'ollama', model: 'llama3.2' } },
        tenants: { acme: { routes: ['azure-eu', 'anthropic'], aliases: ['fast'] }, '*': { routes: ['openai-chat'] } },
      }),
    );
    if (!parsed.ok) throw new Error(parsed.error.message);
    expect(parsed.value.routes.get('azure-eu')).toStrictEqual({
      name: 'azure-eu',
      protocol: 'openai-chat',
      baseUrl: 'https://eu.openai.azure.test',
      pathStyle: { kind: 'azure', apiVersion: '2024-10-21' },
      auth: { header: 'api-key', scheme: undefined, secret: { kind: 'file', path: '/var/run/secrets/azure/key' } },
      headers: {},
      limits: { connectTimeoutMs: 5_000, idleTimeoutMs: 30_000, progressTimeoutMs: 60_000, maxAttempts: 2 },
    });
    expect(parsed.value.routes.get('ollama')).toMatchObject({ pathStyle: { kind: 'default' }, auth: undefined });
    expect(parsed.value.aliases.get('fast')).toStrictEqual({ name: 'fast', route: 'ollama', model: 'llama3.2' });
    expect(parsed.value.tenants.get('acme')).toStrictEqual({ routes: new Set(['azure-eu', 'anthropic']), aliases: new Set(['fast']) });
    expect(parsed.value.tenants.get('*')).toStrictEqual({ routes: new Set(['openai-chat']), aliases: new Set() });
  });

  it('reads an empty object as no routes', () => {
    expect(parseRouteConfig('{}')).toMatchObject({ ok: true });
  });

  const route = (patch: Record<string, unknown>): string => JSON.stringify({ routes: { r: { ...azure, ...patch } } });
  it.each([
    ['not JSON', '{"routes":', /is not JSON/],
    ['an unknown top-level field', '{"route": {}}', /unknown field "route"/],
    ['a bad route name', JSON.stringify({ routes: { 'Azure EU': azure } }), /route name/],
    ['an unknown route field', route({ api_key: 'sk-123' }), /unknown field "api_key"/],
    ['an unknown protocol', route({ protocol: 'openai' }), /protocol must be one of/],
    ['a protocol-named route of another protocol', JSON.stringify({ routes: { anthropic: azure } }), /must speak it/],
    ['a base URL that is no http(s) URL', route({ base_url: 'ftp://x' }), /base_url/],
    ['a base URL with credentials', route({ base_url: 'https://user:pw@x.test' }), /credentials/],
    ['azure on anthropic', route({ protocol: 'anthropic' }), /azure needs protocol openai/],
    ['azure without api_version', route({ path_style: { kind: 'azure' } }), /api_version/],
    ['vertex on openai', route({ path_style: { kind: 'vertex', project: 'p', location: 'l' } }), /vertex needs protocol gemini/],
    ['vertex without project', route({ protocol: 'gemini', path_style: { kind: 'vertex', location: 'l' } }), /needs project/],
    ['an unknown path style', route({ path_style: { kind: 'bedrock' } }), /kind must be/],
    ['a secret inline', route({ auth: { header: 'api-key', secret: 'sk-live-123' } }), /never the secret itself/],
    ['a secret object with the value', route({ auth: { header: 'api-key', secret: { value: 'sk-live-123' } } }), /never the secret itself/],
    ['a relative secret file', route({ auth: { header: 'api-key', secret: { file: 'key.txt' } } }), /absolute path/],
    ['a credential in the extra headers', route({ headers: { Authorization: 'Bearer sk-live-123' } }), /carries a credential/],
    ['a framing header', route({ headers: { 'Content-Length': '3' } }), /set by the gateway/],
    ['a header value with a newline', route({ headers: { 'x-a': 'a\r\nb: c' } }), /printable/],
    ['a timeout below 100 ms', route({ timeouts: { idle_ms: 5 } }), /idle_ms must be an integer/],
    ['an unknown timeout', route({ timeouts: { read_ms: 500 } }), /unknown field "read_ms"/],
    ['too many attempts', route({ retry: { max_attempts: 11 } }), /max_attempts/],
    ['an alias to an unknown route', JSON.stringify({ aliases: { fast: { route: 'groq', model: 'x' } } }), /neither a configured route nor a protocol/],
    ['an alias without a model', JSON.stringify({ aliases: { fast: { route: 'openai-chat' } } }), /upstream model/],
    ['an allow-list naming an unknown route', JSON.stringify({ tenants: { acme: { routes: ['groq'] } } }), /unknown route "groq"/],
    ['an allow-list naming an unknown alias', JSON.stringify({ tenants: { acme: { aliases: ['fast'] } } }), /unknown alias "fast"/],
    ['a bad tenant', JSON.stringify({ tenants: { 'a.b': { routes: [] } } }), /a tenant is/],
  ])('refuses %s', (_name, json, message) => {
    const parsed = parseRouteConfig(json);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.error.code).toBe('invalid_routes');
    expect(parsed.error.message).toMatch(message);
    // A message names fields, never echoes a value that might be a secret.
    expect(parsed.error.message).not.toContain('sk-live-123');
  });
});
