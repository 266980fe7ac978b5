import { Module } from '@nestjs/common';
import { createProviderAdapter } from '@llm-stream/adapters';
import type { AuditRepository } from '../store/audit-repository.js';
import { AUDIT_REPOSITORY } from '../store/store-tokens.js';
import { ReplayController } from './replay.controller.js';
import { ReplayService } from './replay.service.js';

/** The replay routes; the service replays with this build's adapter registry, and only with it. */
@Module({
  controllers: [ReplayController],
  providers: [{ provide: ReplayService, inject: [AUDIT_REPOSITORY], useFactory: (repository: AuditRepository) => new ReplayService(repository, createProviderAdapter) }],
})
export class ReplayModule {}
