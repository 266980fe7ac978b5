import { natsAuthServerConfig, type NatsServerTls } from '@llm-stream/pipeline';
import { UsageError } from '../usage-error.js';
import { readCredentials } from './read-credentials.js';

export interface NatsConfigOptions {
  readonly credentials: string | undefined;
  readonly tlsCert: string | undefined;
  readonly tlsKey: string | undefined;
  readonly tlsCa: string | undefined;
}

/** `nats-config --credentials <file>`: prints the authorization part of the nats-server configuration (accounts, users, TLS). */
export async function natsConfigCommand(options: NatsConfigOptions): Promise<number> {
  const credentials = await readCredentials(options.credentials);
  process.stdout.write(natsAuthServerConfig({ credentials, ...serverTls(options) }));
  return 0;
}

function serverTls({ tlsCert, tlsKey, tlsCa }: NatsConfigOptions): { tls?: NatsServerTls } {
  if (tlsCert === undefined && tlsKey === undefined) {
    if (tlsCa !== undefined) throw new UsageError('--tls-ca needs --tls-cert and --tls-key (the server certificate)');
    return {};
  }
  if (tlsCert === undefined || tlsKey === undefined) throw new UsageError('--tls-cert and --tls-key go together');
  return { tls: { certFile: tlsCert, keyFile: tlsKey, ...(tlsCa === undefined ? {} : { caFile: tlsCa }) } };
}
