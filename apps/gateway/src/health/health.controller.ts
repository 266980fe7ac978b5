import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { NatsReadinessProbe } from '@llm-stream/pipeline';
import { StreamRegistry } from '../streams/stream-registry.service.js';

/**
 * Kubernetes probes: live while the process serves HTTP; ready while NATS and JetStream answer and it accepts
 * streams (not draining, and admission control would admit one: below MAX_OPEN_STREAMS and the lag bound).
 */
@Controller('health')
export class HealthController {
  constructor(
    private readonly nats: NatsReadinessProbe,
    private readonly registry: StreamRegistry,
  ) {}

  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(): Promise<{ status: 'ready'; checks: Record<string, string> }> {
    const checks = {
      ...(await this.nats.check()),
      accepting: this.registry.isAccepting ? 'ok' : 'draining',
      admission: this.registry.refusal() === undefined ? 'ok' : 'overloaded',
    };
    if (!Object.values(checks).every((value) => value === 'ok')) throw new ServiceUnavailableException({ status: 'unavailable', checks });
    return { status: 'ready', checks };
  }
}
