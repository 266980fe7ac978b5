import { Body, Controller, Delete, Get, Headers, HttpCode, HttpStatus, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, ApiKeyGuard, Principal, RequireScopes } from '@llm-stream/nest-kit';
import type { ApiKeyPrincipal } from '@llm-stream/service-kit';
import { ApiError } from '../errors/api-error.js';
import { CancelStreamDocs, CreateStreamDocs, ResumeStreamDocs } from './streams.openapi.js';
import { StreamsService } from './streams.service.js';

/** The gateway's HTTP API; every route needs a gateway API key with the `streams` scope and sees only its tenant's streams. */
@ApiTags('streams')
@ApiKeyAuth()
@Controller('v1/streams')
@RequireScopes(['streams'])
@UseGuards(ApiKeyGuard)
export class StreamsController {
  constructor(private readonly streams: StreamsService) {}

  /** Calls the route's upstream (a protocol name is its default route) with the provider's own request body; answers text/event-stream contract events. */
  @Post(':route')
  @CreateStreamDocs()
  create(
    @Param('route') route: string,
    @Body() body: unknown,
    @Query('model') model: string | undefined,
    @Principal() principal: ApiKeyPrincipal,
    @Req() request: IncomingMessage,
    @Res() response: ServerResponse,
  ): Promise<void> {
    return this.streams.create(route, body, model, principal, request, response);
  }

  /** Resumes after Last-Event-ID (or ?after=), from the stored log: also after the stream ended. */
  @Get(':streamId/events')
  @ResumeStreamDocs()
  events(
    @Param('streamId') streamId: string,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Query('after') after: string | undefined,
    @Principal() principal: ApiKeyPrincipal,
    @Res() response: ServerResponse,
  ): Promise<void> {
    return this.streams.resume(streamId, parseSeq(lastEventId ?? after), principal, response);
  }

  /** Cancels: the upstream request is aborted and the stream ends interrupted (client_cancelled). */
  @Delete(':streamId')
  @HttpCode(HttpStatus.ACCEPTED)
  @CancelStreamDocs()
  cancel(@Param('streamId') streamId: string, @Principal() principal: ApiKeyPrincipal): Promise<{ stream_id: string; status: 'cancelling' }> {
    return this.streams.cancel(streamId, principal);
  }
}

function parseSeq(value: string | undefined): number {
  if (value === undefined || value === '') return 0;
  if (!/^\d{1,15}$/.test(value)) throw new ApiError(HttpStatus.BAD_REQUEST, 'invalid_request', 'Last-Event-ID (or ?after=) must be an event seq');
  return Number(value);
}
