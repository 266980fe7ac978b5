import { Global, Module } from '@nestjs/common';
import { JETSTREAM_CONSUMERS, jetStreamTransportProvider } from '@llm-stream/nest-kit';
import { AuditConfig } from '../config/audit-config.js';
import { auditConsumers } from './audit-consumers.js';
import { IngestionController } from './ingestion.controller.js';
import { IngestionService } from './ingestion.service.js';
import { IngestionStatus } from './ingestion-status.js';

@Global()
@Module({
  controllers: [IngestionController],
  providers: [
    { provide: JETSTREAM_CONSUMERS, inject: [AuditConfig], useFactory: (config: AuditConfig) => auditConsumers(config) },
    jetStreamTransportProvider,
    IngestionService,
    { provide: IngestionStatus, useFactory: () => new IngestionStatus() },
  ],
  exports: [IngestionStatus],
})
export class IngestionModule {}
