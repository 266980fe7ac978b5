import type { ConnectionOptions } from '@nats-io/nats-core';
import { PLATFORM_IDENTITIES, inboxPrefixOf } from './nats-identities.js';

/** TLS to NATS: the CA the server's certificate must chain to, and a client certificate when the server asks for one. */
export interface NatsClientTls {
  readonly caFile?: string;
  readonly certFile?: string;
  readonly keyFile?: string;
}

/** How a connection authenticates: the NATS user and password of its identity, and TLS. */
export interface NatsConnectionAuth {
  /** The NATS user (`gateway`, `normalizer`, `audit-log`, `provisioner`); unset: anonymous (a server without authorization). */
  readonly user?: string;
  readonly password?: string;
  /** TLS settings; a `tls://` server URL also turns TLS on (verified against the system's CAs without `caFile`). */
  readonly tls?: NatsClientTls;
}

/**
 * The nats.js connection options of {@link NatsConnectionAuth}. A platform user gets its own inbox prefix,
 * the only one its permissions let it subscribe to; a tenant's users keep `_INBOX` (their account is their own).
 */
export function connectionAuthOptions(auth: NatsConnectionAuth): Partial<ConnectionOptions> {
  const tls = auth.tls;
  return {
    ...(auth.user === undefined ? {} : { user: auth.user, pass: auth.password ?? '' }),
    ...(auth.user !== undefined && (PLATFORM_IDENTITIES as readonly string[]).includes(auth.user) ? { inboxPrefix: inboxPrefixOf(auth.user) } : {}),
    ...(tls === undefined
      ? {}
      : {
          tls: {
            ...(tls.caFile === undefined ? {} : { caFile: tls.caFile }),
            ...(tls.certFile === undefined ? {} : { certFile: tls.certFile }),
            ...(tls.keyFile === undefined ? {} : { keyFile: tls.keyFile }),
          },
        }),
  };
}
