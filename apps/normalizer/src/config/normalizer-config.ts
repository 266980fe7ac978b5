import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { ServiceConfig } from '@llm-stream/service-kit';

/**
 * Every setting of the normalizer, read from the environment variable of the same name (see the table in
 * docs/configuration.md). Defaults suit one local NATS server.
 */
export class NormalizerConfig extends ServiceConfig {

  /** HTTP port of the health and metrics endpoints. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  HTTP_PORT = 8081;

  /** How long a replica may stay silent about a stream it owns before another one takes it over. */
  @Type(() => Number)
  @IsInt()
  @Min(500)
  @Max(600_000)
  WORK_ACK_WAIT_MS = 5_000;

  /** Streams one replica normalizes at once. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100_000)
  MAX_CONCURRENT_STREAMS = 2_000;

  /** A stream whose gateway has not renewed its lease for this long ends interrupted. */
  @Type(() => Number)
  @IsInt()
  @Min(1_000)
  @Max(600_000)
  GATEWAY_LEASE_TIMEOUT_MS = 5_000;

  /** How long SIGTERM waits for owned streams to finish before handing them to another replica. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(600_000)
  SHUTDOWN_DRAIN_MS = 10_000;

}
