import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { err, isValidTenant, ok, type Result } from '@llm-stream/contract';
import { API_KEY_SCOPES, DEFAULT_API_KEY_SCOPES, isApiKeyScope, type ApiKeyScope } from './api-key-scopes.js';

/** Who an API key belongs to, and what it may see and do. */
export interface ApiKeyPrincipal {
  readonly tenant: string;
  /** Whether the HTTP projection may include reasoning blocks (withheld by default). */
  readonly reasoning: boolean;
  /** Whether the client's request (the prompt) is recorded in the raw trace for the audit log (off by default). */
  readonly capturePrompts: boolean;
  /** What the key may do: see {@link ApiKeyScope}. */
  readonly scopes: ReadonlySet<ApiKeyScope>;
}

/** Where a key table came from: the environment variable or the key file (GATEWAY_API_KEYS_FILE). */
export type ApiKeysSource = 'GATEWAY_API_KEYS' | 'GATEWAY_API_KEYS_FILE';

export interface ApiKeysError {
  readonly code: 'invalid_config';
  readonly variable: ApiKeysSource;
  readonly message: string;
}

/** Keys are stored as SHA-256 digests: the configuration never holds a usable key. */
export type ApiKeyTable = ReadonlyMap<string, ApiKeyPrincipal>;

/** A request that presented no key, or one that is not in the table: the API answers 401 with this code and message. */
export interface Unauthenticated {
  readonly code: 'unauthorized';
  readonly message: string;
}

/** A known key without a scope the route needs: the API answers 403 with this code and message. */
export interface InsufficientScope {
  readonly code: 'insufficient_scope';
  readonly message: string;
}

/** A request after authentication: the guard of a service's HTTP API sets `principal`. */
export type AuthenticatedRequest = IncomingMessage & { principal?: ApiKeyPrincipal };

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/**
 * Parses a key table (GATEWAY_API_KEYS, or the file GATEWAY_API_KEYS_FILE names; the gateway and the audit log
 * read the same secret): `[{"sha256": "<64 hex>", "tenant": "<[A-Za-z0-9_-]+>", "reasoning": false,
 * "capture_prompts": false, "scopes": ["streams", "audit:read"]}]`. Flags and scopes are optional; an entry
 * without `scopes` gets {@link DEFAULT_API_KEY_SCOPES}, what every key could do before scopes existed.
 */
export function parseApiKeys(json: string, source: ApiKeysSource = 'GATEWAY_API_KEYS'): Result<ApiKeyTable, ApiKeysError> {
  const fail = (message: string): { readonly ok: false; readonly error: ApiKeysError } =>
    err({ code: 'invalid_config', variable: source, message: `invalid configuration: ${source} ${message}` });
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return fail('is not JSON');
  }
  if (!Array.isArray(value)) return fail('must be a JSON array of {sha256, tenant, reasoning, capture_prompts, scopes}');
  const table = new Map<string, ApiKeyPrincipal>();
  for (const [position, entry] of value.entries()) {
    const at = `entry ${String(position)}`;
    if (typeof entry !== 'object' || entry === null) return fail(`${at} is not an object`);
    const { sha256, tenant, reasoning, capture_prompts: capturePrompts, scopes } = entry as Record<string, unknown>;
    if (typeof sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(sha256)) return fail(`${at}: sha256 must be 64 lowercase hex digits`);
    if (typeof tenant !== 'string' || !isValidTenant(tenant)) return fail(`${at}: tenant must match [A-Za-z0-9_-]{1,64}`);
    if (reasoning !== undefined && typeof reasoning !== 'boolean') return fail(`${at}: reasoning must be true or false`);
    if (capturePrompts !== undefined && typeof capturePrompts !== 'boolean') return fail(`${at}: capture_prompts must be true or false`);
    const parsedScopes = parseScopes(scopes);
    if (parsedScopes === undefined) return fail(`${at}: scopes must be a non-empty array of ${API_KEY_SCOPES.join(', ')}`);
    if (table.has(sha256)) return fail(`${at}: the same key digest appears twice`);
    table.set(sha256, { tenant, reasoning: reasoning === true, capturePrompts: capturePrompts === true, scopes: parsedScopes });
  }
  return ok(table);
}

function parseScopes(value: unknown): ReadonlySet<ApiKeyScope> | undefined {
  if (value === undefined) return new Set(DEFAULT_API_KEY_SCOPES);
  if (!Array.isArray(value) || value.length === 0 || !value.every(isApiKeyScope)) return undefined;
  return new Set(value);
}

/** The principal of a presented key, if it is one of ours. */
export function principalFor(table: ApiKeyTable, presentedKey: string): ApiKeyPrincipal | undefined {
  return table.get(sha256Hex(presentedKey));
}

/** The key a request presents: `Authorization: Bearer <key>` (scheme in any case), else `x-api-key: <key>`. */
export function presentedApiKey(headers: IncomingHttpHeaders): string | undefined {
  const authorization = headers.authorization;
  if (typeof authorization === 'string' && /^Bearer\s+\S+$/i.test(authorization)) return authorization.replace(/^Bearer\s+/i, '');
  const apiKey = headers['x-api-key'];
  return typeof apiKey === 'string' && apiKey !== '' ? apiKey : undefined;
}

const UNAUTHENTICATED: Unauthenticated = { code: 'unauthorized', message: 'a valid API key is required (Authorization: Bearer <key>)' };

/**
 * The accepted keys of a service: from GATEWAY_API_KEYS at start, or from the key file, whose watcher
 * {@link ApiKeys.replace}s the table when the file changes. A request is checked against the table of the moment.
 */
export class ApiKeys {
  private current: ApiKeyTable;

  constructor(table: ApiKeyTable) {
    this.current = table;
  }

  get table(): ApiKeyTable {
    return this.current;
  }

  /** A new set of keys takes effect for the next request (a rotated file). */
  replace(table: ApiKeyTable): void {
    this.current = table;
  }

  /** The principal of the key `headers` present, or why the request is refused. */
  authenticate(headers: IncomingHttpHeaders): Result<ApiKeyPrincipal, Unauthenticated> {
    const key = presentedApiKey(headers);
    const principal = key === undefined ? undefined : principalFor(this.current, key);
    return principal === undefined ? err(UNAUTHENTICATED) : ok(principal);
  }

  /** As {@link authenticate}, and the key must hold one of `anyOf` (403 `insufficient_scope` otherwise). */
  authorize(headers: IncomingHttpHeaders, anyOf: readonly ApiKeyScope[]): Result<ApiKeyPrincipal, Unauthenticated | InsufficientScope> {
    const authenticated = this.authenticate(headers);
    if (!authenticated.ok) return authenticated;
    if (anyOf.some((scope) => authenticated.value.scopes.has(scope))) return authenticated;
    return err({ code: 'insufficient_scope', message: `this key lacks the scope this route needs: ${anyOf.join(' or ')}` });
  }
}
