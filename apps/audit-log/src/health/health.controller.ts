import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiLiveResponse, ApiReadinessResponses, readiness, type Readiness } from '@llm-stream/nest-kit';
import { NatsReadinessProbe } from '@llm-stream/pipeline';
import { IngestionStatus } from '../ingestion/ingestion-status.js';
import { IngestionLagPoller, type LagReport } from '../lag/ingestion-lag-poller.js';
import { INGESTION_LAG_SCHEMA } from '../query/query.openapi.js';
import { StoreHealth } from './store-health.js';

/**
 * Kubernetes probes: live while the process serves HTTP; ready (200) only while NATS and JetStream answer,
 * the database answers, and no ingestion loop is paused waiting for it. Both answers carry the ingestion lag.
 */
@ApiTags('operations')
@Controller('health')
export class HealthController {
  constructor(
    private readonly nats: NatsReadinessProbe,
    private readonly store: StoreHealth,
    private readonly ingestion: IngestionStatus,
    private readonly lag: IngestionLagPoller,
  ) {}

  @Get('live')
  @ApiLiveResponse()
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiReadinessResponses({ ingestion_lag: INGESTION_LAG_SCHEMA })
  async ready(): Promise<Readiness & { readonly ingestion_lag: LagReport }> {
    const [nats, database] = await Promise.all([this.nats.check(), this.store.check()]);
    // The lag is detail on both answers: JetStream holds the work, a lag never makes the service unready.
    return readiness({ ...nats, database, ingestion: this.ingestion.check() }, { ingestion_lag: this.lag.report() });
  }
}
