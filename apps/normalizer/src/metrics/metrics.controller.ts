import { Controller, Get, Header } from '@nestjs/common';
import { METRICS_CONTENT_TYPE } from '@llm-stream/observability';
import { NormalizerMetrics } from './normalizer-metrics.js';

/** The Prometheus scrape endpoint. */
@Controller()
export class MetricsController {
  constructor(private readonly metrics: NormalizerMetrics) {}

  @Get('metrics')
  @Header('Content-Type', METRICS_CONTENT_TYPE)
  render(): Promise<string> {
    return this.metrics.render();
  }
}
