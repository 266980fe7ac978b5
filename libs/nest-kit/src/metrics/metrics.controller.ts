import { Controller, Get, Header, Inject } from '@nestjs/common';
import { METRICS_CONTENT_TYPE, ServiceMetrics } from '@llm-stream/observability';
import { SERVICE_METRICS } from './metrics-tokens.js';

/** The Prometheus scrape endpoint. */
@Controller()
export class MetricsController {
  constructor(@Inject(SERVICE_METRICS) private readonly metrics: ServiceMetrics) {}

  @Get('metrics')
  @Header('Content-Type', METRICS_CONTENT_TYPE)
  render(): Promise<string> {
    return this.metrics.render();
  }
}
