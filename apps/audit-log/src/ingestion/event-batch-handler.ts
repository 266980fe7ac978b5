import { SpanKind, type Tracer } from '@opentelemetry/api';
import type { JsMsg } from '@nats-io/jetstream';
import { headerLookup, messageHeaderLookup } from '@llm-stream/pipeline';
import type { Result } from '@llm-stream/contract';
import { contextFromHeaders } from '@llm-stream/observability';
import type { JsonLogger } from '@llm-stream/service-kit';
import type { AuditMetrics } from '../metrics/audit-metrics.js';
import type { AuditRepository, IncomingEvent } from '../store/audit-repository.js';
import type { BatchHandler, Decoded } from './batch-ingestion.js';
import { AUDIT_CONSUMERS } from './audit-consumers.js';
import { readEventMessage, type UnstorableMessage } from './read-event-message.js';

/**
 * Stores contract events. When a batch stores a stream's terminal event, the audit's span for that stream
 * continues the stream's trace from the terminal message's `traceparent`, and the log line carries the
 * stream_id and trace_id (never content).
 */
export class EventBatchHandler implements BatchHandler<IncomingEvent> {
  constructor(
    private readonly repository: AuditRepository,
    private readonly metrics: AuditMetrics,
    private readonly tracer: Tracer,
    private readonly logger: JsonLogger,
  ) {}

  decode(message: JsMsg): Result<IncomingEvent, UnstorableMessage> {
    // Headers are parsed only if a header is read (the trace id, once per stream): most events never need them.
    // timestampNanos is JetStream's store time of the message; ms are enough for a timeline.
    return readEventMessage(message.subject, message.string(), messageHeaderLookup(message), Math.floor(message.info.timestampNanos / 1_000_000));
  }

  async commit(batch: readonly Decoded<IncomingEvent>[]): Promise<void> {
    const consumer = AUDIT_CONSUMERS.events;
    const started = Date.now();
    const result = await this.repository.ingestEvents(
      batch.map(({ item }) => item),
      started,
    );
    const seconds = (Date.now() - started) / 1000;
    this.metrics.commitSeconds.observe({ consumer }, seconds);
    this.metrics.batchMessages.observe({ consumer }, batch.length);
    this.metrics.messages.inc({ consumer, outcome: 'stored' }, result.stored);
    if (result.duplicates > 0) this.metrics.messages.inc({ consumer, outcome: 'duplicate' }, result.duplicates);
    if (result.foreign > 0) {
      this.metrics.messages.inc({ consumer, outcome: 'foreign' }, result.foreign);
      this.logger.warn('events refused: their stream belongs to another tenant', { count: result.foreign });
    }
    for (const ended of result.ended) {
      const terminal = batch[ended.batchIndex];
      if (terminal === undefined) continue;
      this.metrics.streamsEnded.inc({ status: ended.status });
      const span = this.tracer.startSpan(
        'llm.audit.store',
        {
          kind: SpanKind.CONSUMER,
          startTime: started,
          attributes: { 'llm.stream_id': ended.streamId, 'llm.tenant': terminal.item.tenant, 'llm.status': ended.status, 'llm.seq': terminal.item.event.seq },
        },
        contextFromHeaders(headerLookup(terminal.message.headers)),
      );
      span.end();
      this.logger.info('stream recorded', {
        stream_id: ended.streamId,
        trace_id: terminal.item.traceId ?? span.spanContext().traceId,
        status: ended.status,
        events: terminal.item.event.seq,
      });
    }
  }
}
