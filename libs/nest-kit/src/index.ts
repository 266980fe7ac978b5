// The Nest wiring every service shares (apps only may import it): the NATS connection module, tracing start,
// the metrics endpoint, the one exception filter and readiness bodies, the OpenAPI document and its decorators,
// and the transports of @nestjs/microservices that carry the control plane and the durable consumers.
export { JETSTREAM, JETSTREAM_MANAGER, NATS_CONNECTION } from './nats/nats-tokens.js';
export { NatsModule, type NatsModuleOptions } from './nats/nats.module.js';
export { startTelemetry } from './telemetry/start-telemetry.js';
export { TelemetryLifecycle } from './telemetry/telemetry-lifecycle.js';
export { MetricsModule } from './metrics/metrics.module.js';
export { SERVICE_METRICS } from './metrics/metrics-tokens.js';
export { ApiErrorFilter } from './errors/api-error.filter.js';
export { describeError, type ErrorResponse, type FrameworkErrorCode } from './errors/describe-error.js';
export { ServiceNotReady, readiness, type Readiness, type ReadinessChecks, type ReadinessDetail, type Unreadiness } from './health/readiness.js';
export { CORE_NATS, CoreNatsContext, CoreNatsTransport } from './transport/core-nats-transport.js';
export { attachCoreNats } from './transport/attach-core-nats.js';
export {
  HandlerInstrumentation,
  type HandledMessage,
  type HandledResult,
  type HandlerOutcome,
  type TransportName,
} from './transport/handler-instrumentation.js';
export { JETSTREAM_TRANSPORT, JetStreamTransport, type JetStreamTransportOptions } from './transport/jetstream-transport.js';
export { JetStreamContext, type DeliveredBy } from './transport/jetstream-context.js';
export type { JetStreamConsumer, JetStreamDelivery } from './transport/jetstream-consumer.js';
export { JETSTREAM_CONSUMERS, attachJetStream, jetStreamTransportProvider } from './transport/attach-jetstream.js';
export { ApiKeyGuard } from './auth/api-key.guard.js';
export { Principal } from './auth/principal.decorator.js';
export { RequireScopes } from './auth/require-scopes.decorator.js';
export { serveOpenApi, type OpenApiInfo } from './openapi/serve-openapi.js';
export { ApiKeyAuth } from './openapi/api-key-auth.decorator.js';
export { ApiErrorResponses, type ErrorResponses, type ErrorStatus } from './openapi/api-error-responses.decorator.js';
export { ApiLiveResponse, ApiReadinessResponses } from './openapi/api-health-responses.decorator.js';
