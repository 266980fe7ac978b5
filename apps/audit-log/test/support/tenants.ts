import { createHash } from 'node:crypto';

/** Test tenants and their API keys (the same keys work on the gateway and the audit log). */
export const ACME = { tenant: 'acme', key: 'test-key-acme' } as const;
export const GLOBEX = { tenant: 'globex', key: 'test-key-globex' } as const;

/** More keys of tenant acme, one per audit scope and policy (scoped-audit.spec). */
export const ACME_SCOPED = {
  /** `audit:read`, reasoning policy off: the gateway's projection. */
  read: 'test-key-acme-audit-read',
  /** `audit:read` with the reasoning policy on: sees what the gateway shows it, reasoning included. */
  readReasoning: 'test-key-acme-audit-read-reasoning',
  /** `streams` only: no audit route. */
  streamsOnly: 'test-key-acme-streams-only',
} as const;

const digest = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

/**
 * GATEWAY_API_KEYS: acme's and globex's main keys create streams and read the audit log's full truth (what
 * most suites compare); globex's has the gateway record its prompts (capture_prompts).
 */
export const API_KEYS = JSON.stringify([
  ...[ACME, GLOBEX].map(({ tenant, key }) => ({
    sha256: digest(key),
    tenant,
    capture_prompts: tenant === GLOBEX.tenant,
    scopes: ['streams', 'audit:full'],
  })),
  { sha256: digest(ACME_SCOPED.read), tenant: ACME.tenant, scopes: ['audit:read'] },
  { sha256: digest(ACME_SCOPED.readReasoning), tenant: ACME.tenant, reasoning: true, scopes: ['audit:read'] },
  { sha256: digest(ACME_SCOPED.streamsOnly), tenant: ACME.tenant, scopes: ['streams'] },
]);
