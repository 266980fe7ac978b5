import type { NatsCredentials, NatsUserCredentials } from './nats-credentials.js';
import {
  EVENTS_FLOW_CONTROL_SUBJECTS,
  PLATFORM_ACCOUNT,
  PLATFORM_API_IN_TENANT,
  PLATFORM_IDENTITIES,
  tenantAccount,
  tenantCopyConsumerCreateSubject,
  tenantCopyDeliverPrefix,
  tenantEventsSubjects,
} from './nats-identities.js';
import { backendPermissions, platformPermissions, tenantProvisionerPermissions, type SubjectPermissions } from './nats-permissions.js';

/** TLS of the client port: the server's certificate, and the CA that client certificates must chain to. */
export interface NatsServerTls {
  readonly certFile: string;
  readonly keyFile: string;
  /** With it, clients must present a certificate signed by this CA (`verify: true`). */
  readonly caFile?: string;
}

/** What {@link natsAuthServerConfig} renders. */
export interface NatsAuthServerConfigOptions {
  readonly credentials: NatsCredentials;
  readonly tls?: NatsServerTls;
}

function user({ user: name, password }: NatsUserCredentials, permissions: SubjectPermissions): object {
  return { user: name, password, permissions };
}

/** The platform's exports to one tenant's account: its live events, and what its copy's stream source uses. */
function exportsTo(tenant: string): object[] {
  const accounts = [tenantAccount(tenant)];
  return [
    { stream: tenantEventsSubjects(tenant), accounts },
    { service: tenantCopyConsumerCreateSubject(tenant), accounts },
    { stream: `${tenantCopyDeliverPrefix(tenant)}.>`, accounts },
  ];
}

/** A tenant account's imports of its exports, the consumer create under {@link PLATFORM_API_IN_TENANT}. */
function importsOf(tenant: string): object[] {
  const createSubject = tenantCopyConsumerCreateSubject(tenant);
  return [
    { stream: { account: PLATFORM_ACCOUNT, subject: tenantEventsSubjects(tenant) } },
    { service: { account: PLATFORM_ACCOUNT, subject: createSubject }, to: createSubject.replace('$JS.API', PLATFORM_API_IN_TENANT) },
    { stream: { account: PLATFORM_ACCOUNT, subject: `${tenantCopyDeliverPrefix(tenant)}.>` } },
    { service: { account: PLATFORM_ACCOUNT, subject: EVENTS_FLOW_CONTROL_SUBJECTS } },
  ];
}

/**
 * The authorization part of a nats-server configuration (JSON, which the server's configuration syntax
 * accepts): the `PLATFORM` account with one user per service and the provisioner, and one account per tenant
 * with its backend and provisioner users. Each tenant's account holds a copy of that tenant's events, its own
 * `LLM_EVENTS` (created by `provisionPipeline`), fed by a JetStream stream source from the platform's
 * `LLM_EVENTS`: a consumer with a position, which resumes where it stopped after a restart, so the copy never
 * misses an event the platform stored. The platform exports to each tenant's account alone its live events
 * (core subscriptions of its backends), the consumer-create subject pinned to its events' filter, the
 * delivery subjects of that consumer, and (to all tenants) the flow-control subjects of the events stream.
 * Server settings (ports, store directory) come from the command line or are merged by the caller.
 *
 * Server features relied on, in nats-server 2.9.10 (tested here) and later: accounts with `jetstream:
 * enabled`, user publish/subscribe allow and deny lists, stream and service exports restricted to named
 * accounts, service imports under another local subject (`to`), a stream source in another account
 * (`external.api`, `external.deliver`) creating its consumer with the extended create subject that carries
 * the filter, and the server refusing a create whose body's filter differs from that subject's.
 */
export function natsAuthServerConfig(options: NatsAuthServerConfigOptions): string {
  const { credentials } = options;
  const tenants = Object.keys(credentials.tenants);
  const flowControl = tenants.length === 0 ? [] : [{ service: EVENTS_FLOW_CONTROL_SUBJECTS, accounts: tenants.map(tenantAccount) }];
  const accounts: Record<string, object> = {
    [PLATFORM_ACCOUNT]: {
      jetstream: 'enabled',
      users: PLATFORM_IDENTITIES.map((identity) => user(credentials.platform[identity], platformPermissions(identity))),
      exports: [...tenants.flatMap(exportsTo), ...flowControl],
    },
  };
  for (const [tenant, users] of Object.entries(credentials.tenants)) {
    accounts[tenantAccount(tenant)] = {
      jetstream: 'enabled',
      users: [user(users.backend, backendPermissions(tenant)), user(users.provisioner, tenantProvisionerPermissions())],
      imports: importsOf(tenant),
    };
  }
  const config: Record<string, object> = { accounts };
  if (options.tls !== undefined) {
    const { certFile, keyFile, caFile } = options.tls;
    config['tls'] = { cert_file: certFile, key_file: keyFile, ...(caFile === undefined ? {} : { ca_file: caFile, verify: true }) };
  }
  return `${JSON.stringify(config, null, 2)}\n`;
}
