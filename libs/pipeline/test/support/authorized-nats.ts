import type { NatsConnection } from '@nats-io/transport-node';
import { startNatsServer, type NatsServerHandle } from '@llm-stream/testing';
import { connectNatsUser } from '../../src/auth/connect-nats-user.js';
import type { NatsClientTls } from '../../src/auth/nats-connection-auth.js';
import { generateNatsCredentials, type NatsCredentials, type NatsUserCredentials } from '../../src/auth/nats-credentials.js';
import { natsAuthServerConfig, type NatsServerTls } from '../../src/auth/nats-server-config.js';
import { provisionPipeline } from '../../src/auth/provision-pipeline.js';

/** A nats-server running the shipped authorization configuration, provisioned, with fresh credentials. */
export interface AuthorizedNats {
  readonly server: NatsServerHandle;
  readonly credentials: NatsCredentials;
  connectAs(user: NatsUserCredentials): Promise<NatsConnection>;
  stop(): Promise<void>;
}

export async function startAuthorizedNats(tenants: readonly string[], tls?: { readonly server: NatsServerTls; readonly client: NatsClientTls }): Promise<AuthorizedNats> {
  const credentials = generateNatsCredentials(tenants);
  const clientTls = tls === undefined ? {} : { tls: tls.client };
  const server = await startNatsServer({
    config: natsAuthServerConfig({ credentials, ...(tls === undefined ? {} : { tls: tls.server }) }),
    provision: (url) => provisionPipeline({ servers: [url], credentials, ...clientTls }),
  });
  const opened: NatsConnection[] = [];
  return {
    server,
    credentials,
    connectAs: async (user) => {
      const nc = await connectNatsUser({ servers: [server.url], name: `test-${user.user}`, user, maxReconnectAttempts: 0, ...clientTls });
      opened.push(nc);
      return nc;
    },
    stop: async () => {
      await Promise.all(opened.map((nc) => nc.close()));
      await server.stop();
    },
  };
}
/** The server refused the operation for the user's permissions (not a JetStream error, not a timeout). */
export async function expectPermissionDenied(operation: Promise<unknown>): Promise<void> {
  await expect(operation).rejects.toThrow(/Permissions Violation/);
}

/** A raw JetStream API request (the exact subject an attacker would use); the decoded answer. */
export async function jsApi(nc: NatsConnection, subject: string, body: unknown = {}): Promise<{ error?: { code: number; description: string } } & Record<string, unknown>> {
  const reply = await nc.request(subject, JSON.stringify(body), { timeout: 2_000 });
  return reply.json();
}

/** Resolves with the subscription's error when the server refuses it, or `null` when it is still open after a flush. */
export async function subscriptionRefusal(nc: NatsConnection, subject: string): Promise<string | null> {
  const subscription = nc.subscribe(subject);
  const refused = subscription.closed.then((error) => (error instanceof Error ? error.message : null));
  await nc.flush();
  // The server answers a refused SUB with -ERR before the PONG of the flush.
  const result = await Promise.race([refused, nc.flush().then(() => 'open' as const)]);
  subscription.unsubscribe();
  return result === 'open' ? null : result;
}
