import { Controller, Get, Inject, ServiceUnavailableException } from '@nestjs/common';
import type { JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { natsReadiness } from '@llm-stream/client';
import { IngestionStatus } from '../ingestion/ingestion-status.js';
import { JETSTREAM_MANAGER, NATS_CONNECTION } from '../nats/nats-tokens.js';
import { StoreHealth } from './store-health.js';

interface Readiness {
  readonly status: 'ready';
  readonly checks: Readonly<Record<string, string>>;
}

/**
 * Kubernetes probes: live while the process serves HTTP; ready (200) only while NATS and JetStream answer,
 * the database answers, and no ingestion loop is paused waiting for it.
 */
@Controller('health')
export class HealthController {
  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(JETSTREAM_MANAGER) private readonly jsm: JetStreamManager,
    private readonly store: StoreHealth,
    private readonly ingestion: IngestionStatus,
  ) {}

  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(): Promise<Readiness> {
    const [nats, database] = await Promise.all([natsReadiness(this.nc, this.jsm), this.store.check()]);
    const checks = { ...nats, database, ingestion: this.ingestion.check() };
    if (!Object.values(checks).every((value) => value === 'ok')) {
      throw new ServiceUnavailableException({ status: 'unavailable', checks });
    }
    return { status: 'ready', checks };
  }
}
