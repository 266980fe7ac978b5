import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RouteConfigError } from './parse-route-config.js';
import { RouteSource, routeOrigin, type RouteSourceOptions } from './route-source.js';

describe('RouteSource', () => {
  let dir: string;
  let now: number;
  let rejected: RouteConfigError[];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'route-source-'));
    now = 0;
    rejected = [];
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const options = (path: string): RouteSourceOptions => ({
    origin: { kind: 'file', path },
    defaults: [],
    env: {},
    clock: () => now,
    rejected: (error) => rejected.push(error),
    reloaded: () => undefined,
  });
  const ollama = (name: string): string => JSON.stringify({ routes: { [name]: { protocol: 'openai-chat', base_url: 'http://127.0.0.1:11434' } } });

  it('re-reads a changed file once the check interval passed, and refuses a bad version keeping the last good one', () => {
    const path = join(dir, 'routes.json');
    writeFileSync(path, ollama('first'));
    const source = RouteSource.load(options(path));
    if (!source.ok) throw new Error(source.error.message);
    expect(source.value.current().names()).toStrictEqual(['first']);

    writeFileSync(path, ollama('second-route'));
    expect(source.value.current().names()).toStrictEqual(['first']);
    now = 1_000;
    expect(source.value.current().names()).toStrictEqual(['second-route']);

    writeFileSync(path, '{"routes": {"broken": {"protocol": "openai"}}}');
    now = 2_000;
    expect(source.value.current().names()).toStrictEqual(['second-route']);
    expect(rejected).toMatchObject([{ code: 'invalid_routes', message: expect.stringMatching(/^GATEWAY_ROUTES_FILE .*routes\.json: route "broken": protocol must be/) as unknown }]);
  });

  it('fails at start on a bad or missing file', () => {
    const path = join(dir, 'routes.json');
    expect(RouteSource.load(options(path))).toMatchObject({ ok: false, error: { code: 'invalid_routes', message: expect.stringContaining('cannot be read (ENOENT)') as unknown } });
    writeFileSync(path, '[]');
    expect(RouteSource.load(options(path))).toMatchObject({ ok: false, error: { message: expect.stringContaining('must be a JSON object') as unknown } });
  });

  it('takes GATEWAY_ROUTES or GATEWAY_ROUTES_FILE, not both', () => {
    expect(routeOrigin('', '')).toStrictEqual({ ok: true, value: { kind: 'none' } });
    expect(routeOrigin('{}', '')).toStrictEqual({ ok: true, value: { kind: 'env', json: '{}' } });
    expect(routeOrigin('', '/etc/routes.json')).toStrictEqual({ ok: true, value: { kind: 'file', path: '/etc/routes.json' } });
    expect(routeOrigin('{}', '/etc/routes.json')).toMatchObject({ ok: false, error: { code: 'invalid_routes' } });
  });
});
