import type { NatsClientTls } from '@llm-stream/pipeline';

/** Where and as whom a CLI command connects: the same variables the services read (NATS_URL, NATS_USER, ...). */
export interface NatsEnvironment {
  /** NATS_URL split at its commas (default: the local server). */
  readonly servers: readonly string[];
  /** NATS_USER and NATS_PASSWORD; unset when NATS_USER is (anonymous). */
  readonly user?: string;
  readonly password?: string;
  /** The NATS_TLS_CA_FILE / _CERT_FILE / _KEY_FILE that are set. */
  readonly tls?: NatsClientTls;
}

export function natsEnvironment(env: NodeJS.ProcessEnv): NatsEnvironment {
  const user = env['NATS_USER'];
  const tls = {
    ...(env['NATS_TLS_CA_FILE'] ? { caFile: env['NATS_TLS_CA_FILE'] } : {}),
    ...(env['NATS_TLS_CERT_FILE'] ? { certFile: env['NATS_TLS_CERT_FILE'] } : {}),
    ...(env['NATS_TLS_KEY_FILE'] ? { keyFile: env['NATS_TLS_KEY_FILE'] } : {}),
  };
  return {
    servers: (env['NATS_URL'] || 'nats://127.0.0.1:4222').split(','),
    ...(user ? { user, password: env['NATS_PASSWORD'] ?? '' } : {}),
    ...(Object.keys(tls).length === 0 ? {} : { tls }),
  };
}
