import type { ServiceConfig } from './service-config.js';

/** A service's NATS connection settings, in the units the NATS client takes (`connectPipeline` of @llm-stream/client). */
export interface NatsSettings {
  /** NATS_URL split at its commas. */
  readonly servers: readonly string[];
  /** Limits of the pipeline's streams (the duplicate window is the pipeline's default). */
  readonly streams: {
    readonly replicas: number;
    readonly rawMaxAgeMs: number;
    readonly eventsMaxAgeMs: number;
  };
}

const HOUR_MS = 3_600_000;

/** The NATS settings every service reads (NATS_URL, JETSTREAM_REPLICAS, RAW_/EVENTS_RETENTION_HOURS), converted. */
export function natsSettings(config: ServiceConfig): NatsSettings {
  return {
    servers: config.NATS_URL.split(','),
    streams: {
      replicas: config.JETSTREAM_REPLICAS,
      rawMaxAgeMs: config.RAW_RETENTION_HOURS * HOUR_MS,
      eventsMaxAgeMs: config.EVENTS_RETENTION_HOURS * HOUR_MS,
    },
  };
}
