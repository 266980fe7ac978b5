import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, ApiKeyGuard, Principal, RequireScopes } from '@llm-stream/nest-kit';
import type { ApiKeyPrincipal } from '@llm-stream/service-kit';
import { ReplayPageDocs, StoredTracesDocs, StreamReplayDocs } from './replay.openapi.js';
import { ReplayService } from './replay.service.js';
import type { ReplayReport, StreamReplay } from '@llm-stream/adapters';
import type { StoredTracePage } from '@llm-stream/contract';

/**
 * The replay check over the audit API. Only `audit:full`: a replay reads every stored frame, reasoning
 * included (an audit:read key's placeholders would replay to false changes).
 */
@ApiTags('audit')
@ApiKeyAuth()
@Controller('v1')
@RequireScopes(['audit:full'])
@UseGuards(ApiKeyGuard)
export class ReplayController {
  constructor(private readonly replay: ReplayService) {}

  @Get('streams/:streamId/replay')
  @StreamReplayDocs()
  stream(@Param('streamId') streamId: string, @Principal() principal: ApiKeyPrincipal): Promise<StreamReplay> {
    return this.replay.stream(principal.tenant, streamId);
  }

  @Get('replay')
  @ReplayPageDocs()
  page(@Query() params: Record<string, unknown>, @Principal() principal: ApiKeyPrincipal): Promise<ReplayReport> {
    return this.replay.page(principal.tenant, params);
  }

  @Get('replay/traces')
  @StoredTracesDocs()
  traces(@Query() params: Record<string, unknown>, @Principal() principal: ApiKeyPrincipal): Promise<StoredTracePage> {
    return this.replay.traces(principal.tenant, params);
  }
}
