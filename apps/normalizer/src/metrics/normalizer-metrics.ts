import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { UnknownEventCounter } from '@llm-stream/adapters';
import type { ProviderName } from '@llm-stream/contract';

/** The normalizer's Prometheus metrics (names documented in the README's operations section). */
export class NormalizerMetrics implements UnknownEventCounter {
  readonly registry = new Registry();

  readonly streamsEnded = new Counter({
    name: 'llm_streams_total',
    help: 'Streams ended, by terminal status and error category',
    labelNames: ['provider', 'status', 'error_category'] as const,
    registers: [this.registry],
  });

  readonly unknownEvents = new Counter({
    name: 'llm_unknown_events_total',
    help: 'Provider events and parts skipped because the adapter does not know them',
    labelNames: ['provider', 'type'] as const,
    registers: [this.registry],
  });

  readonly events = new Counter({
    name: 'llm_events_published_total',
    help: 'Contract events published, by type',
    labelNames: ['type'] as const,
    registers: [this.registry],
  });

  readonly timeToFirstDelta = new Histogram({
    name: 'llm_time_to_first_delta_seconds',
    help: 'From stream.start to the first block.delta (receive times)',
    labelNames: ['provider'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
    registers: [this.registry],
  });

  readonly openStreams = new Gauge({
    name: 'llm_normalizer_open_streams',
    help: 'Streams this replica owns right now',
    registers: [this.registry],
  });

  readonly takeovers = new Counter({
    name: 'llm_normalizer_takeovers_total',
    help: 'Streams resumed after another replica had published part of them',
    registers: [this.registry],
  });

  readonly gatewaysLost = new Counter({
    name: 'llm_gateway_lost_total',
    help: 'Streams ended because their gateway stopped renewing its lease',
    registers: [this.registry],
  });

  readonly badRecords = new Counter({
    name: 'llm_normalizer_bad_records_total',
    help: 'Raw trace messages that could not be decoded',
    registers: [this.registry],
  });

  readonly consumerLag = new Gauge({
    name: 'llm_jetstream_consumer_lag',
    help: 'Messages not yet delivered to a durable consumer',
    labelNames: ['consumer'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  unknown(provider: ProviderName, eventType: string): void {
    this.unknownEvents.inc({ provider, type: eventType });
  }
}
