import { Global, Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller.js';
import { NormalizerMetrics } from './normalizer-metrics.js';

@Global()
@Module({
  controllers: [MetricsController],
  providers: [{ provide: NormalizerMetrics, useFactory: () => new NormalizerMetrics() }],
  exports: [NormalizerMetrics],
})
export class MetricsModule {}
