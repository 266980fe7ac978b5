import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { NoopSpanProcessor } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

/**
 * Starts OpenTelemetry tracing with W3C trace-context propagation (the SDK's default), so the trace context
 * carried in NATS headers continues one trace per stream across the services. Spans are recorded (real
 * trace ids for logs and headers) even when nothing exports them; `otlp` exports over OTLP/HTTP following the
 * standard OTEL_EXPORTER_OTLP_* and OTEL_BSP_* variables.
 */
export function startTelemetry(service: string, exporter: 'none' | 'otlp'): NodeSDK {
  const sdk = new NodeSDK({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: service }),
    // `otlp`: the SDK wraps the exporter in a batch processor configured by the OTEL_BSP_* variables. `none`:
    // with no processor at all the SDK would register no tracer provider, and every span would be non-recording
    // with an all-zero trace id (log lines could not be told apart, no context would reach NATS); a no-op
    // processor keeps it.
    ...(exporter === 'otlp' ? { traceExporter: new OTLPTraceExporter() } : { spanProcessors: [new NoopSpanProcessor()] }),
    instrumentations: [],
    autoDetectResources: false,
  });
  sdk.start();
  return sdk;
}
