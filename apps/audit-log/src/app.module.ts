import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import type { NodeSDK } from '@opentelemetry/sdk-node';
import { ApiErrorFilter, MetricsModule, NatsModule, TelemetryLifecycle } from '@llm-stream/nest-kit';
import { ApiKeys, JsonLogger } from '@llm-stream/service-kit';
import { AuditConfig } from './config/audit-config.js';
import { ConsoleModule } from './console/console.module.js';
import { TenantSettings } from './config/tenant-settings.js';
import { HealthModule } from './health/health.module.js';
import { IngestionModule } from './ingestion/ingestion.module.js';
import { LagModule } from './lag/lag.module.js';
import { AuditMetrics } from './metrics/audit-metrics.js';
import { QueryModule } from './query/query.module.js';
import { ReplayModule } from './replay/replay.module.js';
import { RetentionModule } from './retention/retention.module.js';
import { StoreModule } from './store/store.module.js';

/** Wires the audit log: configuration, keys and logger are built before Nest starts and provided as values. */
@Module({})
export class AppModule {
  static register(config: AuditConfig, keys: ApiKeys, logger: JsonLogger, telemetry: NodeSDK): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [MetricsModule.forRoot(AuditMetrics), StoreModule, NatsModule.forRoot({ service: 'audit-log', config }), IngestionModule, LagModule, QueryModule, ReplayModule, RetentionModule, HealthModule, ConsoleModule],
      providers: [
        { provide: AuditConfig, useValue: config },
        { provide: TenantSettings, useValue: TenantSettings.fromList(config.AUDIT_PROMPT_CAPTURE_TENANTS) },
        { provide: ApiKeys, useValue: keys },
        { provide: JsonLogger, useValue: logger },
        { provide: TelemetryLifecycle, useFactory: () => new TelemetryLifecycle(telemetry) },
        { provide: APP_FILTER, useFactory: () => new ApiErrorFilter(logger) },
      ],
      exports: [AuditConfig, TenantSettings, ApiKeys, JsonLogger],
    };
  }
}
