import { err, isProviderName, isValidRouteName, isValidTenant, ok, PROVIDERS, type ProviderName, type Result } from '@llm-stream/contract';
import type { ModelAlias, PathStyle, Route, RouteAuth, RouteConfig, RouteLimits, TenantAccess } from './route.js';
import type { SecretRef } from './secret-ref.js';

/** Why a route configuration was refused; `message` names the field (never a secret: none is in the file). */
export interface RouteConfigError {
  readonly code: 'invalid_routes';
  readonly message: string;
}

type Parsed<T> = Result<T, RouteConfigError>;

const fail = (message: string): { readonly ok: false; readonly error: RouteConfigError } => err({ code: 'invalid_routes', message });

// RFC 9110 token; the headers below belong to the gateway (framing) or to `auth` (credentials by reference only).
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;
// eslint-disable-next-line no-control-regex -- a header value with a control character would split the request
const HEADER_VALUE = /^[^\u0000-\u001f\u007f]{0,4096}$/;
const RESERVED_HEADERS = new Set(['host', 'content-length', 'content-type', 'accept', 'transfer-encoding', 'connection']);
const CREDENTIAL_HEADERS = new Set(['authorization', 'api-key', 'x-api-key', 'x-goog-api-key', 'proxy-authorization']);
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const PLAIN = /^[A-Za-z0-9._-]{1,128}$/;
const TOP_LEVEL = new Set(['routes', 'aliases', 'tenants']);

/**
 * Validates a route configuration (JSON): `{"routes": {<name>: {...}}, "aliases": {<name>: {"route", "model"}},
 * "tenants": {<tenant or *>: {"routes": [...], "aliases": [...]}}}`; docs/configuration.md, "Routes",
 * describes every field. Unknown fields are refused (a typo must not silently drop a limit or an allow-list).
 */
export function parseRouteConfig(json: string): Parsed<RouteConfig> {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return fail('is not JSON');
  }
  if (!isRecord(value)) return fail('must be a JSON object {"routes", "aliases", "tenants"}');
  const unknown = Object.keys(value).find((key) => !TOP_LEVEL.has(key));
  if (unknown !== undefined) return fail(`has an unknown field ${JSON.stringify(unknown)} (routes, aliases, tenants)`);
  const routes = new Map<string, Route>();
  for (const [name, entry] of Object.entries(optionalRecord(value['routes']) ?? {})) {
    const route = parseRoute(name, entry);
    if (!route.ok) return route;
    routes.set(name, route.value);
  }
  if (value['routes'] !== undefined && optionalRecord(value['routes']) === undefined) return fail('routes must be an object of named routes');
  const aliases = new Map<string, ModelAlias>();
  const aliasEntries = optionalRecord(value['aliases']);
  if (value['aliases'] !== undefined && aliasEntries === undefined) return fail('aliases must be an object of named aliases');
  for (const [name, entry] of Object.entries(aliasEntries ?? {})) {
    const alias = parseAlias(name, entry, routes);
    if (!alias.ok) return alias;
    aliases.set(name, alias.value);
  }
  const tenantEntries = optionalRecord(value['tenants']);
  if (value['tenants'] !== undefined && tenantEntries === undefined) return fail('tenants must be an object keyed by tenant');
  const tenants = new Map<string, TenantAccess>();
  for (const [tenant, entry] of Object.entries(tenantEntries ?? {})) {
    const access = parseAccess(tenant, entry, routes, aliases);
    if (!access.ok) return access;
    tenants.set(tenant, access.value);
  }
  return ok({ routes, aliases, tenants });
}

/** A route name usable in `POST /v1/streams/{route}`: a configured route or a protocol name (`PROVIDERS`). */
export function isKnownRoute(name: string, routes: ReadonlyMap<string, Route>): boolean {
  return routes.has(name) || isProviderName(name);
}

function parseRoute(name: string, entry: unknown): Parsed<Route> {
  const at = `route ${JSON.stringify(name)}`;
  if (!isValidRouteName(name)) return fail(`${at}: a route name is [a-z0-9][a-z0-9_-]{0,63}`);
  if (!isRecord(entry)) return fail(`${at} must be an object`);
  const unknown = Object.keys(entry).find((key) => !ROUTE_FIELDS.has(key));
  if (unknown !== undefined) return fail(`${at}: unknown field ${JSON.stringify(unknown)}`);
  const protocol = entry['protocol'];
  if (!isProviderName(protocol)) return fail(`${at}: protocol must be one of ${PROVIDERS.join(', ')}`);
  if (isProviderName(name) && name !== protocol) return fail(`${at}: a route named after a protocol must speak it`);
  const baseUrl = parseBaseUrl(entry['base_url']);
  if (!baseUrl.ok) return fail(`${at}: ${baseUrl.error.message}`);
  const pathStyle = parsePathStyle(entry['path_style'], protocol);
  if (!pathStyle.ok) return fail(`${at}: ${pathStyle.error.message}`);
  const auth = entry['auth'] === undefined ? ok(undefined) : parseAuth(entry['auth']);
  if (!auth.ok) return fail(`${at}: ${auth.error.message}`);
  const headers = parseHeaders(entry['headers'], auth.value);
  if (!headers.ok) return fail(`${at}: ${headers.error.message}`);
  const limits = parseLimits(entry['timeouts'], entry['retry']);
  if (!limits.ok) return fail(`${at}: ${limits.error.message}`);
  return ok({ name, protocol, baseUrl: baseUrl.value, pathStyle: pathStyle.value, auth: auth.value, headers: headers.value, limits: limits.value });
}

const ROUTE_FIELDS = new Set(['protocol', 'base_url', 'path_style', 'auth', 'headers', 'timeouts', 'retry']);

function parseBaseUrl(value: unknown): Parsed<string> {
  if (typeof value !== 'string') return fail('base_url must be an http(s) URL');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail('base_url must be an http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return fail('base_url must be an http(s) URL');
  if (url.username !== '' || url.password !== '') return fail('base_url must not carry credentials (use auth)');
  if (url.search !== '' || url.hash !== '') return fail('base_url must have no query or fragment');
  return ok(value);
}

function parsePathStyle(value: unknown, protocol: ProviderName): Parsed<PathStyle> {
  if (value === undefined || value === 'default') return ok({ kind: 'default' });
  if (!isRecord(value)) return fail('path_style must be "default" or an object {"kind": "azure" | "vertex", ...}');
  switch (value['kind']) {
    case 'default':
      return ok({ kind: 'default' });
    case 'azure': {
      if (protocol !== 'openai-chat' && protocol !== 'openai-responses') return fail('path_style azure needs protocol openai-chat or openai-responses');
      const apiVersion = value['api_version'];
      if (typeof apiVersion !== 'string' || !PLAIN.test(apiVersion)) return fail('path_style azure needs api_version (e.g. "2024-10-21")');
      return ok({ kind: 'azure', apiVersion });
    }
    case 'vertex': {
      if (protocol !== 'gemini') return fail('path_style vertex needs protocol gemini');
      const { project, location } = value;
      if (typeof project !== 'string' || !PLAIN.test(project)) return fail('path_style vertex needs project');
      if (typeof location !== 'string' || !PLAIN.test(location)) return fail('path_style vertex needs location (e.g. "europe-west4")');
      return ok({ kind: 'vertex', project, location });
    }
    default:
      return fail('path_style kind must be default, azure or vertex');
  }
}

function parseAuth(value: unknown): Parsed<RouteAuth> {
  if (!isRecord(value)) return fail('auth must be an object {"header", "scheme"?, "secret": {"env"} | {"file"}}');
  const { header, scheme, secret } = value;
  if (typeof header !== 'string' || !HEADER_NAME.test(header)) return fail('auth.header must be a header name');
  if (RESERVED_HEADERS.has(header.toLowerCase())) return fail(`auth.header ${header} is set by the gateway`);
  if (scheme !== undefined && (typeof scheme !== 'string' || !/^[A-Za-z][A-Za-z0-9-]{0,31}$/.test(scheme))) return fail('auth.scheme must be a word such as Bearer');
  const ref = parseSecretRef(secret);
  if (!ref.ok) return ref;
  return ok({ header: header.toLowerCase(), scheme, secret: ref.value });
}

function parseSecretRef(value: unknown): Parsed<SecretRef> {
  if (!isRecord(value)) return fail('auth.secret must be {"env": "<variable>"} or {"file": "<path>"} (never the secret itself)');
  const keys = Object.keys(value);
  if (keys.length === 1 && typeof value['env'] === 'string' && ENV_NAME.test(value['env'])) return ok({ kind: 'env', variable: value['env'] });
  if (keys.length === 1 && typeof value['file'] === 'string' && value['file'].startsWith('/')) return ok({ kind: 'file', path: value['file'] });
  return fail('auth.secret must be {"env": "<variable>"} or {"file": "<absolute path>"} (never the secret itself)');
}

function parseHeaders(value: unknown, auth: RouteAuth | undefined): Parsed<Readonly<Record<string, string>>> {
  if (value === undefined) return ok({});
  if (!isRecord(value)) return fail('headers must be an object of header names to values');
  const headers: Record<string, string> = {};
  for (const [name, headerValue] of Object.entries(value)) {
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name) || typeof headerValue !== 'string' || !HEADER_VALUE.test(headerValue)) return fail(`headers.${name} must be a header name with a printable string value`);
    if (RESERVED_HEADERS.has(lower)) return fail(`headers.${name} is set by the gateway`);
    if (CREDENTIAL_HEADERS.has(lower) || lower === auth?.header) return fail(`headers.${name} carries a credential: use auth with a secret reference`);
    headers[lower] = headerValue;
  }
  return ok(headers);
}

function parseLimits(timeouts: unknown, retry: unknown): Parsed<RouteLimits> {
  const limits: { -readonly [K in keyof RouteLimits]: RouteLimits[K] } = {};
  const fields = [
    ['timeouts', timeouts, { connect_ms: 'connectTimeoutMs', idle_ms: 'idleTimeoutMs', progress_ms: 'progressTimeoutMs' }, 100, 3_600_000],
    ['retry', retry, { max_attempts: 'maxAttempts' }, 1, 10],
  ] as const;
  for (const [group, value, names, min, max] of fields) {
    if (value === undefined) continue;
    if (!isRecord(value)) return fail(`${group} must be an object`);
    for (const [field, raw] of Object.entries(value)) {
      const key = (names as Readonly<Record<string, keyof RouteLimits>>)[field];
      if (key === undefined) return fail(`${group}: unknown field ${JSON.stringify(field)} (${Object.keys(names).join(', ')})`);
      if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < min || raw > max) return fail(`${group}.${field} must be an integer from ${String(min)} to ${String(max)}`);
      limits[key] = raw;
    }
  }
  return ok(limits);
}

function parseAlias(name: string, entry: unknown, routes: ReadonlyMap<string, Route>): Parsed<ModelAlias> {
  const at = `alias ${JSON.stringify(name)}`;
  // eslint-disable-next-line no-control-regex -- aliases are model names: printable, bounded
  if (!/^[^\u0000-\u001f\u007f]{1,256}$/.test(name)) return fail(`${at}: an alias is a model name (1-256 printable characters)`);
  if (!isRecord(entry) || Object.keys(entry).some((key) => key !== 'route' && key !== 'model')) return fail(`${at} must be {"route", "model"}`);
  const { route, model } = entry;
  if (typeof route !== 'string' || !isKnownRoute(route, routes)) return fail(`${at}: route ${JSON.stringify(route)} is neither a configured route nor a protocol`);
  // eslint-disable-next-line no-control-regex -- the upstream model travels in URLs and headers
  if (typeof model !== 'string' || !/^[^\u0000-\u001f\u007f]{1,256}$/.test(model)) return fail(`${at}: model must be the upstream model name`);
  return ok({ name, route, model });
}

function parseAccess(tenant: string, entry: unknown, routes: ReadonlyMap<string, Route>, aliases: ReadonlyMap<string, ModelAlias>): Parsed<TenantAccess> {
  const at = `tenants.${tenant}`;
  if (tenant !== '*' && !isValidTenant(tenant)) return fail(`${at}: a tenant is [A-Za-z0-9_-]{1,64} (or * for every other tenant)`);
  if (!isRecord(entry) || Object.keys(entry).some((key) => key !== 'routes' && key !== 'aliases')) return fail(`${at} must be {"routes": [...], "aliases": [...]}`);
  const routeNames = stringList(entry['routes']);
  const aliasNames = stringList(entry['aliases']);
  if (routeNames === undefined || aliasNames === undefined) return fail(`${at}: routes and aliases must be arrays of names (empty or absent: none)`);
  const unknownRoute = routeNames.find((name) => !isKnownRoute(name, routes));
  if (unknownRoute !== undefined) return fail(`${at}: unknown route ${JSON.stringify(unknownRoute)}`);
  const unknownAlias = aliasNames.find((name) => !aliases.has(name));
  if (unknownAlias !== undefined) return fail(`${at}: unknown alias ${JSON.stringify(unknownAlias)}`);
  return ok({ routes: new Set(routeNames), aliases: new Set(aliasNames) });
}

function stringList(value: unknown): string[] | undefined {
  if (value === undefined) return [];
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;
}

function optionalRecord(value: unknown): Record<string, unknown> | undefined {
  return isRecord(value) ? value : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
