import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { NatsReadinessProbe } from '@llm-stream/pipeline';
import { IngestionStatus } from '../ingestion/ingestion-status.js';
import { IngestionLagPoller, type LagReport } from '../lag/ingestion-lag-poller.js';
import { StoreHealth } from './store-health.js';

interface Readiness {
  readonly status: 'ready';
  readonly checks: Readonly<Record<string, string>>;
  /** How far each consumer is behind (detail: a lag does not make the service unready, JetStream holds the work). */
  readonly ingestion_lag: LagReport;
}

/**
 * Kubernetes probes: live while the process serves HTTP; ready (200) only while NATS and JetStream answer,
 * the database answers, and no ingestion loop is paused waiting for it. Both answers carry the ingestion lag.
 */
@Controller('health')
export class HealthController {
  constructor(
    private readonly nats: NatsReadinessProbe,
    private readonly store: StoreHealth,
    private readonly ingestion: IngestionStatus,
    private readonly lag: IngestionLagPoller,
  ) {}

  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(): Promise<Readiness> {
    const [nats, database] = await Promise.all([this.nats.check(), this.store.check()]);
    const checks = { ...nats, database, ingestion: this.ingestion.check() };
    const lag = this.lag.report();
    if (!Object.values(checks).every((value) => value === 'ok')) {
      throw new ServiceUnavailableException({ status: 'unavailable', checks, ingestion_lag: lag });
    }
    return { status: 'ready', checks, ingestion_lag: lag };
  }
}
