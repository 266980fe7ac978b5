import type { UnknownEventCounter } from '@llm-stream/adapters';
import type { ProviderName } from '@llm-stream/contract';
import { ServiceMetrics } from '@llm-stream/observability';

/** The normalizer's Prometheus metrics (names documented in docs/operations.md, "Observe"). */
export class NormalizerMetrics extends ServiceMetrics implements UnknownEventCounter {
  readonly streamsEnded = this.counter({
    name: 'llm_streams_total',
    help: 'Streams ended, by terminal status and error category',
    labelNames: ['provider', 'status', 'error_category'],
  });

  readonly unknownEvents = this.counter({
    name: 'llm_unknown_events_total',
    help: 'Provider events and parts skipped because the adapter does not know them',
    labelNames: ['provider', 'type'],
  });

  readonly events = this.counter({ name: 'llm_events_published_total', help: 'Contract events published, by type', labelNames: ['type'] });

  readonly timeToFirstDelta = this.histogram({
    name: 'llm_time_to_first_delta_seconds',
    help: 'From stream.start to the first block.delta (receive times)',
    labelNames: ['provider'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
  });

  readonly openStreams = this.gauge({ name: 'llm_normalizer_open_streams', help: 'Streams this replica owns right now' });

  readonly takeovers = this.counter({ name: 'llm_normalizer_takeovers_total', help: 'Streams resumed after another replica had published part of them' });

  readonly leftToHolder = this.counter({
    name: 'llm_normalizer_redeliveries_left_to_holder_total',
    help: 'Redelivered work items another live replica still held (answered its holder query), so not taken over',
  });

  readonly leaseDoubts = this.counter({
    name: 'llm_normalizer_lease_doubts_total',
    help: 'Round trips to NATS that failed or came late; each keeps every gateway lease from expiring for one lease timeout (three when failed)',
  });

  readonly gatewaysLost = this.counter({ name: 'llm_gateway_lost_total', help: 'Streams ended because their gateway stopped renewing its lease' });

  readonly badRecords = this.counter({ name: 'llm_normalizer_bad_records_total', help: 'Raw trace messages that could not be decoded' });

  readonly consumerLag = this.gauge({ name: 'llm_jetstream_consumer_lag', help: 'Messages not yet delivered to a durable consumer', labelNames: ['consumer'] });

  unknown(provider: ProviderName, eventType: string): void {
    this.unknownEvents.inc({ provider, type: eventType });
  }
}
