import type { JsMsg } from '@nats-io/jetstream';
import type { Result } from '@llm-stream/contract';
import type { JsonLogger } from '@llm-stream/service-kit';
import { messageHeaderLookup } from '@llm-stream/pipeline';
import type { TenantSettings } from '../config/tenant-settings.js';
import type { AuditMetrics } from '../metrics/audit-metrics.js';
import type { AuditRepository, IncomingRaw } from '../store/audit-repository.js';
import type { BatchHandler, Decoded } from './batch-ingestion.js';
import { AUDIT_CONSUMERS } from './audit-consumers.js';
import type { UnstorableMessage } from './read-event-message.js';
import { readRawMessage } from './read-raw-message.js';

/** Stores the raw trace (redacted) and, for tenants with prompt capture on, the client's request. */
export class RawBatchHandler implements BatchHandler<IncomingRaw> {
  constructor(
    private readonly repository: AuditRepository,
    private readonly tenants: TenantSettings,
    private readonly metrics: AuditMetrics,
    private readonly logger: JsonLogger,
  ) {}

  decode(message: JsMsg): Result<IncomingRaw | null, UnstorableMessage> {
    return readRawMessage(message.subject, message.string(), messageHeaderLookup(message), message.seq, this.tenants);
  }

  async commit(batch: readonly Decoded<IncomingRaw>[]): Promise<void> {
    const consumer = AUDIT_CONSUMERS.raw;
    const started = Date.now();
    const result = await this.repository.ingestRaw(
      batch.map(({ item }) => item),
      started,
    );
    this.metrics.commitSeconds.observe({ consumer }, (Date.now() - started) / 1000);
    this.metrics.batchMessages.observe({ consumer }, batch.length);
    this.metrics.messages.inc({ consumer, outcome: 'stored' }, result.stored);
    if (result.duplicates > 0) this.metrics.messages.inc({ consumer, outcome: 'duplicate' }, result.duplicates);
    if (result.foreign > 0) {
      this.metrics.messages.inc({ consumer, outcome: 'foreign' }, result.foreign);
      this.logger.warn('raw records refused: their stream belongs to another tenant', { count: result.foreign });
    }
  }
}
