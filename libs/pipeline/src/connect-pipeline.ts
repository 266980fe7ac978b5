import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { NatsAuthError } from './auth/nats-auth-error.js';
import { connectNats, type NatsConnectionAuth } from './auth/nats-connection-auth.js';
import { DEFAULT_STREAM_OPTIONS, ensurePipelineStreams, missingPipelineStreams, type PipelineStreamOptions } from './pipeline-streams.js';

/** Options of {@link connectPipeline}. */
export interface ConnectPipelineOptions extends NatsConnectionAuth {
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
 * A service's NATS connection. As a NATS user (a server with authorization, every deployment we ship) it
 * checks that the pipeline's streams exist, which the operator step created (`llm-stream provision`), and
 * fails with `streams_missing` otherwise: a service may not create or change a stream. Anonymous (a server
 * without authorization, development only) it creates the streams or brings their limits up to date
 * ({@link ensurePipelineStreams}). Either way nothing the service does can find them missing. When the check
 * fails the connection is closed before the error is rethrown (a caller that retries leaks none).
 */
export async function connectPipeline(options: ConnectPipelineOptions): Promise<NatsConnection> {
  const nc = await connectNats({ ...options, reconnectTimeWait: options.reconnectTimeWait ?? 500 });
  try {
    const jsm = await jetstreamManager(nc);
    if (options.user === undefined) {
      await ensurePipelineStreams(jsm, { ...DEFAULT_STREAM_OPTIONS, ...options.streams });
      return nc;
    }
    const missing = await missingPipelineStreams(jsm);
    if (missing.length > 0) {
      throw new NatsAuthError('streams_missing', `the JetStream streams ${missing.join(', ')} do not exist: run \`llm-stream provision\` (the operator step) first`);
    }
    return nc;
  } catch (error) {
    await nc.close();
    throw error;
  }
}
