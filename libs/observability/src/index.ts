// Observability helpers of the services: OpenTelemetry tracing start-up, W3C trace-context propagation
// through message headers, and the Prometheus metrics registry. Plain TypeScript; no framework.
export { startTelemetry } from './start-telemetry.js';
export { contextFromHeaders, headersForSpan } from './trace-context.js';
export { METRICS_CONTENT_TYPE, ServiceMetrics, type HistogramSpec, type MetricSpec } from './service-metrics.js';
