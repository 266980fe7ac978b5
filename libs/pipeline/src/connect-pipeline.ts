import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import { DEFAULT_STREAM_OPTIONS, ensurePipelineStreams, type PipelineStreamOptions } from './pipeline-streams.js';

/** Options of {@link connectPipeline}. */
export interface ConnectPipelineOptions {
  /** NATS server URLs (`nats://` or `tls://`); the client fails over between them. */
  readonly servers: readonly string[];
  /** Connection name, shown by the server's monitoring (`/connz`): which service holds the connection. */
  readonly name: string;
  /** Reconnect attempts after a disconnection; default -1 (forever: a service outlives any NATS outage). */
  readonly maxReconnectAttempts?: number;
  /** Wait between reconnect attempts to one server, in ms; default 500. */
  readonly reconnectTimeWait?: number;
  /** Limits of the pipeline's streams; unset ones take {@link DEFAULT_STREAM_OPTIONS}. */
  readonly streams?: Partial<PipelineStreamOptions>;
}

/**
 * A service's NATS connection: connects, then creates the pipeline's streams or brings their limits up to
 * date ({@link ensurePipelineStreams}), so nothing the service does can find them missing. When the streams
 * cannot be ensured the connection is closed before the error is rethrown (a caller that retries leaks none).
 */
export async function connectPipeline(options: ConnectPipelineOptions): Promise<NatsConnection> {
  const nc = await connect({
    servers: [...options.servers],
    name: options.name,
    maxReconnectAttempts: options.maxReconnectAttempts ?? -1,
    reconnectTimeWait: options.reconnectTimeWait ?? 500,
  });
  try {
    await ensurePipelineStreams(await jetstreamManager(nc), { ...DEFAULT_STREAM_OPTIONS, ...options.streams });
    return nc;
  } catch (error) {
    await nc.close();
    throw error;
  }
}
