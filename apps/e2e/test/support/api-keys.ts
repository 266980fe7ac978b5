import { createHash } from 'node:crypto';

/** The gateway API keys of the suites: two tenants, and a second key of the first that may see reasoning. */
export const API_KEYS = {
  /** Tenant `acme`, reasoning withheld (the default policy). */
  acme: 'e2e-key-acme-4f1c9b',
  /** Tenant `acme`, reasoning allowed. */
  acmeReasoning: 'e2e-key-acme-reasoning-77d2e0',
  /** Tenant `globex`: must never see acme's streams. */
  globex: 'e2e-key-globex-a03b5e',
} as const;

export type KeyName = keyof typeof API_KEYS;

export const TENANT_OF: Readonly<Record<KeyName, string>> = { acme: 'acme', acmeReasoning: 'acme', globex: 'globex' };

/**
 * The provider API key every gateway of the suites sends upstream (the replay provider requires it). A value
 * no test writes anywhere else, so finding it in a NATS message or a log line proves a leak.
 */
export const PROVIDER_KEY_CANARY = 'sk-canary-9c8e1f3a7b2d4e6f';

/** Hashed as the gateway hashes a presented key (SHA-256 of the UTF-8 key, lowercase hex). */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** GATEWAY_API_KEYS for the keys above. */
export function gatewayApiKeysEnv(): string {
  return JSON.stringify([
    { sha256: sha256Hex(API_KEYS.acme), tenant: TENANT_OF.acme },
    { sha256: sha256Hex(API_KEYS.acmeReasoning), tenant: TENANT_OF.acmeReasoning, reasoning: true },
    { sha256: sha256Hex(API_KEYS.globex), tenant: TENANT_OF.globex },
  ]);
}
