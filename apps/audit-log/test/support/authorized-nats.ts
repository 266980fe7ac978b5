import type { NatsConnection } from '@nats-io/transport-node';
import {
  connectNatsUser,
  generateNatsCredentials,
  natsAuthServerConfig,
  provisionPipeline,
  type NatsCredentials,
  type PlatformIdentity,
  type ServiceIdentity,
} from '@llm-stream/pipeline';
import { startNatsServer, type NatsServerHandle } from '@llm-stream/testing';
import { ACME, GLOBEX } from './tenants.js';

/**
 * The suites' nats-server as every shipped deployment runs it: the generated authorization configuration with
 * fresh credentials for the test tenants, provisioned (the operator step) before any service starts. Each
 * service connects as its own NATS user; the tests' own publishing and checks connect as the provisioner.
 */
export interface AuthorizedNats {
  readonly server: NatsServerHandle;
  readonly url: string;
  readonly credentials: NatsCredentials;
  /** NATS_URL, NATS_USER and NATS_PASSWORD of a service. */
  serviceEnv(identity: ServiceIdentity): Readonly<Record<string, string>>;
  /** A connection as a platform user (the provisioner for the tests' own publishing, a service for its view). */
  connectAs(identity: PlatformIdentity): Promise<NatsConnection>;
  /** Closes the connections opened with {@link connectAs} that are still open, then stops the server. */
  stop(): Promise<void>;
}

export async function startAuthorizedNats(): Promise<AuthorizedNats> {
  const credentials = generateNatsCredentials([ACME.tenant, GLOBEX.tenant]);
  const server = await startNatsServer({
    config: natsAuthServerConfig({ credentials }),
    provision: (url) => provisionPipeline({ servers: [url], credentials }),
  });
  const opened: NatsConnection[] = [];
  return {
    server,
    url: server.url,
    credentials,
    serviceEnv: (identity) => ({ NATS_URL: server.url, NATS_USER: identity, NATS_PASSWORD: credentials.platform[identity].password }),
    connectAs: async (identity) => {
      const nc = await connectNatsUser({ servers: [server.url], name: `test-${identity}`, user: credentials.platform[identity] });
      opened.push(nc);
      return nc;
    },
    stop: async () => {
      await Promise.all(opened.filter((nc) => !nc.isClosed()).map((nc) => nc.close()));
      await server.stop();
    },
  };
}
