import { ServiceMetrics } from '@llm-stream/observability';

/** The gateway's Prometheus metrics (names documented in docs/operations.md, "Observe"). */
export class GatewayMetrics extends ServiceMetrics {
  readonly streamsStarted = this.counter({ name: 'llm_gateway_streams_started_total', help: 'Streams accepted, by provider and route', labelNames: ['provider', 'route'] });
  readonly streamsRefused = this.counter({
    name: 'llm_gateway_streams_refused_total',
    help: 'Streams refused by admission control (503 overloaded), by reason',
    labelNames: ['reason'],
  });

  readonly streamsEnded = this.counter({
    name: 'llm_gateway_streams_ended_total',
    help: 'Streams ended, by provider, route, terminal status and error category (as the gateway saw them)',
    labelNames: ['provider', 'route', 'status', 'error_category'],
  });

  readonly openStreams = this.gauge({ name: 'llm_gateway_open_streams', help: 'Streams whose upstream this instance holds' });

  readonly attempts = this.counter({
    name: 'llm_gateway_upstream_attempts_total',
    help: 'Upstream attempts, by provider, route, HTTP status and whether a retry followed',
    labelNames: ['provider', 'route', 'status', 'retried'],
  });

  readonly retries = this.counter({ name: 'llm_gateway_retries_total', help: 'Retries of an upstream request before the first visible delta, by provider and route', labelNames: ['provider', 'route'] });

  readonly addedLatency = this.histogram({
    name: 'llm_gateway_added_latency_seconds',
    help: 'From receiving an upstream frame to writing its contract event to the HTTP client',
    buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
  });

  readonly timeToFirstDelta = this.histogram({
    name: 'llm_gateway_time_to_first_delta_seconds',
    help: 'From accepting the request to writing the first block.delta to the HTTP client',
    labelNames: ['provider', 'route'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
  });

  readonly eventsWritten = this.counter({ name: 'llm_gateway_events_written_total', help: 'Contract events written to HTTP clients, by type', labelNames: ['type'] });
}
