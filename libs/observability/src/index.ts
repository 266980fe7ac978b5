// Observability helpers of the services: W3C trace-context propagation through message headers (the
// OpenTelemetry API only; starting the SDK is each service's own business) and the Prometheus metrics registry.
export { contextFromHeaders, headersForSpan } from './trace-context.js';
export { METRICS_CONTENT_TYPE, ServiceMetrics, type HistogramSpec, type MetricSpec } from './service-metrics.js';
