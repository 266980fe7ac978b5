import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, ApiKeyGuard, Principal, RequireScopes } from '@llm-stream/nest-kit';
import type { ApiKeyPrincipal } from '@llm-stream/service-kit';
import { AUDIT_SCOPES } from './audit-view.js';
import { ListStreamsDocs, RawTraceDocs, StreamDetailDocs, VerifyStreamDocs } from './query.openapi.js';
import type { RawTrace, StreamDetail, StreamList, VerifyReport } from '@llm-stream/contract';
import { AuditQueryService } from './audit-query.service.js';

/** The audit query API over streams; every route needs an API key and sees only its tenant's streams. */
@ApiTags('audit')
@ApiKeyAuth()
@Controller('v1/streams')
@RequireScopes(AUDIT_SCOPES)
@UseGuards(ApiKeyGuard)
export class StreamsController {
  constructor(private readonly query: AuditQueryService) {}

  @Get()
  @ListStreamsDocs()
  list(@Query() params: Record<string, unknown>, @Principal() principal: ApiKeyPrincipal): Promise<StreamList> {
    return this.query.list(principal.tenant, params);
  }

  @Get(':streamId')
  @StreamDetailDocs()
  detail(@Param('streamId') streamId: string, @Query() params: Record<string, unknown>, @Principal() principal: ApiKeyPrincipal): Promise<StreamDetail> {
    return this.query.detail(principal, streamId, params);
  }

  @Get(':streamId/raw')
  @RawTraceDocs()
  raw(@Param('streamId') streamId: string, @Query() params: Record<string, unknown>, @Principal() principal: ApiKeyPrincipal): Promise<RawTrace> {
    return this.query.raw(principal, streamId, params);
  }

  @Get(':streamId/verify')
  @VerifyStreamDocs()
  verify(@Param('streamId') streamId: string, @Principal() principal: ApiKeyPrincipal): Promise<VerifyReport> {
    return this.query.verify(principal.tenant, streamId);
  }
}
