import { Global, Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller.js';
import { AuditMetrics } from './audit-metrics.js';

@Global()
@Module({
  controllers: [MetricsController],
  providers: [{ provide: AuditMetrics, useFactory: () => new AuditMetrics() }],
  exports: [AuditMetrics],
})
export class MetricsModule {}
