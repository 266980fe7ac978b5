import { trace } from '@opentelemetry/api';
import type { NodeSDK } from '@opentelemetry/sdk-node';
import { contextFromHeaders, headersForSpan } from '@llm-stream/observability';
import { startTelemetry } from './start-telemetry.js';

// The service's tracing as it starts (no exporter), and the trace context it carries through message headers.
describe('trace context through message headers (W3C traceparent)', () => {
  let sdk: NodeSDK;

  beforeAll(() => {
    sdk = startTelemetry('nest-kit-spec', 'none');
  });

  afterAll(async () => {
    await sdk.shutdown();
  });

  it('records spans with real ids even when nothing exports them', () => {
    const span = trace.getTracer('spec').startSpan('work');
    expect(span.isRecording()).toBe(true);
    expect(span.spanContext().traceId).toMatch(/^(?!0{32})[0-9a-f]{32}$/);
    span.end();
  });

  it("writes the span's traceparent, and the next hop continues the same trace from it", () => {
    const tracer = trace.getTracer('spec');
    const span = tracer.startSpan('publish');
    const { traceId, spanId } = span.spanContext();
    const headers = headersForSpan(span);
    expect(headers.traceparent).toBe(`00-${traceId}-${spanId}-01`);

    const received = contextFromHeaders((name) => headers[name]);
    expect(trace.getSpanContext(received)).toMatchObject({ traceId, spanId, isRemote: true });
    const child = tracer.startSpan('consume', {}, received);
    expect(child.spanContext().traceId).toBe(traceId);
    child.end();
    span.end();
  });

  it('gives an empty context for a message without trace headers (the next span starts a new trace)', () => {
    expect(trace.getSpanContext(contextFromHeaders(() => undefined))).toBeUndefined();
  });
});
