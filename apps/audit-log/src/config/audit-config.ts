import { Type } from 'class-transformer';
import { IsInt, IsString, Matches, Max, Min } from 'class-validator';
import { ServiceConfig } from '@llm-stream/service-kit';

/**
 * Every setting of the audit log, read from the environment variable of the same name (see the app's
 * README). Defaults suit the quick start: one local NATS server and an SQLite file, no database server.
 */
export class AuditConfig extends ServiceConfig {

  /** HTTP port of the query API, health and metrics. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  HTTP_PORT = 8082;

  /** `postgres://...`: store in PostgreSQL. Empty: store in the SQLite file AUDIT_SQLITE_PATH. */
  @Matches(/^((postgres|postgresql):\/\/\S+)?$/, { message: 'must be a postgres:// URL (or empty for SQLite)' })
  AUDIT_DATABASE_URL = '';

  /** The SQLite file used when AUDIT_DATABASE_URL is empty (its directory is created). */
  @IsString()
  AUDIT_SQLITE_PATH = 'data/audit.sqlite';

  /** PostgreSQL connections: one per ingestion loop, the rest for queries and retention. */
  @Type(() => Number)
  @IsInt()
  @Min(3)
  @Max(100)
  AUDIT_PG_POOL_SIZE = 8;

  /**
   * Gateway API keys as a JSON array of `{"sha256": "<hex digest of the key>", "tenant": "<id>", "reasoning": <bool, default false>, "capture_prompts": <bool, default false>, "scopes": <default ["streams", "audit:read"]>}`; scopes: `streams`, `audit:read`, `audit:full` (`npm run -s llm-stream -- hash-key <key>` prints a digest).
   */
  @IsString()
  GATEWAY_API_KEYS = '[]';

  /** A file holding the GATEWAY_API_KEYS JSON (a Kubernetes Secret volume), watched and reloaded on change without a restart; a bad version is rejected (logged) and the last good keys stay. Set it or GATEWAY_API_KEYS, not both. */
  @IsString()
  GATEWAY_API_KEYS_FILE = '';

  /** The built diagnostics console served at /console/ (empty: apps/console/dist of the workspace the app runs from). */
  @IsString()
  AUDIT_CONSOLE_DIR = '';

  /** Comma-separated tenants whose prompts are stored (when the raw trace carries them). Default: nobody's. */
  @Matches(/^([A-Za-z0-9_-]{1,64}(,[A-Za-z0-9_-]{1,64})*)?$/, { message: 'must be tenant ids separated by commas' })
  AUDIT_PROMPT_CAPTURE_TENANTS = '';

  /** Most messages committed in one database transaction. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(10_000)
  AUDIT_BATCH_SIZE = 2_000;

  /** A batch below AUDIT_BATCH_SIZE waits this long for more messages before it commits (group commit). */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(10_000)
  AUDIT_BATCH_LINGER_MS = 20;

  /** Messages delivered and not yet acked, per consumer: bounds memory while the database is slow or away. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(1_000_000)
  AUDIT_MAX_ACK_PENDING = 20_000;

  /** JetStream redelivers a message not acked within this time (a batch must commit well within it). */
  @Type(() => Number)
  @IsInt()
  @Min(1_000)
  @Max(3_600_000)
  AUDIT_ACK_WAIT_MS = 30_000;

  /** How often the ingestion lag of each consumer is read from JetStream (metrics and readiness detail). */
  @Type(() => Number)
  @IsInt()
  @Min(250)
  @Max(600_000)
  AUDIT_LAG_POLL_INTERVAL_MS = 5_000;

  /** Streams older than this many days (by start time) are deleted; 0 keeps everything. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(36_500)
  AUDIT_RETENTION_DAYS = 30;

  /** How often expired streams are looked for. */
  @Type(() => Number)
  @IsInt()
  @Min(1_000)
  @Max(86_400_000)
  AUDIT_RETENTION_INTERVAL_MS = 3_600_000;

}
