import { appendFileSync } from 'node:fs';
import { ExportResultCode, hrTimeToMilliseconds, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

/**
 * Writes finished spans as JSON lines to a file: a trace sink that needs no collector, used by the
 * quick start and by the tests that follow one stream_id across the services.
 */
export class FileSpanExporter implements SpanExporter {
  constructor(
    private readonly path: string,
    private readonly service: string,
  ) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    try {
      const lines = spans.map((span) => {
        const context = span.spanContext();
        return JSON.stringify({
          service: this.service,
          name: span.name,
          trace_id: context.traceId,
          span_id: context.spanId,
          parent_span_id: span.parentSpanContext?.spanId ?? null,
          start_ms: hrTimeToMilliseconds(span.startTime),
          end_ms: hrTimeToMilliseconds(span.endTime),
          status: span.status.code,
          attributes: span.attributes,
        });
      });
      appendFileSync(this.path, lines.map((line) => `${line}\n`).join(''));
      done({ code: ExportResultCode.SUCCESS });
    } catch (error) {
      done({ code: ExportResultCode.FAILED, error: error instanceof Error ? error : new Error(String(error)) });
    }
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
