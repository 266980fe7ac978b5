import { createHash } from 'node:crypto';

/** Test tenants and their API keys (the same keys work on the gateway and the audit log). */
export const ACME = { tenant: 'acme', key: 'test-key-acme' } as const;
export const GLOBEX = { tenant: 'globex', key: 'test-key-globex' } as const;

/** GATEWAY_API_KEYS for both tenants: globex's key has the gateway record its prompts (capture_prompts). */
export const API_KEYS = JSON.stringify(
  [ACME, GLOBEX].map(({ tenant, key }) => ({
    sha256: createHash('sha256').update(key, 'utf8').digest('hex'),
    tenant,
    capture_prompts: tenant === GLOBEX.tenant,
  })),
);
