import { parseRouteConfig } from './parse-route-config.js';
import type { Route } from './route.js';
import { RouteTable } from './route-table.js';

const defaults: Route[] = [
  { name: 'openai-chat', protocol: 'openai-chat', baseUrl: 'http://openai.test', pathStyle: { kind: 'default' }, headers: {}, limits: {}, auth: { header: 'authorization', scheme: 'Bearer', secret: { kind: 'env', variable: 'OPENAI_API_KEY' } } },
  { name: 'anthropic', protocol: 'anthropic', baseUrl: 'http://anthropic.test', pathStyle: { kind: 'default' }, headers: {}, limits: {}, auth: { header: 'x-api-key', scheme: undefined, secret: { kind: 'env', variable: 'ANTHROPIC_API_KEY' } } },
];

function table(config: unknown, env: Record<string, string> = { GROQ_KEY: 'gsk-groq-key', OPENAI_API_KEY: 'sk-openai' }): RouteTable {
  const parsed = parseRouteConfig(JSON.stringify(config));
  if (!parsed.ok) throw new Error(parsed.error.message);
  const built = RouteTable.build(parsed.value, defaults, env);
  if (!built.ok) throw new Error(built.error.message);
  return built.value;
}

const groq = { protocol: 'openai-chat', base_url: 'https://api.groq.test/openai', auth: { header: 'authorization', scheme: 'Bearer', secret: { env: 'GROQ_KEY' } } };
const routes = {
  routes: { groq, ollama: { protocol: 'openai-chat', base_url: 'http://127.0.0.1:11434' } },
  aliases: { fast: { route: 'groq', model: 'llama-3.1-8b-instant' }, local: { route: 'ollama', model: 'llama3.2' } },
  tenants: { acme: { routes: ['openai-chat', 'ollama'], aliases: ['fast'] }, '*': { routes: ['anthropic'] } },
};

describe('RouteTable', () => {
  const routed = table(routes);

  it('resolves an alias posted to its protocol or its own route', () => {
    for (const name of ['openai-chat', 'groq']) {
      const resolved = routed.resolve(name, 'fast', 'acme');
      expect(resolved).toMatchObject({ ok: true, value: { route: { name: 'groq' }, alias: 'fast', upstreamModel: 'llama-3.1-8b-instant', secret: 'gsk-groq-key' } });
      expect(resolved.ok && resolved.value.credentials).toStrictEqual({ authorization: 'Bearer gsk-groq-key' });
    }
  });

  it('passes a plain model through to the named route', () => {
    expect(routed.resolve('ollama', 'qwen2.5', 'acme')).toMatchObject({
      ok: true,
      value: { route: { name: 'ollama' }, alias: undefined, upstreamModel: 'qwen2.5', credentials: {}, secret: '' },
    });
  });

  it("treats an alias posted to another named route as that route's own model name", () => {
    expect(routed.resolve('ollama', 'fast', 'acme')).toMatchObject({ ok: true, value: { route: { name: 'ollama' }, alias: undefined, upstreamModel: 'fast' } });
  });

  it('refuses an alias posted to a protocol it does not speak', () => {
    expect(routed.resolve('anthropic', 'fast', 'acme')).toMatchObject({ ok: false, error: { code: 'alias_mismatch' } });
  });

  it('keeps a tenant to the routes and aliases of its allow-list', () => {
    expect(routed.resolve('groq', 'llama-3.1-8b-instant', 'acme')).toMatchObject({ ok: false, error: { code: 'route_not_allowed', message: 'tenant acme may not use route "groq"' } });
    expect(routed.resolve('openai-chat', 'local', 'acme')).toMatchObject({ ok: false, error: { code: 'route_not_allowed', message: 'tenant acme may not use model alias "local"' } });
    expect(routed.resolve('openai-chat', 'gpt-4.1', 'acme')).toMatchObject({ ok: true });
  });

  it('applies * to every tenant without an entry of its own, and allows everything without one', () => {
    expect(routed.resolve('anthropic', 'claude', 'globex')).toMatchObject({ ok: true });
    expect(routed.resolve('openai-chat', 'gpt-4.1', 'globex')).toMatchObject({ ok: false, error: { code: 'route_not_allowed' } });
    const open = table({ routes: routes.routes });
    expect(open.resolve('groq', 'x', 'globex')).toMatchObject({ ok: true });
  });

  it('answers unknown_route for a name that is neither a route nor a default', () => {
    expect(routed.resolve('mistral', 'x', 'acme')).toMatchObject({ ok: false, error: { code: 'unknown_route' } });
    expect(routed.protocolOf('mistral')).toBeUndefined();
    expect(routed.protocolOf('groq')).toBe('openai-chat');
  });

  it('lets a configured route replace the default of its protocol name', () => {
    const replaced = table({ routes: { 'openai-chat': groq } });
    expect(replaced.resolve('openai-chat', 'm', 'acme')).toMatchObject({ ok: true, value: { route: { baseUrl: 'https://api.groq.test/openai' }, secret: 'gsk-groq-key' } });
  });

  it("refuses a configured route whose secret is missing, and keeps a default route without its key unauthenticated", () => {
    const parsed = parseRouteConfig(JSON.stringify({ routes: { groq } }));
    if (!parsed.ok) throw new Error(parsed.error.message);
    expect(RouteTable.build(parsed.value, defaults, {})).toMatchObject({
      ok: false,
      error: { code: 'invalid_routes', message: 'route "groq": environment variable GROQ_KEY is missing or empty' },
    });
    const defaultsOnly = table({}, {});
    expect(defaultsOnly.resolve('anthropic', 'claude', 'acme')).toMatchObject({ ok: true, value: { credentials: {}, secret: '' } });
  });

  it('lists every route secret once, for the redaction', () => {
    expect(routed.secrets().sort()).toStrictEqual(['gsk-groq-key', 'sk-openai']);
  });
});
