import { Type } from 'class-transformer';
import { IsIn, IsInt, IsString, Matches, Max, Min } from 'class-validator';

/**
 * The settings every service of the pipeline reads, from the environment variable of the same name. Each
 * service's configuration class extends it with its own settings (and its HTTP_PORT default).
 */
export abstract class ServiceConfig {
  /** NATS servers: `nats://` or `tls://` URLs, comma-separated. */
  @Matches(/^(nats|tls):\/\/[^\s,]+(,(nats|tls):\/\/[^\s,]+)*$/, { message: 'must be nats:// URLs separated by commas' })
  NATS_URL = 'nats://127.0.0.1:4222';

  /**
   * The service's NATS user (`gateway`, `normalizer`, `audit-log`: see docs/security.md, "NATS: who may do what"); empty:
   * anonymous, for a server without authorization only (development), where the service creates the streams.
   */
  @Matches(/^[A-Za-z0-9_-]*$/, { message: 'must be a NATS user name (letters, digits, _ or -)' })
  NATS_USER = '';

  /** The NATS user's password (from a Secret). */
  @IsString()
  NATS_PASSWORD = '';

  /** PEM file of the CA the NATS server's certificate must chain to (TLS; empty: the system's CAs when TLS is on). */
  @IsString()
  NATS_TLS_CA_FILE = '';

  /** PEM client certificate, for a NATS server that asks for one (mutual TLS), with NATS_TLS_KEY_FILE. */
  @IsString()
  NATS_TLS_CERT_FILE = '';

  /** PEM private key of NATS_TLS_CERT_FILE. */
  @IsString()
  NATS_TLS_KEY_FILE = '';

  /** Interface the HTTP server binds. */
  @IsString()
  HTTP_HOST = '0.0.0.0';

  /** Port of the service's HTTP server (API, health, metrics). */
  abstract HTTP_PORT: number;

  /** Replicas of the pipeline's JetStream streams: 3 on a production NATS cluster, 1 on a single server. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(5)
  JETSTREAM_REPLICAS = 1;

  /** How long LLM_RAW keeps raw traces (replay, takeover and audit rely on them). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(8_760)
  RAW_RETENTION_HOURS = 24;

  /** How long LLM_EVENTS keeps contract events: the window in which a client can resume a stream. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(8_760)
  EVENTS_RETENTION_HOURS = 24;

  /** Least severe level written: debug, info, warn or error. */
  @IsIn(['debug', 'info', 'warn', 'error'])
  LOG_LEVEL: 'debug' | 'info' | 'warn' | 'error' = 'info';

  /** `otlp` exports spans over OTLP/HTTP (OTEL_EXPORTER_OTLP_ENDPOINT and the other standard OTEL_* variables); `none` keeps them local. */
  @IsIn(['none', 'otlp'])
  TRACE_EXPORTER: 'none' | 'otlp' = 'none';
}

