import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { NatsReadinessProbe } from '@llm-stream/pipeline';

interface Readiness {
  readonly status: 'ready';
  readonly checks: Readonly<Record<string, string>>;
}

/** Kubernetes probes: live while the process serves HTTP; ready (200) only while NATS and JetStream answer. */
@Controller('health')
export class HealthController {
  constructor(private readonly nats: NatsReadinessProbe) {}

  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(): Promise<Readiness> {
    const checks = { ...(await this.nats.check()) };
    if (!Object.values(checks).every((value) => value === 'ok')) {
      throw new ServiceUnavailableException({ status: 'unavailable', checks });
    }
    return { status: 'ready', checks };
  }
}
