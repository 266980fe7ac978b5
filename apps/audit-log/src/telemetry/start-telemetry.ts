import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { FileSpanExporter } from './file-span-exporter.js';

export interface TelemetrySettings {
  readonly service: string;
  readonly exporter: 'none' | 'otlp' | 'file';
  readonly file: string;
}

/**
 * Starts OpenTelemetry tracing with W3C trace-context propagation (the SDK's default propagator), so the
 * trace context carried in NATS headers continues one trace per stream across the services. `otlp` follows
 * the standard OTEL_EXPORTER_OTLP_* variables.
 */
export function startTelemetry(settings: TelemetrySettings): NodeSDK {
  const processors: SpanProcessor[] = [];
  if (settings.exporter === 'otlp') processors.push(new BatchSpanProcessor(new OTLPTraceExporter()));
  if (settings.exporter === 'file') {
    processors.push(new BatchSpanProcessor(new FileSpanExporter(settings.file, settings.service), { scheduledDelayMillis: 200 }));
  }
  const sdk = new NodeSDK({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.service }),
    spanProcessors: processors,
    instrumentations: [],
    autoDetectResources: false,
  });
  sdk.start();
  return sdk;
}
