import { Module, type DynamicModule } from '@nestjs/common';
import type { ServiceMetrics } from '@llm-stream/observability';
import { MetricsController } from './metrics.controller.js';
import { SERVICE_METRICS } from './metrics-tokens.js';

/**
 * The service's metrics (one instance of its {@link ServiceMetrics} subclass, injected by that class
 * everywhere) and `GET /metrics`. Global: every feature module records into the same registry.
 */
@Module({})
export class MetricsModule {
  static forRoot(metrics: new () => ServiceMetrics): DynamicModule {
    return {
      module: MetricsModule,
      global: true,
      controllers: [MetricsController],
      providers: [
        { provide: metrics, useFactory: () => new metrics() },
        { provide: SERVICE_METRICS, useExisting: metrics },
      ],
      exports: [metrics, SERVICE_METRICS],
    };
  }
}
