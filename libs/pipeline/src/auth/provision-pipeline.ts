import { jetstreamManager, type StreamConfig } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { STREAM_NAMES } from '@llm-stream/contract';
import { DEFAULT_STREAM_OPTIONS, ensurePipelineStreams, ensureStream, pipelineStreamConfigs, type PipelineStreamOptions } from '../pipeline-streams.js';
import type { NatsCredentials, NatsUserCredentials } from './nats-credentials.js';
import { tenantEventsSubjects } from './nats-identities.js';
import { connectNatsUser } from './connect-nats-user.js';
import type { NatsClientTls } from './nats-connection-auth.js';

/** What {@link provisionPipeline} creates, and where. */
export interface ProvisionPipelineOptions {
  readonly servers: readonly string[];
  /** The provisioners' credentials are used: the platform's, and each tenant's. */
  readonly credentials: NatsCredentials;
  readonly tls?: NatsClientTls;
  /** Limits of the streams; unset ones take {@link DEFAULT_STREAM_OPTIONS}. */
  readonly streams?: Partial<PipelineStreamOptions>;
}

/**
 * A tenant account's `LLM_EVENTS`: the same limits as the platform's, over the tenant's subjects only, which
 * the account imports from the platform. A backend reads it as it would read the platform's stream.
 */
export function tenantEventsStreamConfig(tenant: string, options: PipelineStreamOptions): StreamConfig {
  const events = pipelineStreamConfigs(options).find((config) => config.name === STREAM_NAMES.events);
  if (events === undefined) throw new Error('the pipeline has no events stream');
  return { ...events, subjects: [tenantEventsSubjects(tenant)] };
}

async function withConnection(servers: readonly string[], user: NatsUserCredentials, tls: NatsClientTls | undefined, run: (nc: NatsConnection) => Promise<void>): Promise<void> {
  // One attempt: an operator step that cannot reach the server says so instead of waiting for it.
  const nc = await connectNatsUser({ servers, name: `llm-stream-provision-${user.user}`, user, maxReconnectAttempts: 0, ...(tls === undefined ? {} : { tls }) });
  try {
    await run(nc);
  } finally {
    await nc.close();
  }
}

/**
 * The operator step (`llm-stream provision`, the quick start, the tests, the Kubernetes Job): creates the
 * pipeline's streams in the platform account and each tenant's `LLM_EVENTS` in its account, or brings their
 * limits up to date. Idempotent. The services' durable consumers are not created here: each service creates
 * or updates its own (by name, the only ones its permissions allow), with the limits of its configuration.
 */
export async function provisionPipeline(options: ProvisionPipelineOptions): Promise<void> {
  const streams = { ...DEFAULT_STREAM_OPTIONS, ...options.streams };
  await withConnection(options.servers, options.credentials.platform.provisioner, options.tls, async (nc) => {
    await ensurePipelineStreams(await jetstreamManager(nc), streams);
  });
  for (const [tenant, users] of Object.entries(options.credentials.tenants)) {
    await withConnection(options.servers, users.provisioner, options.tls, async (nc) => {
      await ensureStream(await jetstreamManager(nc), tenantEventsStreamConfig(tenant, streams));
    });
  }
}
