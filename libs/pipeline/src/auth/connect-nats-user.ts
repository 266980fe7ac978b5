import type { NatsConnection } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import type { NatsUserCredentials } from './nats-credentials.js';
import { connectionAuthOptions, type NatsClientTls } from './nats-connection-auth.js';

/** What {@link connectNatsUser} needs. */
export interface ConnectNatsUserOptions {
  readonly servers: readonly string[];
  /** Connection name (the server's `/connz` shows it). */
  readonly name: string;
  readonly user: NatsUserCredentials;
  readonly tls?: NatsClientTls;
  /** Default -1: the connection outlives a NATS restart. */
  readonly maxReconnectAttempts?: number;
  readonly reconnectTimeWait?: number;
}

/** A plain NATS connection as one user of a generated configuration (the provisioner, a backend, a test's observer). */
export function connectNatsUser(options: ConnectNatsUserOptions): Promise<NatsConnection> {
  const { user, tls } = options;
  return connect({
    servers: [...options.servers],
    name: options.name,
    maxReconnectAttempts: options.maxReconnectAttempts ?? -1,
    reconnectTimeWait: options.reconnectTimeWait ?? 250,
    ...connectionAuthOptions({ user: user.user, password: user.password, ...(tls === undefined ? {} : { tls }) }),
  });
}
