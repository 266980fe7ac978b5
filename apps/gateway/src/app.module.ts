import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import type { NodeSDK } from '@opentelemetry/sdk-node';
import { ApiKeys, JsonLogger, type ApiKeyTable } from '@llm-stream/service-kit';
import { GatewayConfig } from './config/gateway-config.js';
import { GatewayIdentity } from './config/gateway-identity.js';
import { ApiErrorFilter } from './errors/api-error.filter.js';
import { HealthModule } from './health/health.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { NatsModule } from './nats/nats.module.js';
import { StreamsModule } from './streams/streams.module.js';
import { TelemetryLifecycle } from './telemetry/telemetry-lifecycle.js';

/** Wires the gateway: configuration, keys and logger are built before Nest starts and provided as values. */
@Module({})
export class AppModule {
  static register(config: GatewayConfig, keys: ApiKeyTable, logger: JsonLogger, telemetry: NodeSDK): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [MetricsModule, NatsModule, StreamsModule, HealthModule],
      providers: [
        { provide: GatewayConfig, useValue: config },
        { provide: GatewayIdentity, useValue: new GatewayIdentity(config.GATEWAY_ID) },
        { provide: ApiKeys, useValue: new ApiKeys(keys) },
        { provide: JsonLogger, useValue: logger },
        { provide: TelemetryLifecycle, useFactory: () => new TelemetryLifecycle(telemetry) },
        { provide: APP_FILTER, useFactory: () => new ApiErrorFilter(logger) },
      ],
      exports: [GatewayConfig, GatewayIdentity, ApiKeys, JsonLogger],
    };
  }
}
