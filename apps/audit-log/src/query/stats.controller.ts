import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, ApiKeyGuard, Principal, RequireScopes } from '@llm-stream/nest-kit';
import type { ApiKeyPrincipal } from '@llm-stream/service-kit';
import type { AuditStats } from '../store/audit-repository.js';
import { AUDIT_SCOPES } from './audit-view.js';
import { AuditQueryService } from './audit-query.service.js';
import { StatsDocs } from './query.openapi.js';

/** `GET /v1/stats?from=&to=`: the tenant's stream counts by terminal state, error category, provider, unknown events. */
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
}
