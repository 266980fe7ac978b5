import { Controller, Get, Header } from '@nestjs/common';
import { GatewayMetrics } from './gateway-metrics.js';

@Controller()
export class MetricsController {
  constructor(private readonly metrics: GatewayMetrics) {}

  @Get('metrics')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  render(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
