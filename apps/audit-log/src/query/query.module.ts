import { Module } from '@nestjs/common';
import { AuditQueryService } from './audit-query.service.js';
import { StatsController } from './stats.controller.js';
import { StreamsController } from './streams.controller.js';

@Module({ controllers: [StreamsController, StatsController], providers: [AuditQueryService] })
export class QueryModule {}
