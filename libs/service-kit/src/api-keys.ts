import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { err, isValidTenant, ok, type Result } from '@llm-stream/contract';

/** Who an API key belongs to, and what it may see and do. */
export interface ApiKeyPrincipal {
  readonly tenant: string;
  /** Whether the HTTP projection may include reasoning blocks (withheld by default). */
  readonly reasoning: boolean;
  /** Whether the client's request (the prompt) is recorded in the raw trace for the audit log (off by default). */
  readonly capturePrompts: boolean;
}

export interface ApiKeysError {
  readonly code: 'invalid_config';
  readonly variable: 'GATEWAY_API_KEYS';
  readonly message: string;
}

/** Keys are stored as SHA-256 digests: the configuration never holds a usable key. */
export type ApiKeyTable = ReadonlyMap<string, ApiKeyPrincipal>;

/** A request that presented no key, or one that is not in the table: the API answers 401 with this code and message. */
export interface Unauthenticated {
  readonly code: 'unauthorized';
  readonly message: string;
}

/** A request after authentication: the guard of a service's HTTP API sets `principal`. */
export type AuthenticatedRequest = IncomingMessage & { principal?: ApiKeyPrincipal };

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/**
 * Parses GATEWAY_API_KEYS (the gateway and the audit log read the same secret): `[{"sha256": "<64 hex>",
 * "tenant": "<[A-Za-z0-9_-]+>", "reasoning": false, "capture_prompts": false}]`. Both flags are optional.
 */
export function parseApiKeys(json: string): Result<ApiKeyTable, ApiKeysError> {
  const fail = (message: string): { readonly ok: false; readonly error: ApiKeysError } =>
    err({ code: 'invalid_config', variable: 'GATEWAY_API_KEYS', message: `invalid configuration: GATEWAY_API_KEYS ${message}` });
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return fail('is not JSON');
  }
  if (!Array.isArray(value)) return fail('must be a JSON array of {sha256, tenant, reasoning}');
  const table = new Map<string, ApiKeyPrincipal>();
  for (const [position, entry] of value.entries()) {
    if (typeof entry !== 'object' || entry === null) return fail(`entry ${String(position)} is not an object`);
    const { sha256, tenant, reasoning, capture_prompts: capturePrompts } = entry as Record<string, unknown>;
    if (typeof sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(sha256)) return fail(`entry ${String(position)}: sha256 must be 64 lowercase hex digits`);
    if (typeof tenant !== 'string' || !isValidTenant(tenant)) return fail(`entry ${String(position)}: tenant must match [A-Za-z0-9_-]{1,64}`);
    if (reasoning !== undefined && typeof reasoning !== 'boolean') return fail(`entry ${String(position)}: reasoning must be true or false`);
    if (capturePrompts !== undefined && typeof capturePrompts !== 'boolean') {
      return fail(`entry ${String(position)}: capture_prompts must be true or false`);
    }
    if (table.has(sha256)) return fail(`entry ${String(position)}: the same key digest appears twice`);
    table.set(sha256, { tenant, reasoning: reasoning === true, capturePrompts: capturePrompts === true });
  }
  return ok(table);
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

/** The accepted keys of a service, provided at start from GATEWAY_API_KEYS. */
export class ApiKeys {
  constructor(readonly table: ApiKeyTable) {}

  /** The principal of the key `headers` present, or why the request is refused. */
  authenticate(headers: IncomingHttpHeaders): Result<ApiKeyPrincipal, Unauthenticated> {
    const key = presentedApiKey(headers);
    const principal = key === undefined ? undefined : principalFor(this.table, key);
    return principal === undefined ? err(UNAUTHENTICATED) : ok(principal);
  }
}
