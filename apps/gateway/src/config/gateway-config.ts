import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min } from 'class-validator';

const HTTP_URL = { protocols: ['http', 'https'], require_tld: false, require_protocol: true };

/**
 * Every setting of the gateway, read from the environment variable of the same name (see the README's
 * configuration table). Provider keys live only here: they never reach NATS, logs or the audit trail.
 */
export class GatewayConfig {
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  HTTP_PORT = 8080;

  @IsString()
  HTTP_HOST = '0.0.0.0';

  @Matches(/^(nats|tls):\/\/[^\s,]+(,(nats|tls):\/\/[^\s,]+)*$/, { message: 'must be nats:// URLs separated by commas' })
  NATS_URL = 'nats://127.0.0.1:4222';

  /**
   * Gateway API keys as a JSON array of `{"sha256": "<hex digest of the key>", "tenant": "<id>",
   * "reasoning": <bool, default false>, "capture_prompts": <bool, default false>}` (`npm run -s llm-stream -- hash-key <key>` prints a digest).
   */
  @IsString()
  GATEWAY_API_KEYS = '[]';

  /** Identifies this instance in leases and raw traces; the pod name on Kubernetes. Random when empty. */
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{0,64}$/, { message: 'must be letters, digits, _ or - (at most 64)' })
  GATEWAY_ID = '';

  @IsUrl(HTTP_URL)
  OPENAI_BASE_URL = 'https://api.openai.com';

  @IsString()
  OPENAI_API_KEY = '';

  @IsUrl(HTTP_URL)
  ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

  @IsString()
  ANTHROPIC_API_KEY = '';

  @IsString()
  ANTHROPIC_VERSION = '2023-06-01';

  @IsUrl(HTTP_URL)
  GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com';

  @IsString()
  GEMINI_API_KEY = '';

  /** Attempts per stream before the first visible delta (1 = never retry). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(10)
  UPSTREAM_MAX_ATTEMPTS = 3;

  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(60_000)
  RETRY_BASE_DELAY_MS = 250;

  /** Longest wait between attempts: a larger Retry-After is honored only up to this (then the retry goes out). */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(300_000)
  RETRY_MAX_DELAY_MS = 10_000;

  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(600_000)
  UPSTREAM_CONNECT_TIMEOUT_MS = 10_000;

  /** No bytes at all from the upstream for this long ends the stream interrupted (timeout). */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  UPSTREAM_IDLE_TIMEOUT_MS = 60_000;

  /** No progress (a block or a terminal signal: pings and comments do not count) for this long: timeout. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  UPSTREAM_PROGRESS_TIMEOUT_MS = 120_000;

  /** While the upstream makes no progress, a stream.heartbeat goes out this often. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  HEARTBEAT_INTERVAL_MS = 15_000;

  /** A client that disconnects has this long to come back before the stream is cancelled. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(3_600_000)
  CLIENT_GRACE_MS = 10_000;

  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(60_000)
  LEASE_INTERVAL_MS = 1_000;

  @Type(() => Number)
  @IsInt()
  @Min(1_024)
  @Max(104_857_600)
  MAX_BODY_BYTES = 10_485_760;

  @Type(() => Number)
  @IsInt()
  @Min(1_024)
  @Max(104_857_600)
  MAX_FRAME_BYTES = 1_048_576;

  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(3_600_000)
  SHUTDOWN_DRAIN_MS = 20_000;

  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(5)
  JETSTREAM_REPLICAS = 1;

  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(8_760)
  RAW_RETENTION_HOURS = 24;

  /** How long a finished stream can still be resumed with Last-Event-ID. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(8_760)
  EVENTS_RETENTION_HOURS = 24;

  @IsIn(['debug', 'info', 'warn', 'error'])
  LOG_LEVEL: 'debug' | 'info' | 'warn' | 'error' = 'info';

  /** `otlp` exports spans over OTLP/HTTP (OTEL_EXPORTER_OTLP_ENDPOINT and the other standard OTEL_* variables); `none` keeps them local. */
  @IsIn(['none', 'otlp'])
  TRACE_EXPORTER: 'none' | 'otlp' = 'none';
}
