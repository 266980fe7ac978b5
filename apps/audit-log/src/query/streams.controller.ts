import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import type { ApiKeyPrincipal } from '@llm-stream/service-kit';
import { ApiKeyGuard } from '../auth/api-key.guard.js';
import { Principal } from '../auth/principal.decorator.js';
import { AuditQueryService, type RawTrace, type StreamDetail, type StreamList, type VerifyReport } from './audit-query.service.js';

/** The audit query API over streams; every route needs an API key and sees only its tenant's streams. */
@Controller('v1/streams')
@UseGuards(ApiKeyGuard)
export class StreamsController {
  constructor(private readonly query: AuditQueryService) {}

  @Get()
  list(@Query() params: Record<string, unknown>, @Principal() principal: ApiKeyPrincipal): Promise<StreamList> {
    return this.query.list(principal.tenant, params);
  }

  @Get(':streamId')
  detail(@Param('streamId') streamId: string, @Principal() principal: ApiKeyPrincipal): Promise<StreamDetail> {
    return this.query.detail(principal.tenant, streamId);
  }

  @Get(':streamId/raw')
  raw(@Param('streamId') streamId: string, @Principal() principal: ApiKeyPrincipal): Promise<RawTrace> {
    return this.query.raw(principal.tenant, streamId);
  }

  @Get(':streamId/verify')
  verify(@Param('streamId') streamId: string, @Principal() principal: ApiKeyPrincipal): Promise<VerifyReport> {
    return this.query.verify(principal.tenant, streamId);
  }
}
