import type { NatsConnection } from '@nats-io/transport-node';
import {
  connectNatsUser,
  generateNatsCredentials,
  natsAuthServerConfig,
  provisionPipeline,
  type NatsCredentials,
  type NatsUserCredentials,
  type ServiceIdentity,
} from '@llm-stream/pipeline';
import { startNatsServer, type NatsServerHandle } from '@llm-stream/testing';
import { TENANT_OF } from './api-keys.js';

/**
 * The suites' nats-server as every shipped deployment runs it: the generated authorization configuration with
 * fresh credentials for the suites' tenants, provisioned (the operator step) before any service starts.
 */
export interface SecuredNats {
  readonly server: NatsServerHandle;
  readonly credentials: NatsCredentials;
  /** NATS_URL, NATS_USER and NATS_PASSWORD of a service. */
  serviceEnv(identity: ServiceIdentity): Readonly<Record<string, string>>;
  /** A connection as `user` (the provisioner for the tests' own checks, a tenant's backend for its view). */
  connectAs(user: NatsUserCredentials, name: string): Promise<NatsConnection>;
}

export async function startSecuredNats(): Promise<SecuredNats> {
  const credentials = generateNatsCredentials([...new Set(Object.values(TENANT_OF))]);
  const server = await startNatsServer({
    config: natsAuthServerConfig({ credentials }),
    provision: (url) => provisionPipeline({ servers: [url], credentials }),
  });
  return {
    server,
    credentials,
    serviceEnv: (identity) => ({ NATS_URL: server.url, NATS_USER: identity, NATS_PASSWORD: credentials.platform[identity].password }),
    connectAs: (user, name) => connectNatsUser({ servers: [server.url], name, user }),
  };
}
