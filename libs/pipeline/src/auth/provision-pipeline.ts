import { JetStreamApiCodes, JetStreamApiError, jetstreamManager, type JetStreamManager, type StreamConfig } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { STREAM_NAMES } from '@llm-stream/contract';
import { DEFAULT_STREAM_OPTIONS, ensurePipelineStreams, ensureStream, pipelineStreamConfigs, type PipelineStreamOptions } from '../pipeline-streams.js';
import type { NatsCredentials, NatsUserCredentials } from './nats-credentials.js';
import { PLATFORM_API_IN_TENANT, tenantCopyDeliverPrefix, tenantEventsSubjects } from './nats-identities.js';
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

/** What {@link provisionPipeline} did beyond creating or updating: the tenant copies it had to recreate. */
export interface ProvisionReport {
  /**
   * Tenants whose copy was of the earlier form (capturing the imported subjects instead of sourcing them), which
   * cannot be turned into a source without storing its events twice: deleted and created again, sourced from
   * everything the platform's `LLM_EVENTS` still holds of the tenant. Backends' durable consumers on it are gone.
   */
  readonly recreatedCopies: readonly string[];
}

/**
 * A tenant account's `LLM_EVENTS`: the same limits as the platform's, holding the tenant's events only, fed by a
 * stream source from the platform's `LLM_EVENTS` filtered on the tenant's subjects (through the consumer-create
 * subject and the delivery subjects the platform exports to the account alone). It captures no subject of its
 * own: its messages keep the platform's subjects, and a backend reads it as it would read the platform's stream.
 */
export function tenantEventsStreamConfig(tenant: string, options: PipelineStreamOptions): StreamConfig {
  const events = pipelineStreamConfigs(options).find((config) => config.name === STREAM_NAMES.events);
  if (events === undefined) throw new Error('the pipeline has no events stream');
  const { subjects: _platformSubjects, ...limits } = events;
  return {
    ...limits,
    sources: [
      {
        name: STREAM_NAMES.events,
        filter_subject: tenantEventsSubjects(tenant),
        external: { api: PLATFORM_API_IN_TENANT, deliver: tenantCopyDeliverPrefix(tenant) },
      },
    ],
  } as StreamConfig;
}

/** The subjects a stream captures: none for a sourced one (the server leaves the field out, whatever the type says). */
export function capturedSubjects(config: StreamConfig): readonly string[] {
  return (config as { readonly subjects?: readonly string[] }).subjects ?? [];
}

/** Creates or updates a tenant's copy; `true` when an earlier-form copy had to be recreated. */
async function ensureTenantCopy(jsm: JetStreamManager, config: StreamConfig): Promise<boolean> {
  let recreate = false;
  try {
    recreate = capturedSubjects((await jsm.streams.info(config.name)).config).length > 0;
  } catch (error) {
    if (!(error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound)) throw error;
  }
  if (recreate) await jsm.streams.delete(config.name);
  await ensureStream(jsm, config);
  return recreate;
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
 * limits up to date. Idempotent (an earlier-form tenant copy is recreated once, see {@link ProvisionReport}).
 * The services' durable consumers are not created here: each service creates or updates its own (by name, the
 * only ones its permissions allow), with the limits of its configuration.
 */
export async function provisionPipeline(options: ProvisionPipelineOptions): Promise<ProvisionReport> {
  const streams = { ...DEFAULT_STREAM_OPTIONS, ...options.streams };
  await withConnection(options.servers, options.credentials.platform.provisioner, options.tls, async (nc) => {
    await ensurePipelineStreams(await jetstreamManager(nc), streams);
  });
  const recreatedCopies: string[] = [];
  for (const [tenant, users] of Object.entries(options.credentials.tenants)) {
    await withConnection(options.servers, users.provisioner, options.tls, async (nc) => {
      if (await ensureTenantCopy(await jetstreamManager(nc), tenantEventsStreamConfig(tenant, streams))) recreatedCopies.push(tenant);
    });
  }
  return { recreatedCopies };
}
