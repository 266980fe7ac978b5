import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import type { NodeSDK } from '@opentelemetry/sdk-node';
import { ApiErrorFilter, MetricsModule, NatsModule, TelemetryLifecycle } from '@llm-stream/nest-kit';
import { JsonLogger } from '@llm-stream/service-kit';
import { NormalizerConfig } from './config/normalizer-config.js';
import { HealthModule } from './health/health.module.js';
import { NormalizerMetrics } from './metrics/normalizer-metrics.js';
import { NormalizationModule } from './normalization/normalization.module.js';

/** Wires the normalizer: configuration and logger are built before Nest starts and provided as values. */
@Module({})
export class AppModule {
  static register(config: NormalizerConfig, logger: JsonLogger, telemetry: NodeSDK): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [MetricsModule.forRoot(NormalizerMetrics), NatsModule.forRoot({ service: 'normalizer', config }), HealthModule, NormalizationModule],
      providers: [
        { provide: NormalizerConfig, useValue: config },
        { provide: JsonLogger, useValue: logger },
        { provide: TelemetryLifecycle, useFactory: () => new TelemetryLifecycle(telemetry) },
        { provide: APP_FILTER, useFactory: () => new ApiErrorFilter(logger) },
      ],
      exports: [NormalizerConfig, JsonLogger],
    };
  }
}
