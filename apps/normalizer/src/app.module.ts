import { Module, type DynamicModule } from '@nestjs/common';
import type { NodeSDK } from '@opentelemetry/sdk-node';
import { JsonLogger } from '@llm-stream/service-kit';
import { NormalizerConfig } from './config/normalizer-config.js';
import { HealthModule } from './health/health.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { NatsModule } from './nats/nats.module.js';
import { NormalizationModule } from './normalization/normalization.module.js';
import { TelemetryLifecycle } from './telemetry/telemetry-lifecycle.js';

/** Wires the normalizer: configuration and logger are built before Nest starts and provided as values. */
@Module({})
export class AppModule {
  static register(config: NormalizerConfig, logger: JsonLogger, telemetry: NodeSDK): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [MetricsModule, NatsModule, HealthModule, NormalizationModule],
      providers: [
        { provide: NormalizerConfig, useValue: config },
        { provide: JsonLogger, useValue: logger },
        { provide: TelemetryLifecycle, useFactory: () => new TelemetryLifecycle(telemetry) },
      ],
      exports: [NormalizerConfig, JsonLogger],
    };
  }
}
