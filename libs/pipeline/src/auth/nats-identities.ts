import { STREAM_NAMES, SUBJECT_ROOTS, isValidTenant } from '@llm-stream/contract';
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

/**
 * Where a tenant's account reaches the platform's JetStream API: the one consumer-create subject its copy's
 * stream source uses (see {@link tenantCopyConsumerCreateSubject}), which the platform exports to that account
 * alone and the account imports under this prefix (the source's `external.api`). No user of the account may
 * publish under it: the stream source runs on the account's internal client.
 */
export const PLATFORM_API_IN_TENANT = '$JS.PLATFORM.API';

/**
 * The consumer-create subject (extended form: stream, consumer name, filter) that a stream source filtered on
 * `llm.events.<tenant>.>` uses on the platform's `LLM_EVENTS`. Exported to the tenant's account alone, it lets
 * that account create consumers of its own tenant's events and nothing else: the server refuses a create whose
 * body names another filter than its subject (nats-server 2.9.10: "did not match filtered subject").
 */
export function tenantCopyConsumerCreateSubject(tenant: string): string {
  return `$JS.API.CONSUMER.CREATE.${STREAM_NAMES.events}.*.${tenantEventsSubjects(tenant)}`;
}

/** Where the platform delivers a tenant's events to its copy's source (a stream export to that account alone). */
export function tenantCopyDeliverPrefix(tenant: string): string {
  return `llm.copy-deliver.${checkedTenant(tenant)}`;
}

/**
 * The flow-control subjects of push consumers on the platform's `LLM_EVENTS`: a stream source answers the
 * consumer's flow-control requests there, so the platform exports them to the tenants' accounts as a service.
 * Without it a source stalls once the consumer's pending window fills (about 2 MB on nats-server 2.9.10).
 */
export const EVENTS_FLOW_CONTROL_SUBJECTS = `$JS.FC.${STREAM_NAMES.events}.>`;
