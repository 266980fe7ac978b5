import { Injectable } from '@nestjs/common';
import type { ContractEvent, WorkItem } from '@llm-stream/contract';
import type { FinishResult } from '@llm-stream/pipeline';
import { JsonLogger } from '@llm-stream/service-kit';
import { NormalizerMetrics } from '../metrics/normalizer-metrics.js';
import type { ObservedStream, StreamObserver } from './stream-worker.js';

/** Turns what stream workers report into metrics and log lines (never content). */
@Injectable()
export class StreamObserverService implements StreamObserver {
  /** stream.start receive time per open stream, for the time-to-first-delta histogram. */
  private readonly startedAt = new Map<string, number | null>();

  constructor(
    private readonly metrics: NormalizerMetrics,
    private readonly logger: JsonLogger,
  ) {}

  started(stream: ObservedStream, alreadyStored: number): void {
    if (alreadyStored > 0) this.metrics.takeovers.inc();
    this.log(stream).info(alreadyStored > 0 ? 'stream taken over' : 'stream owned', {
      provider: stream.item.provider,
      already_stored: alreadyStored,
    });
  }

  event(stream: ObservedStream, event: ContractEvent): void {
    const { item } = stream;
    this.metrics.events.inc({ type: event.type });
    switch (event.type) {
      case 'stream.start':
        this.startedAt.set(item.stream_id, event.ts);
        return;
      case 'block.delta': {
        const started = this.startedAt.get(item.stream_id);
        if (started === undefined || started === null) return;
        this.metrics.timeToFirstDelta.observe({ provider: item.provider }, Math.max(0, event.ts - started) / 1000);
        this.startedAt.set(item.stream_id, null);
        return;
      }
      case 'stream.done':
        this.metrics.streamsEnded.inc({ provider: item.provider, status: 'completed', error_category: '' });
        this.log(stream).info('stream completed', { stop_reason: event.stop_reason, seq: event.seq });
        return;
      case 'stream.error':
        this.metrics.streamsEnded.inc({ provider: item.provider, status: event.status, error_category: event.error.category });
        this.log(stream).info(`stream ${event.status}`, { error_category: event.error.category, seq: event.seq });
        return;
      case 'block.start':
      case 'block.stop':
      case 'stream.heartbeat':
      case 'stream.warning':
        return;
    }
  }

  badRecord(stream: ObservedStream, reason: string): void {
    this.metrics.badRecords.inc();
    this.log(stream).warn('raw trace record skipped', { reason });
  }

  stored(stream: ObservedStream, result: FinishResult): void {
    if (result.resent === 0 && result.settledByRead === 0) return;
    this.log(stream).info('events stored after sending some again', { events: result.published, resent: result.resent, settled_by_read: result.settledByRead });
  }

  gatewayLost(stream: ObservedStream): void {
    this.metrics.gatewaysLost.inc();
    this.log(stream).warn('gateway lease expired: ending stream', { gateway_id: stream.item.gateway_id });
  }

  finished(stream: ObservedStream, outcome: 'ended' | 'handed_over' | 'abandoned'): void {
    this.startedAt.delete(stream.item.stream_id);
    if (outcome !== 'ended') this.log(stream).warn(`stream ${outcome}`);
  }

  /** A redelivered work item whose holder, a live replica, answered: that replica goes on with the stream. */
  leftToHolder(item: WorkItem): void {
    this.metrics.leftToHolder.inc();
    this.logger.child({ stream_id: item.stream_id }).info('redelivered stream left to its holder');
  }

  /** Every line about a stream carries its stream_id and trace id. */
  private log(stream: ObservedStream): JsonLogger {
    return this.logger.child({ stream_id: stream.item.stream_id, trace_id: stream.traceId });
  }
}
