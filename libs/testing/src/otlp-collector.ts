import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from './wait-for.js';

/** One span as an OTLP/HTTP JSON exporter sent it, flattened. */
export interface CollectedSpan {
  readonly service: string;
  readonly name: string;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly attributes: Readonly<Record<string, string | number | boolean>>;
}

export interface OtlpCollector {
  /** The traces endpoint, for OTEL_EXPORTER_OTLP_TRACES_ENDPOINT. */
  readonly tracesUrl: string;
  /** Every span received so far. */
  spans(): readonly CollectedSpan[];
  /** Waits until a span matching `predicate` arrived (exporters batch, so spans come a little late). */
  waitForSpan(predicate: (span: CollectedSpan) => boolean, timeoutMs?: number): Promise<CollectedSpan>;
  stop(): Promise<void>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpRequest {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: { spans?: { traceId: string; spanId: string; parentSpanId?: string; name: string; attributes?: OtlpAttribute[] }[] }[];
  }[];
}

/**
 * A minimal OpenTelemetry collector for tests: it accepts OTLP/HTTP JSON on `POST /v1/traces` (what the
 * services' real exporter sends with TRACE_EXPORTER=otlp) and keeps the spans in memory.
 */
export async function startOtlpCollector(): Promise<OtlpCollector> {
  const received: CollectedSpan[] = [];
  const server: Server = createServer((request, response) => {
    readBody(request)
      .then((body) => {
        if (request.method !== 'POST' || request.url !== '/v1/traces') {
          response.writeHead(404).end();
          return;
        }
        received.push(...flatten(JSON.parse(body) as OtlpRequest));
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      })
      .catch(() => {
        response.writeHead(400).end();
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    tracesUrl: `http://127.0.0.1:${String(port)}/v1/traces`,
    spans: () => [...received],
    waitForSpan: (predicate, timeoutMs = 15_000) =>
      waitFor(() => received.find(predicate), { timeoutMs, description: 'an OTLP span matching the predicate' }),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    request.on('error', reject);
  });
}

function flatten(request: OtlpRequest): CollectedSpan[] {
  const spans: CollectedSpan[] = [];
  for (const resource of request.resourceSpans ?? []) {
    const service = String(attributes(resource.resource?.attributes)['service.name'] ?? '');
    for (const scope of resource.scopeSpans ?? []) {
      for (const span of scope.spans ?? []) {
        spans.push({
          service,
          name: span.name,
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId === '' ? undefined : span.parentSpanId,
          attributes: attributes(span.attributes),
        });
      }
    }
  }
  return spans;
}

function attributes(list: readonly OtlpAttribute[] | undefined): Record<string, string | number | boolean> {
  const result: Record<string, string | number | boolean> = {};
  for (const { key, value } of list ?? []) {
    const scalar = value.stringValue ?? value.boolValue ?? value.doubleValue ?? (value.intValue === undefined ? undefined : Number(value.intValue));
    if (scalar !== undefined) result[key] = scalar;
  }
  return result;
}
