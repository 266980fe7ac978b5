import { Injectable } from '@nestjs/common';
import type { NormalizerSession } from '@llm-stream/adapters';
import { assertNever } from '@llm-stream/contract';
import type { FinishResult } from '@llm-stream/pipeline';
import { JsonLogger } from '@llm-stream/service-kit';
import { GatewayMetrics } from '../metrics/gateway-metrics.js';
import type { AttemptSummary } from '../upstream/upstream-attempt.js';
import type { RunnerObserver, StreamSpec } from './stream-runner.js';

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
    const fields = { stream_id: spec.streamId, trace_id: spec.traceId, records: result.published, republished: result.republished };
    switch (result.provenBy) {
      case 'count':
        return;
      // Read on purpose (the lease may have lapsed) is expected; read because the count stayed short is not.
      case 'read_shared':
        this.logger.info('the lease may have lapsed while the stream ran (a normalizer may have added gateway.lost): raw trace proven stored by reading it', fields);
        return;
      case 'read':
        this.logger.warn('NATS counts fewer raw trace records than it holds: proven stored by reading them', fields);
        return;
      default:
        assertNever(result.provenBy, 'proof');
    }
  }

  backlogged(spec: StreamSpec, unconfirmed: number): void {
    this.logger.error('JetStream confirms no raw trace records: ending the stream (trace_backlog)', {
      stream_id: spec.streamId,
      trace_id: spec.traceId,
      unconfirmed,
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
