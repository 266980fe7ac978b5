import { Controller, Get, Inject, ServiceUnavailableException } from '@nestjs/common';
import type { JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { natsReadiness } from '@llm-stream/client';
import { JETSTREAM_MANAGER, NATS_CONNECTION } from '../nats/nats-tokens.js';
import { StreamRegistry } from '../streams/stream-registry.service.js';

/** Kubernetes probes: live while the process serves HTTP; ready while NATS and JetStream answer and it accepts streams. */
@Controller('health')
export class HealthController {
  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(JETSTREAM_MANAGER) private readonly jsm: JetStreamManager,
    private readonly registry: StreamRegistry,
  ) {}

  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(): Promise<{ status: 'ready'; checks: Record<string, string> }> {
    const checks = { ...(await natsReadiness(this.nc, this.jsm)), accepting: this.registry.isAccepting ? 'ok' : 'draining' };
    if (!Object.values(checks).every((value) => value === 'ok')) throw new ServiceUnavailableException({ status: 'unavailable', checks });
    return { status: 'ready', checks };
  }
}
