import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import type { NodeSDK } from '@opentelemetry/sdk-node';
import { ApiErrorFilter, MetricsModule, NatsModule, TelemetryLifecycle } from '@llm-stream/nest-kit';
import { ApiKeys, JsonLogger } from '@llm-stream/service-kit';
import { GatewayConfig } from './config/gateway-config.js';
import { GatewayIdentity } from './config/gateway-identity.js';
import { HealthModule } from './health/health.module.js';
import { GatewayMetrics } from './metrics/gateway-metrics.js';
import { RouteSource } from './routes/route-source.js';
import { StreamsModule } from './streams/streams.module.js';
import { SecretRedactor } from './upstream/redaction/secret-redactor.js';

/** Wires the gateway: configuration, keys, routes, the redactor and logger are built before Nest starts and provided as values. */
@Module({})
export class AppModule {
  static register(config: GatewayConfig, keys: ApiKeys, routes: RouteSource, redactor: SecretRedactor, logger: JsonLogger, telemetry: NodeSDK): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [MetricsModule.forRoot(GatewayMetrics), NatsModule.forRoot({ service: 'gateway', config }), StreamsModule, HealthModule],
      providers: [
        { provide: GatewayConfig, useValue: config },
        { provide: GatewayIdentity, useValue: new GatewayIdentity(config.GATEWAY_ID) },
        { provide: ApiKeys, useValue: keys },
        { provide: RouteSource, useValue: routes },
        { provide: JsonLogger, useValue: logger },
        { provide: SecretRedactor, useValue: redactor },
        { provide: TelemetryLifecycle, useFactory: () => new TelemetryLifecycle(telemetry) },
        { provide: APP_FILTER, useFactory: () => new ApiErrorFilter(logger) },
      ],
      exports: [GatewayConfig, GatewayIdentity, ApiKeys, RouteSource, JsonLogger, SecretRedactor],
    };
  }
}
