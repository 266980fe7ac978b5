import type { ConnectionOptions, NatsConnection } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
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

/** A connection of one identity: where, under which name, how it reconnects, and its user and TLS. */
export interface NatsConnectOptions extends NatsConnectionAuth {
  readonly servers: readonly string[];
  /** Connection name (the server's `/connz` shows it). */
  readonly name: string;
  /** Default -1: the connection outlives a NATS restart. */
  readonly maxReconnectAttempts?: number;
  /** Wait between reconnect attempts to one server, in ms; default 250. */
  readonly reconnectTimeWait?: number;
}

/**
 * Connects as one identity: the one way the pipeline's processes and threads open a NATS connection.
 *
 * Without async traces: by default nats.js builds an Error, with its stack, when each request starts (to name
 * the caller should it fail) and another for its timeout, whether or not it fails; every acked publish and
 * JetStream API call is a request. In a profile of the paced load with 400 short streams those constructors
 * were 5.7 % of the normalizer's CPU (RequestError 4.6 %, TimeoutError 1.1 %) and 2-3 % of the gateway's. A
 * failed request keeps its class, message and cause; only the caller's frames are missing from its stack.
 */
export function connectNats(options: NatsConnectOptions): Promise<NatsConnection> {
  return connect({
    servers: [...options.servers],
    name: options.name,
    maxReconnectAttempts: options.maxReconnectAttempts ?? -1,
    reconnectTimeWait: options.reconnectTimeWait ?? 250,
    noAsyncTraces: true,
    ...connectionAuthOptions(options),
  });
}
