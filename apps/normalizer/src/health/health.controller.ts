import { Controller, Get } from '@nestjs/common';
import { readiness, type Readiness } from '@llm-stream/nest-kit';
import { NatsReadinessProbe } from '@llm-stream/pipeline';

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
    return readiness({ ...(await this.nats.check()) });
  }
}
