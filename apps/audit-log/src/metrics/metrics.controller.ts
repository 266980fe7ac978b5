import { Controller, Get, Header } from '@nestjs/common';
import { AuditMetrics } from './audit-metrics.js';

@Controller()
export class MetricsController {
  constructor(private readonly metrics: AuditMetrics) {}

  @Get('metrics')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  render(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
