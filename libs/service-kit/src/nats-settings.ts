import type { ServiceConfig } from './service-config.js';

/** A service's NATS connection settings, in the units the NATS client takes (`connectPipeline` of @llm-stream/client). */
export interface NatsSettings {
  /** NATS_URL split at its commas. */
  readonly servers: readonly string[];
  /** NATS_USER and NATS_PASSWORD; unset when NATS_USER is empty (anonymous). */
  readonly user?: string;
  readonly password?: string;
  /** The NATS_TLS_* files that are set; unset when none is (TLS then only with a `tls://` URL, system CAs). */
  readonly tls?: { readonly caFile?: string; readonly certFile?: string; readonly keyFile?: string };
  /** Limits of the pipeline's streams (the duplicate window is the pipeline's default). */
  readonly streams: {
    readonly replicas: number;
    readonly rawMaxAgeMs: number;
    readonly eventsMaxAgeMs: number;
  };
}

const HOUR_MS = 3_600_000;

/** The NATS settings every service reads (NATS_*, JETSTREAM_REPLICAS, RAW_/EVENTS_RETENTION_HOURS), converted. */
export function natsSettings(config: ServiceConfig): NatsSettings {
  const tlsFiles = {
    ...(config.NATS_TLS_CA_FILE === '' ? {} : { caFile: config.NATS_TLS_CA_FILE }),
    ...(config.NATS_TLS_CERT_FILE === '' ? {} : { certFile: config.NATS_TLS_CERT_FILE }),
    ...(config.NATS_TLS_KEY_FILE === '' ? {} : { keyFile: config.NATS_TLS_KEY_FILE }),
  };
  return {
    servers: config.NATS_URL.split(','),
    ...(config.NATS_USER === '' ? {} : { user: config.NATS_USER, password: config.NATS_PASSWORD }),
    ...(Object.keys(tlsFiles).length === 0 ? {} : { tls: tlsFiles }),
    streams: {
      replicas: config.JETSTREAM_REPLICAS,
      rawMaxAgeMs: config.RAW_RETENTION_HOURS * HOUR_MS,
      eventsMaxAgeMs: config.EVENTS_RETENTION_HOURS * HOUR_MS,
    },
  };
}
