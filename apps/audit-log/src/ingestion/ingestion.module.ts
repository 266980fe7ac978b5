import { Global, Module } from '@nestjs/common';
import { IngestionService } from './ingestion.service.js';
import { IngestionStatus } from './ingestion-status.js';

@Global()
@Module({
  providers: [IngestionService, { provide: IngestionStatus, useFactory: () => new IngestionStatus() }],
  exports: [IngestionStatus],
})
export class IngestionModule {}
