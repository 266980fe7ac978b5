import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { METRICS_CONTENT_TYPE, ServiceMetrics } from '@llm-stream/observability';
import { SERVICE_METRICS } from './metrics-tokens.js';

/** The Prometheus scrape endpoint. */
@ApiTags('operations')
@Controller()
export class MetricsController {
  constructor(@Inject(SERVICE_METRICS) private readonly metrics: ServiceMetrics) {}

  @Get('metrics')
  @Header('Content-Type', METRICS_CONTENT_TYPE)
  @ApiOperation({ summary: 'Prometheus metrics (text exposition format 0.0.4)' })
  @ApiOkResponse({ description: 'The metrics.', content: { 'text/plain': { schema: { type: 'string' } } } })
  render(): Promise<string> {
    return this.metrics.render();
  }
}
