/**
 * What a gateway API key may do:
 * - `streams`: create, resume and cancel streams on the gateway;
 * - `audit:read`: read its tenant's audit records with the gateway's projection (reasoning withheld unless the
 *   key's `reasoning` policy is on, and a raw frame that carries withheld content replaced by a placeholder);
 * - `audit:full`: the full truth of its tenant's audit records, for auditors.
 */
export const API_KEY_SCOPES = ['streams', 'audit:read', 'audit:full'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** A key entry without `scopes`: what every key could do before scopes existed, so old configurations keep working. */
export const DEFAULT_API_KEY_SCOPES: readonly ApiKeyScope[] = ['streams', 'audit:read'];

export function isApiKeyScope(value: unknown): value is ApiKeyScope {
  return typeof value === 'string' && (API_KEY_SCOPES as readonly string[]).includes(value);
}
