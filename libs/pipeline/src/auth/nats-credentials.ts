import { randomBytes } from 'node:crypto';
import { PLATFORM_IDENTITIES, tenantUser, type PlatformIdentity, type TenantRole } from './nats-identities.js';

/** A NATS user name and password. */
export interface NatsUserCredentials {
  readonly user: string;
  readonly password: string;
}

/** The password of every user of a generated configuration: the platform's users, then each tenant's. */
export interface NatsCredentials {
  readonly platform: Readonly<Record<PlatformIdentity, NatsUserCredentials>>;
  readonly tenants: Readonly<Record<string, Readonly<Record<TenantRole, NatsUserCredentials>>>>;
}

/** 32 random bytes, base64url: no character the configuration syntax or a URL would need to escape. */
function newPassword(): string {
  return randomBytes(32).toString('base64url');
}

/** Fresh random credentials for the platform's users and for the users of each tenant (quick start, tests). */
export function generateNatsCredentials(tenants: readonly string[]): NatsCredentials {
  const platform = Object.fromEntries(PLATFORM_IDENTITIES.map((identity) => [identity, { user: identity, password: newPassword() }]));
  const tenantUsers = Object.fromEntries(
    tenants.map((tenant) => [
      tenant,
      {
        backend: { user: tenantUser(tenant, 'backend'), password: newPassword() },
        provisioner: { user: tenantUser(tenant, 'provisioner'), password: newPassword() },
      },
    ]),
  );
  return { platform, tenants: tenantUsers } as NatsCredentials;
}
