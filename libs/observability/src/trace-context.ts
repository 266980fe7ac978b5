import { context, propagation, trace, type Context, type Span } from '@opentelemetry/api';
import type { HeaderLookup } from '@llm-stream/contract';

/** The W3C trace context of a message's headers (an empty context when it carries none). */
export function contextFromHeaders(header: HeaderLookup): Context {
  return propagation.extract(context.active(), undefined, {
    get: (_carrier, key) => header(key),
    keys: () => ['traceparent', 'tracestate'],
  });
}

/** `traceparent` / `tracestate` headers that continue `span`'s trace on the next hop. */
export function headersForSpan(span: Span): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(trace.setSpan(context.active(), span), carrier);
  return carrier;
}
