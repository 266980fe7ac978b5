import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, ApiKeyGuard, Principal, RequireScopes } from '@llm-stream/nest-kit';
import type { ApiKeyPrincipal } from '@llm-stream/service-kit';
import type { AuditStats } from '../store/audit-repository.js';
import { AUDIT_SCOPES } from './audit-view.js';
import type { StatsTimeline, UnknownEvents } from '@llm-stream/contract';
import { AuditQueryService } from './audit-query.service.js';
import { StatsDocs, StatsTimelineDocs, UnknownEventsDocs } from './query.openapi.js';

/**
 * `GET /v1/stats?from=&to=`: the tenant's stream counts by terminal state, error category, provider, unknown
 * events; `/timeline` the same counts over time (the console's chart), `/unknown-events` the streams that had them.
 */
@ApiTags('audit')
@ApiKeyAuth()
@Controller('v1/stats')
@RequireScopes(AUDIT_SCOPES)
@UseGuards(ApiKeyGuard)
export class StatsController {
  constructor(private readonly query: AuditQueryService) {}

  @Get()
  @StatsDocs()
  stats(@Query() params: Record<string, unknown>, @Principal() principal: ApiKeyPrincipal): Promise<AuditStats & { from: number | null; to: number | null }> {
    return this.query.stats(principal.tenant, params);
  }

  @Get('timeline')
  @StatsTimelineDocs()
  timeline(@Query() params: Record<string, unknown>, @Principal() principal: ApiKeyPrincipal): Promise<StatsTimeline> {
    return this.query.timeline(principal.tenant, params);
  }

  @Get('unknown-events')
  @UnknownEventsDocs()
  unknownEvents(@Query() params: Record<string, unknown>, @Principal() principal: ApiKeyPrincipal): Promise<UnknownEvents> {
    return this.query.unknownEvents(principal.tenant, params);
  }
}
