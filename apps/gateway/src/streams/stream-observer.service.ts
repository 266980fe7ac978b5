import { Injectable } from '@nestjs/common';
import type { NormalizerSession } from '@llm-stream/adapters';
import type { FinishResult } from '@llm-stream/pipeline';
import { JsonLogger } from '@llm-stream/service-kit';
import { GatewayMetrics } from '../metrics/gateway-metrics.js';
import type { AttemptSummary } from '../upstream/upstream-attempt.js';
import type { RunnerObserver, StreamSpec } from './stream-runner.js';

/** Logged for a stream whose lease may have lapsed while it ran: records after the gap went fenced. */
const FENCED_AFTER_LEASE_GAP = 'the lease may have lapsed while the stream ran: the records after the gap were sent fenced';

/** Metrics and log lines about upstream attempts (never content, never keys). */
@Injectable()
export class StreamObserverService implements RunnerObserver {
  constructor(
    private readonly metrics: GatewayMetrics,
    private readonly logger: JsonLogger,
  ) {}

  attemptEnded(spec: StreamSpec, attempt: number, summary: AttemptSummary, willRetry: boolean): void {
    const status = summary.status === undefined ? 'none' : String(summary.status);
    this.metrics.attempts.inc({ provider: spec.provider, route: spec.plan.route, status, retried: String(willRetry) });
    if (willRetry) {
      this.metrics.retries.inc({ provider: spec.provider, route: spec.plan.route });
      this.logger.warn('upstream attempt failed before any visible delta: retrying', {
        stream_id: spec.streamId,
        trace_id: spec.traceId,
        attempt,
        status,
      });
    }
  }

  failed(spec: StreamSpec, error: unknown): void {
    this.logger.error('the raw trace could not be proven stored', {
      stream_id: spec.streamId,
      trace_id: spec.traceId,
      error: error instanceof Error ? error.message : String(error),
    });
  }

  stored(spec: StreamSpec, result: FinishResult): void {
    if (result.fenced > 0) {
      this.logger.info(FENCED_AFTER_LEASE_GAP, { stream_id: spec.streamId, trace_id: spec.traceId, fenced: result.fenced });
    }
    if (result.resent === 0 && result.settledByRead === 0) return;
    this.logger.info('raw trace stored after sending some records again', {
      stream_id: spec.streamId,
      trace_id: spec.traceId,
      records: result.published,
      resent: result.resent,
      settled_by_read: result.settledByRead,
    });
  }

  fenced(spec: StreamSpec): void {
    this.logger.warn('a normalizer ended the stream (gateway.lost) while this instance was unheard: its client is served from the log', {
      stream_id: spec.streamId,
      trace_id: spec.traceId,
    });
  }

  backlogged(spec: StreamSpec, unacked: number): void {
    this.logger.error('JetStream acks no raw trace records: ending the stream (trace_backlog)', {
      stream_id: spec.streamId,
      trace_id: spec.traceId,
      unacked,
    });
  }

  settled(spec: StreamSpec, session: NormalizerSession): void {
    const status = session.terminalStatus ?? 'open';
    this.metrics.streamsEnded.inc({ provider: spec.provider, route: spec.plan.route, status, error_category: session.errorCategory ?? '' });
    this.logger.info('upstream side ended', {
      stream_id: spec.streamId,
      trace_id: spec.traceId,
      status,
      error_category: session.errorCategory ?? null,
    });
  }
}
