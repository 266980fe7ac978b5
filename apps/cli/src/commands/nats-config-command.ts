import { writeFile } from 'node:fs/promises';
import { natsAuthServerConfig, type NatsServerTls } from '@llm-stream/pipeline';
import { UsageError } from '../usage-error.js';
import { readCredentials } from './read-credentials.js';

export interface NatsConfigOptions {
  readonly credentials: string | undefined;
  readonly tlsCert: string | undefined;
  readonly tlsKey: string | undefined;
  readonly tlsCa: string | undefined;
  /** Where to write it (mode 0600: it holds the passwords); unset: standard output. */
  readonly output: string | undefined;
}

/**
 * `nats-config --credentials <file> [--output <file>]`: the authorization part of the nats-server configuration
 * (accounts, users, TLS), printed or written to a file (what the NATS pods' init container does, for nats.conf
 * to include).
 */
export async function natsConfigCommand(options: NatsConfigOptions): Promise<number> {
  const credentials = await readCredentials(options.credentials);
  const config = natsAuthServerConfig({ credentials, ...serverTls(options) });
  if (options.output === undefined) process.stdout.write(config);
  else await writeFile(options.output, config, { mode: 0o600 });
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
