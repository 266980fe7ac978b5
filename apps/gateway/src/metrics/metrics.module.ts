import { Global, Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller.js';
import { GatewayMetrics } from './gateway-metrics.js';

@Global()
@Module({
  controllers: [MetricsController],
  providers: [{ provide: GatewayMetrics, useFactory: () => new GatewayMetrics() }],
  exports: [GatewayMetrics],
})
export class MetricsModule {}
