import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { JsonLogger } from '@llm-stream/service-kit';
import { AuditConfig } from '../config/audit-config.js';
import { AuditMetrics } from '../metrics/audit-metrics.js';
import type { AuditRepository } from '../store/audit-repository.js';
import { AUDIT_REPOSITORY } from '../store/store-tokens.js';

const DAY_MS = 86_400_000;
/** Streams deleted per transaction: short transactions, so ingestion is never held up for long. */
const CHUNK = 500;

/**
 * Deletes streams (row, events, raw records) that started more than AUDIT_RETENTION_DAYS ago, every
 * AUDIT_RETENTION_INTERVAL_MS (the first sweep runs one interval after the start). 0 days keeps everything.
 */
@Injectable()
export class RetentionService implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly config: AuditConfig,
    @Inject(AUDIT_REPOSITORY) private readonly repository: AuditRepository,
    private readonly metrics: AuditMetrics,
    private readonly logger: JsonLogger,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.AUDIT_RETENTION_DAYS > 0) this.schedule();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** Deletes every expired stream now; returns how many. */
  async sweep(now: number): Promise<number> {
    const cutoff = now - this.config.AUDIT_RETENTION_DAYS * DAY_MS;
    let total = 0;
    for (let deleted = CHUNK; deleted === CHUNK && !this.stopped; total += deleted) {
      deleted = await this.repository.deleteStreamsStartedBefore(cutoff, CHUNK);
      if (deleted === 0) break;
      this.metrics.retentionDeleted.inc(deleted);
    }
    return total;
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      this.sweep(Date.now())
        .then((deleted) => {
          if (deleted > 0) this.logger.info('retention: expired streams deleted', { streams: deleted, days: this.config.AUDIT_RETENTION_DAYS });
        })
        .catch((error: unknown) => {
          this.logger.warn('retention sweep failed, retrying next interval', { error: error instanceof Error ? error.message : String(error) });
        })
        .finally(() => {
          if (!this.stopped) this.schedule();
        });
    }, this.config.AUDIT_RETENTION_INTERVAL_MS);
    this.timer.unref();
  }
}
