import type { NatsConnection } from '@nats-io/nats-core';
import type { NatsUserCredentials } from './nats-credentials.js';
import { connectNats, type NatsClientTls } from './nats-connection-auth.js';

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
  const { user, ...connection } = options;
  return connectNats({ ...connection, user: user.user, password: user.password });
}
