import { err, isValidTenant, ok, type Result } from '@llm-stream/contract';
import type { NatsCredentials, NatsUserCredentials } from './nats-credentials.js';
import { PLATFORM_IDENTITIES, tenantUser, type TenantRole } from './nats-identities.js';

/** Why a credentials file is not one: where, and what is wrong. */
export interface NatsCredentialsError {
  readonly code: 'invalid_credentials';
  readonly message: string;
}

const TENANT_ROLES: readonly TenantRole[] = ['backend', 'provisioner'];

function invalid(message: string): Result<never, NatsCredentialsError> {
  return err({ code: 'invalid_credentials', message });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function userAt(value: unknown, path: string, expectedUser: string): Result<NatsUserCredentials, NatsCredentialsError> {
  if (!isRecord(value)) return invalid(`${path} must be an object with user and password`);
  const { user, password } = value;
  if (user !== expectedUser) return invalid(`${path}.user must be ${JSON.stringify(expectedUser)}`);
  if (typeof password !== 'string' || password.length < 16) return invalid(`${path}.password must be a string of at least 16 characters`);
  return ok({ user, password });
}

/**
 * Reads a credentials file (the JSON `llm-stream nats-credentials` prints, kept in a Secret): a password for
 * every platform identity and for both users of each tenant, user names as the configuration spells them.
 */
export function parseNatsCredentials(text: string): Result<NatsCredentials, NatsCredentialsError> {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return invalid('not JSON');
  }
  if (!isRecord(document) || !isRecord(document['platform']) || !isRecord(document['tenants'])) return invalid('must be an object with platform and tenants');
  const platformDocument = document['platform'];
  const platform: Record<string, NatsUserCredentials> = {};
  for (const identity of PLATFORM_IDENTITIES) {
    const parsed = userAt(platformDocument[identity], `platform.${identity}`, identity);
    if (!parsed.ok) return parsed;
    platform[identity] = parsed.value;
  }
  const tenants: Record<string, Record<TenantRole, NatsUserCredentials>> = {};
  for (const [tenant, users] of Object.entries(document['tenants'])) {
    if (!isValidTenant(tenant)) return invalid(`tenants: ${JSON.stringify(tenant)} is not a valid tenant`);
    if (!isRecord(users)) return invalid(`tenants.${tenant} must be an object with backend and provisioner`);
    const roles: Partial<Record<TenantRole, NatsUserCredentials>> = {};
    for (const role of TENANT_ROLES) {
      const parsed = userAt(users[role], `tenants.${tenant}.${role}`, tenantUser(tenant, role));
      if (!parsed.ok) return parsed;
      roles[role] = parsed.value;
    }
    tenants[tenant] = roles as Record<TenantRole, NatsUserCredentials>;
  }
  return ok({ platform: platform as NatsCredentials['platform'], tenants });
}
