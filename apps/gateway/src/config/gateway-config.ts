import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min } from 'class-validator';
import { ServiceConfig } from '@llm-stream/service-kit';

const HTTP_URL = { protocols: ['http', 'https'], require_tld: false, require_protocol: true };

/**
 * Every setting of the gateway, read from the environment variable of the same name (see the table in
 * docs/configuration.md). Provider keys live only here: they never reach NATS, logs or the audit trail.
 */
export class GatewayConfig extends ServiceConfig {
  /** Port of the HTTP API, health and metrics. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  HTTP_PORT = 8080;

  /**
   * Gateway API keys as a JSON array of `{"sha256": "<hex digest of the key>", "tenant": "<id>", "reasoning": <bool, default false>, "capture_prompts": <bool, default false>, "scopes": <default ["streams", "audit:read"]>}`; scopes: `streams`, `audit:read`, `audit:full` (`npm run -s llm-stream -- hash-key <key>` prints a digest).
   */
  @IsString()
  GATEWAY_API_KEYS = '[]';

  /** A file holding the GATEWAY_API_KEYS JSON (a Kubernetes Secret volume), watched and reloaded on change without a restart; a bad version is rejected (logged) and the last good keys stay. Set it or GATEWAY_API_KEYS, not both. */
  @IsString()
  GATEWAY_API_KEYS_FILE = '';

  /**
   * Upstream routes, model aliases and per-tenant allow-lists as JSON (format in docs/configuration.md,
   * "Routes"); empty: only the default route of each protocol. Secrets are referenced (`{"env"}` or `{"file"}`), never inline.
   */
  @IsString()
  GATEWAY_ROUTES = '';

  /** The same as a file (a mounted ConfigMap), re-read when it changes; a bad new version keeps the last good one. Not both. */
  @IsString()
  GATEWAY_ROUTES_FILE = '';

  /** Names this instance in leases and raw traces (the pod name on Kubernetes; random when empty); each process start adds a random instance part (`<GATEWAY_ID>@<instance>`). */
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{0,64}$/, { message: 'must be letters, digits, _ or - (at most 64)' })
  GATEWAY_ID = '';

  /** OpenAI (chat and Responses) or a compatible server; the replay provider in tests and the quick start. */
  @IsUrl(HTTP_URL)
  OPENAI_BASE_URL = 'https://api.openai.com';

  /** Sent upstream as `Authorization: Bearer`; never published, logged or audited. */
  @IsString()
  OPENAI_API_KEY = '';

  /** Anthropic Messages API. */
  @IsUrl(HTTP_URL)
  ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

  /** Sent upstream as `x-api-key`; never published, logged or audited. */
  @IsString()
  ANTHROPIC_API_KEY = '';

  /** The `anthropic-version` header. */
  @IsString()
  ANTHROPIC_VERSION = '2023-06-01';

  /** Gemini API: the `gemini` route (`streamGenerateContent?alt=sse`) and the `gemini-interactions` route (`/v1beta/interactions`). */
  @IsUrl(HTTP_URL)
  GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com';

  /** Sent upstream as `x-goog-api-key`; never published, logged or audited. */
  @IsString()
  GEMINI_API_KEY = '';

  /** Attempts per stream before the first visible delta (1 = never retry). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(10)
  UPSTREAM_MAX_ATTEMPTS = 3;

  /** First wait before a retry; it doubles per attempt, with ±20 % jitter. */
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

  /** No response headers from the upstream by then: a connection failure (retried before any visible delta). */
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

  /**
   * How often this instance renews its liveness lease; normalizers end the streams of a gateway whose lease expired. A normalizer's `GATEWAY_LEASE_TIMEOUT_MS` must be longer than two intervals: a stream during which the renewals went unheard that long proves its raw trace stored by reading it (docs/pipeline.md).
   */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(60_000)
  LEASE_INTERVAL_MS = 1_000;

  /** Largest request body accepted (413 above it: before reading it when Content-Length says so, else as soon as it passes). */
  @Type(() => Number)
  @IsInt()
  @Min(1_024)
  @Max(104_857_600)
  MAX_BODY_BYTES = 10_485_760;

  /** Deepest nesting of arrays and objects accepted in a request body (400 invalid_request above it). */
  @Type(() => Number)
  @IsInt()
  @Min(8)
  @Max(1_000)
  MAX_JSON_DEPTH = 128;

  /** Largest SSE record accepted from a provider: a bigger one ends the stream failed (protocol_error). */
  @Type(() => Number)
  @IsInt()
  @Min(1_024)
  @Max(104_857_600)
  MAX_FRAME_BYTES = 1_048_576;

  /** How long SIGTERM waits for open streams to end (the gateway then ends the rest at once; the normalizer hands them to another replica). */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(3_600_000)
  SHUTDOWN_DRAIN_MS = 20_000;

  /** Open streams at which new ones are refused with 503 `overloaded` and `Retry-After` (before any upstream call). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  MAX_OPEN_STREAMS = 1_000;

  /** Event-loop lag (median over the last second) above which new streams are refused with 503 `overloaded`. */
  @Type(() => Number)
  @IsInt()
  @Min(10)
  @Max(60_000)
  MAX_EVENT_LOOP_LAG_MS = 500;

  /** Length of the HTTP listen queue (connections not yet accepted); the kernel caps it at net.core.somaxconn. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(65_535)
  HTTP_BACKLOG = 4_096;

}
