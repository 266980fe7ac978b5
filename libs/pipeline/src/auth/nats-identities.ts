import { SUBJECT_ROOTS, isValidTenant } from '@llm-stream/contract';
import { NatsAuthError } from './nats-auth-error.js';

/**
 * Who connects to NATS. The services and the provisioner are users of one account, `PLATFORM`, which holds the
 * pipeline's streams. Each tenant has an account of its own holding a copy of its events only: a backend
 * connects as its tenant's `backend-<tenant>` user and cannot name anything of the platform or of another tenant.
 */
export const PLATFORM_ACCOUNT = 'PLATFORM';

/** The services of the pipeline, each its own NATS user. */
export const SERVICE_IDENTITIES = ['gateway', 'normalizer', 'audit-log'] as const;
export type ServiceIdentity = (typeof SERVICE_IDENTITIES)[number];

/** The services and `provisioner`: the platform account's administrator (the operator step). */
export type PlatformIdentity = ServiceIdentity | 'provisioner';
export const PLATFORM_IDENTITIES: readonly PlatformIdentity[] = [...SERVICE_IDENTITIES, 'provisioner'];

/** The users of one tenant's account: its backends, and the administrator that creates its stream. */
export type TenantRole = 'backend' | 'provisioner';

export function isServiceIdentity(value: string): value is ServiceIdentity {
  return (SERVICE_IDENTITIES as readonly string[]).includes(value);
}

/** The NATS account of a tenant. */
export function tenantAccount(tenant: string): string {
  return `TENANT_${checkedTenant(tenant)}`;
}

/** User names are global on a server: a tenant's users carry the tenant in theirs. */
export function tenantUser(tenant: string, role: TenantRole): string {
  return `${role}-${checkedTenant(tenant)}`;
}

/**
 * All of one tenant's events (`llm.events.<tenant>.>`): what the platform exports to the tenant's account alone,
 * what that account's `LLM_EVENTS` stores and what its backend may subscribe to.
 */
export function tenantEventsSubjects(tenant: string): string {
  return `${SUBJECT_ROOTS.events}.${checkedTenant(tenant)}.>`;
}

/**
 * Inside the platform account every user has its own inbox prefix (the client's `inboxPrefix`), and may
 * subscribe to no other: a service cannot read the replies (JetStream API answers, pulled messages) of another.
 */
export function inboxPrefixOf(user: string): string {
  return `_INBOX_${user}`;
}

function checkedTenant(tenant: string): string {
  // A tenant becomes a subject token and a part of names in the server's configuration.
  if (!isValidTenant(tenant)) throw new NatsAuthError('invalid_tenant', `not a valid tenant: ${JSON.stringify(tenant)}`);
  return tenant;
}

/** The JetStream API subject of the tenant copy's stream info, inside the tenant's account. */
export const TENANT_COPY_INFO_API = '$JS.API.STREAM.INFO.LLM_EVENTS';

/**
 * Where the platform asks for the stream info of one tenant's copy of its events (a service the tenant's account
 * exports to the platform alone: counts, no content), so the event publisher can prove the copy complete too.
 */
export function tenantCopyInfoSubject(tenant: string): string {
  return `llm.tenant-copies.${tenant}.info`;
}
