import type { NatsCredentials, NatsUserCredentials } from './nats-credentials.js';
import { PLATFORM_ACCOUNT, PLATFORM_IDENTITIES, TENANT_COPY_INFO_API, tenantAccount, tenantCopyInfoSubject, tenantEventsSubjects } from './nats-identities.js';
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

/**
 * The authorization part of a nats-server configuration (JSON, which the server's configuration syntax
 * accepts): the `PLATFORM` account with one user per service and the provisioner, and one account per tenant
 * with its backend and provisioner users. The platform exports each tenant's events (`llm.events.<tenant>.>`,
 * a stream export) to that tenant's account alone, where the tenant's own `LLM_EVENTS` stream stores them
 * (created by `provisionPipeline`). Server settings (ports, store directory) come from the command line or
 * are merged by the caller.
 *
 * Server features relied on, all in nats-server 2.9.10 and later: accounts with `jetstream: enabled`, user
 * publish/subscribe allow and deny lists, stream exports restricted to named accounts and their imports, and
 * a JetStream stream capturing imported subjects, and a service export (the tenant copy's stream info, to the
 * platform alone) with a service import under another local subject (`to`).
 */
export function natsAuthServerConfig(options: NatsAuthServerConfigOptions): string {
  const { credentials } = options;
  const tenants = Object.entries(credentials.tenants);
  const accounts: Record<string, object> = {
    [PLATFORM_ACCOUNT]: {
      jetstream: 'enabled',
      users: PLATFORM_IDENTITIES.map((identity) => user(credentials.platform[identity], platformPermissions(identity))),
      exports: tenants.map(([tenant]) => ({ stream: tenantEventsSubjects(tenant), accounts: [tenantAccount(tenant)] })),
      // Each tenant copy's stream info (counts only), for the event publisher's proof that the copy is complete.
      imports: tenants.map(([tenant]) => ({ service: { account: tenantAccount(tenant), subject: TENANT_COPY_INFO_API }, to: tenantCopyInfoSubject(tenant) })),
    },
  };
  for (const [tenant, users] of tenants) {
    accounts[tenantAccount(tenant)] = {
      jetstream: 'enabled',
      users: [user(users.backend, backendPermissions(tenant)), user(users.provisioner, tenantProvisionerPermissions())],
      imports: [{ stream: { account: PLATFORM_ACCOUNT, subject: tenantEventsSubjects(tenant) } }],
      exports: [{ service: TENANT_COPY_INFO_API, accounts: [PLATFORM_ACCOUNT] }],
    };
  }
  const config: Record<string, object> = { accounts };
  if (options.tls !== undefined) {
    const { certFile, keyFile, caFile } = options.tls;
    config['tls'] = { cert_file: certFile, key_file: keyFile, ...(caFile === undefined ? {} : { ca_file: caFile, verify: true }) };
  }
  return `${JSON.stringify(config, null, 2)}\n`;
}
