import { createHash } from 'node:crypto';
import { err, isValidTenant, ok, type Result } from '@llm-stream/contract';

/** Who a gateway API key belongs to, and what it may see. */
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

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/**
 * Parses GATEWAY_API_KEYS: `[{"sha256": "<64 hex>", "tenant": "<[A-Za-z0-9_-]+>", "reasoning": false,
 * "capture_prompts": false}]`.
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
